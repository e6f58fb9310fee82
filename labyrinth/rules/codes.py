"""The one table of rule codes: every compiled rule's number, and the module whose kernel it reaches.

A compiled rule set is an array of these codes (:class:`labyrinth.rules.program.Program`);
:func:`labyrinth.rules.program.rule_masks` is the one place where a code meets its kernel.
Every rule module takes its ``CODE`` from here, so no number is written twice.

==================  ===============  ===========================================
name                value / range    module
==================  ===============  ===========================================
CSHAPE              1                :mod:`labyrinth.rules.cshape`
NEAR_BORDER         2                :mod:`labyrinth.rules.areas`
OLDER_LINE          3                :mod:`labyrinth.rules.areas`
COUNT_AREA          4                :mod:`labyrinth.rules.areas`
COLOUR_IMBALANCE    5                :mod:`labyrinth.rules.areas`
LINES               6                :mod:`labyrinth.rules._lines` (``future``)
MATCHING            7                :mod:`labyrinth.rules.matching`
CLOSURE             8                :mod:`labyrinth.rules.closure`
EXACT_AREAS         9                :mod:`labyrinth.rules.exact_areas`
PROBE               10 .. 13         :mod:`labyrinth.rules.probe` (``probe:K`` = ``PROBE + K - 1``)
CUT                 14               :mod:`labyrinth.rules.cut`
PROBE_CUT           30 .. 33         :mod:`labyrinth.rules.probe` (``probe-cut:K`` = ``PROBE_CUT + K - 1``)
MATCHING_CERTIFY    17               :mod:`labyrinth.rules.matching` (in a set of sound rules)
WINDOW_BASE         21 .. 25         :mod:`labyrinth.rules.window` (``window:R`` = ``WINDOW_BASE + R``)
PATTERN_BASE        100 ..           :mod:`labyrinth.rules.patterns` (``PATTERN_BASE + r``: table row ``r``)
==================  ===============  ===========================================
"""

__all__ = ["AREA_CODES", "CLOSURE", "COLOUR_IMBALANCE", "COUNT_AREA", "CSHAPE", "CUT", "EXACT_AREAS", "LINES", "MATCHING",
           "MATCHING_CERTIFY", "NEAR_BORDER", "OLDER_LINE", "PATTERN_BASE", "PROBE", "PROBE_CUT", "PROBE_MAX_DEPTH", "WINDOW_BASE",
           "WINDOW_MAX_RADIUS"]

CSHAPE = 1
NEAR_BORDER = 2
OLDER_LINE = 3
COUNT_AREA = 4
COLOUR_IMBALANCE = 5
#: the four area rules, one analysis shared (:mod:`labyrinth.rules.areas`)
AREA_CODES = (NEAR_BORDER, OLDER_LINE, COUNT_AREA, COLOUR_IMBALANCE)
LINES = 6
MATCHING = 7
CLOSURE = 8
EXACT_AREAS = 9
#: ``probe`` (depth 1); ``probe:K`` is ``PROBE + K - 1`` for K up to :data:`PROBE_MAX_DEPTH`
PROBE = 10
PROBE_MAX_DEPTH = 4
#: bridges and two-edge cuts of the closure's options
CUT = 14
#: ``probe-cut:K``, the probe whose suppositions the cut rule closes too, is ``PROBE_CUT + K - 1``
PROBE_CUT = 30
#: the two-matching in a rule set whose rules are all sound: it also certifies live moves
MATCHING_CERTIFY = 17
#: ``window:R`` is ``WINDOW_BASE + R`` for R from 1 to :data:`WINDOW_MAX_RADIUS`
WINDOW_BASE = 20
WINDOW_MAX_RADIUS = 5
#: codes from here on index the pattern table
PATTERN_BASE = 100
