"""Certificates: why a closed move is dead, as steps a person can read and a small checker can verify.

* :mod:`~verify.certificates.check`: the checker (standard library only: no
  rule, no oracle), with its board (:mod:`~verify.certificates.board`) and its
  step kinds (:mod:`~verify.certificates.kinds`, :data:`~verify.certificates.kinds.KINDS`);
* :mod:`~verify.certificates.build`: the builder, which re-derives a
  contradiction for a move with the arguments of ``strong`` (then the probe's
  cases and the cut rule's ``crossing`` steps: ``strong+`` to ``strong+++``)
  and makes it minimal;
* :mod:`~verify.certificates.words`: each step in words;
* :mod:`~verify.certificates.moves`: the certificates of every move a rule set closes at a state;
* :mod:`~verify.certificates.quote`: the sound sets' reason for a move another rule set left open (audits).

The step kinds, why each is sound and a drawn example of each: docs/certificates.md.
"""

from verify.certificates.build import certificate
from verify.certificates.check import KINDS, Verdict, check
from verify.certificates.moves import closed_certificates, closed_moves
from verify.certificates.quote import quote, quote_text
from verify.certificates.words import WORDS, sentences

__all__ = ["KINDS", "Verdict", "WORDS", "certificate", "check", "closed_certificates", "closed_moves", "quote", "quote_text",
           "sentences"]
