"""``labyrinth report``: one self-contained HTML page for a findings store.

Sections, in order: the campaigns with their parameters and totals; the
findings per class, the missed-dead ones grouped by why they are dead and the rule
family meant to catch them (:mod:`verify.explain`), and the rules' fired/misfired counts; three plots
(walkthroughs before the first stuck walk per board size against the study's
table, oracle query times per backend, pattern frequency); a gallery of the
minimal stuck patterns, each linking to its example state drawn in full; and
the findings themselves. Everything is inline (CSS, SVG): the page needs no
network and no JavaScript.

Two sections measure rather than read: the walk statistics are run here
(``stats_runs`` runs per size, with the campaigns' rule sets), and the query
times are measured here on states taken from the store (every backend on the
same states), next to the per-unit mean query time the campaigns recorded.
"""

import collections
import html
import json
import time

from labyrinth.engine import parse_state
from labyrinth.errors import LabyrinthError
from labyrinth.rules import natural_key
from labyrinth.view._campaigns import board_and_run, campaign_row
from labyrinth.view.charts import bar_chart, histograms
from labyrinth.view.model import describe
from labyrinth.view.svg import inline, render, render_pattern
from verify.explain import KINDS, explain_findings, group

__all__ = ["STUDY_SIZES", "build_report", "timing_states"]

#: board sizes of the study's table of walkthroughs before the first stuck walk
STUDY_SIZES = (9, 11, 13, 15, 17, 19, 21)
_CLASSES = ("over-pruned", "missed-dead", "wrong-force", "unknown")
_E = html.escape


def build_report(store, *, stats_runs=100, stats_sizes=STUDY_SIZES, stats_cap=1000, seed=1, timing=40,
                 time_limit=2.0, gallery=60, max_findings=500, progress=None):
    """The report page (HTML text) of an open :class:`verify.store.Store`.

    Parameters
    ----------
    store : verify.store.Store
    stats_runs : int
        Runs per board size for the walk statistics (0 skips them).
    stats_sizes : tuple of int
        Board sizes for the walk statistics.
    stats_cap : int
        A run stops after this many walkthroughs (counted as censored).
    seed : int
        Seed of the walk statistics and of the timing sample.
    timing : int
        States on which every backend is timed (0 skips the measurement).
    time_limit : float
        Seconds per oracle query (timing, gallery examples).
    gallery : int
        At most this many patterns in the gallery, most frequent first.
    max_findings : int
        At most this many findings listed.
    progress : callable, optional
        Called with a short text as each section starts.
    """
    say = progress or (lambda text: None)
    campaigns = [campaign_row(c, store) for c in store.campaigns()]
    say("explaining findings")
    findings = explain_findings(store, store.findings())
    patterns = store.patterns()
    say("walk statistics")
    stats = _walk_stats(campaigns, stats_runs, stats_sizes, stats_cap, seed) if stats_runs > 0 else {}
    say("oracle timing")
    measured = _timing(timing_states(store, timing, seed), time_limit) if timing > 0 else {}
    recorded = _recorded_times(store, campaigns)
    say("gallery")
    shown = patterns[:gallery]
    examples = _examples(shown, findings, campaigns, time_limit)
    body = [
        f"<h1>Findings report: {_E(store.path)}</h1>",
        f"<p class=meta>{len(campaigns)} campaigns, {len(findings)} findings, {len(patterns)} minimal stuck "
        f"patterns. Made {time.strftime('%Y-%m-%d %H:%M', time.localtime())}.</p>",
        _nav(),
        _campaigns_section(campaigns),
        _classes_section(campaigns, findings),
        _explained_section(findings),
        _rules_section(campaigns, findings),
        _stats_section(stats, stats_runs, stats_cap, seed),
        _timing_section(measured, recorded, time_limit),
        _frequency_section(patterns),
        _gallery_section(shown, examples),
        _findings_section(findings, max_findings),
    ]
    return _PAGE.format(title=_E(f"labyrinth report: {store.path}"), css=_CSS, body="\n".join(body))


# --- data ---------------------------------------------------------------------------------------------------
def _rules_of(campaign):
    """``(name, off, on)`` of a campaign's rule set."""
    p = campaign["params"]
    return p.get("rules", campaign.get("rules")), tuple(p.get("off", ())), tuple(p.get("on", ()))


def _label(name, off, on):
    """A rule set's short name: ``universal``, ``bad.rule, 5 off``, ``default +future-lines``."""
    if name and name.endswith(".rule"):
        name = name.replace("\\", "/").rsplit("/", 1)[-1]
    text = name or "?"
    if off:
        text += " -" + off[0] if len(off) == 1 else f", {len(off)} off"
    return text + "".join(f" +{r}" for r in on)


def _walk_stats(campaigns, runs, sizes, cap, seed):
    """``{rule-set label: [WalkStats per size]}`` for the campaigns' compiled rule sets (else ``default``)."""
    from labyrinth.engine.walker import walk_statistics
    from labyrinth.rules import get_rule_set

    wanted = []
    for c in campaigns:
        key = _rules_of(c)
        if key not in wanted:
            wanted.append(key)
    sets = {}
    for name, off, on in wanted:
        try:
            rules = get_rule_set(name, off=off, on=on)
        except (LabyrinthError, OSError):
            continue  # a .rule file no longer there
        if rules.compiled():
            sets[_label(name, off, on)] = rules
        if len(sets) == 3:
            break
    if not sets:
        sets["default"] = get_rule_set("default")
    return {label: [walk_statistics(n, rules, runs, seed, cap=cap) for n in sizes] for label, rules in sets.items()}


def timing_states(store, limit, seed=1):
    """Up to ``limit`` states for timing the backends: the findings' states, the states their moves lead
    to, the patterns' examples, and prefixes of one unruled random walk per campaign board size."""
    from labyrinth.engine.walker import random_walk
    from labyrinth.rules import get_rule_set

    seen = {}
    for f in store.findings():
        seen.setdefault(f["state"], None)
        seen.setdefault(f["state"] + f["move"], None)
    for p in store.patterns():
        seen.setdefault(p["example"], None)
    sizes = sorted({json.loads(c["params"] or "{}").get("n") for c in store.campaigns()} - {None})
    none = get_rule_set("none")
    for n in sizes:
        walk = random_walk(n, none, seed)
        steps = walk.state.steps
        for k in range(0, steps + 1, max(1, steps // 12)):
            seen.setdefault(walk.state.prefix(k).compact(), None)
    states = []
    for text in seen:
        try:
            states.append(parse_state(text))
        except LabyrinthError:
            continue
    if len(states) > limit:
        step = len(states) / limit
        states = [states[int(i * step)] for i in range(limit)]
    return states


def _timing(states, time_limit):
    """Seconds per query, ``{backend: [seconds]}``: each backend afresh on the same states."""
    from oracle import available_backends, get_oracle

    out = {}
    for name in available_backends():
        times = []
        with get_oracle(name, time_limit=time_limit) as oracle:
            for s in states:
                times.append(oracle.decide(s).seconds)
        out[name] = times
    return out


def _recorded_times(store, campaigns):
    """Mean seconds per query of each recorded unit (the campaigns ran ``auto``)."""
    times = []
    for c in campaigns:
        for totals in store.done_units(c["id"]).values():
            if totals.get("queries"):
                times.append(totals["oracle_seconds"] / totals["queries"])
    return times


def _examples(patterns, findings, campaigns, time_limit):
    """``{pattern id: SVG}``: each pattern's example state drawn in full, with the rules of a campaign
    that found it."""
    from oracle import get_oracle
    from verify.minimize import Pattern

    rules_of = {c["id"]: _rules_of(c) for c in campaigns}
    campaign_of = {}
    for f in findings:
        if f["pattern"] is not None:
            campaign_of.setdefault(f["pattern"], f["campaign"])
    out = {}
    with get_oracle("auto", time_limit=time_limit) as oracle:
        for p in patterns:
            try:
                state = parse_state(p["example"])
            except LabyrinthError:
                continue
            rules = None
            if p["id"] in campaign_of:
                from labyrinth.rules import OracleRules, get_rule_set

                name, off, on = rules_of[campaign_of[p["id"]]]
                try:
                    rules = get_rule_set(name, off=off, on=on) if name != "oracle" else OracleRules(oracle)
                except (LabyrinthError, OSError):
                    rules = None
            pattern = Pattern.from_json(p)
            view = describe(state, rules, oracle, pattern=pattern)
            out[p["id"]] = inline(render(view, cell=22))
    return out


# --- sections -----------------------------------------------------------------------------------------------
def _nav():
    links = [("campaigns", "Campaigns"), ("classes", "Findings per class"), ("explained", "Why dead"),
             ("rules", "Rules"),
             ("walks", "Walks"), ("timing", "Oracle time"), ("frequency", "Pattern frequency"),
             ("gallery", "Gallery"), ("findings", "Findings")]
    return "<nav>" + " · ".join(f'<a href="#{a}">{t}</a>' for a, t in links) + "</nav>"


def _table(head, rows, cls=""):
    h = "".join(f"<th>{x}</th>" for x in head)
    body = "".join("<tr>" + "".join(f"<td>{x}</td>" for x in r) + "</tr>" for r in rows)
    return f'<table class="{cls}"><thead><tr>{h}</tr></thead><tbody>{body}</tbody></table>'


def _when(t):
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(t)) if t else "unfinished"


def _campaigns_section(campaigns):
    rows = []
    for c in campaigns:
        t = c["totals"]
        name, off, on = _rules_of(c)
        board, how = board_and_run(c)
        found = ", ".join(f"{k} {v}" for k, v in sorted(t.get("findings", {}).items())) or "none"
        full = (name or "?") + "".join(f" -{r}" for r in off) + "".join(f" +{r}" for r in on)
        rows.append([c["id"], _E(board), _E(full), _E(how),
                     t.get("walkthroughs", "–"), t.get("stuck", "–"), t.get("steps", "–"), t.get("queries", "–"),
                     f"{t.get('oracle_seconds', 0):.1f} / {t.get('work_seconds') or t.get('seconds', 0):.1f}"
                     f" / {t.get('seconds', 0):.1f}", _E(found),
                     _E(_when(c["finished"])), f"<code>{_E(c.get('code_version') or '')}</code>"])
    head = ["#", "board", "rules", "run", "walkthroughs", "stuck", "states", "queries", "oracle / work / wall s",
            "findings", "finished", "code"]
    return _section("campaigns", "Campaigns", _table(head, rows) if rows else "<p>No campaigns in this store.</p>")


def _classes_section(campaigns, findings):
    rows = []
    for k in _CLASSES:
        per = [c["totals"].get("findings", {}).get(k, 0) for c in campaigns]
        stored = sum(f["kind"] == k for f in findings)
        rows.append([k] + per + [sum(per), stored])
    head = ["class"] + [f"campaign {c['id']}" for c in campaigns] + ["total", "in store"]
    text = ("<p>Counts from each campaign's totals (an unfinished campaign's: its units stored so far); <em>in "
            "store</em> counts the stored findings (a finding the second backend did not confirm is not "
            "stored).</p>")
    return _section("classes", "Findings per class", text + _table(head, rows, "num"))


def _explained_section(findings):
    groups = group(findings)
    if not groups:
        return _section("explained", "Why the missed-dead states are dead",
                        "<p>No missed-dead findings on board walks.</p>")
    sizes = sorted({f["n"] for members in groups.values() for f in members})
    rows = []
    for (kind, family), members in groups.items():
        per = collections.Counter(f["n"] for f in members)
        pats = collections.Counter(f["pattern"] for f in members if f["pattern"] is not None)
        top = " ".join(f'<a href="#pattern-{p}">#{p}</a>×{c}' for p, c in pats.most_common(5)) or "–"
        rows.append([kind, _E(", ".join(family) or "none: size-specific pattern rules or search")]
                    + [per.get(n, 0) for n in sizes] + [len(members), top])
    head = ["class", "rules meant to catch it"] + [f"{n}x{n}" for n in sizes] + ["total", "most frequent patterns"]
    text = ("<p>Each missed-dead finding's dead state, classified by the cheapest sound argument that refutes it "
            "on the whole board (disconnected, dead end, sealed area, area parity, colour imbalance, future "
            "lines; <em>needs-search</em>: none of them), and the rule family meant to catch that class: a class "
            "with many findings is where that family's reach falls short, or, for needs-search, where a rule "
            "family is missing.</p>")
    return _section("explained", "Why the missed-dead states are dead", text + _table(head, rows))


def _rules_section(campaigns, findings):
    fired, misfired = {}, {}
    for c in campaigns:
        for r, v in c["totals"].get("fired", {}).items():
            fired[r] = fired.get(r, 0) + v
        for r, v in c["totals"].get("misfired", {}).items():
            misfired[r] = misfired.get(r, 0) + v
    by_class = {}
    for f in findings:
        for r in f["rules"]:
            by_class.setdefault(r, {}).setdefault(f["kind"], 0)
            by_class[r][f["kind"]] += 1
    names = sorted(set(fired) | set(misfired), key=lambda r: (-fired.get(r, 0), natural_key(r)))
    top = max(fired.values(), default=1) or 1
    rows = []
    for r in names:
        fi, mi = fired.get(r, 0), misfired.get(r, 0)
        share = f"{mi / fi:.1%}" if fi else "–"
        bar = (f'<span class=bar style="width:{120 * fi / top:.0f}px"></span>'
               f'<span class="bar bad" style="width:{120 * mi / top:.0f}px"></span>')
        cls = ", ".join(f"{k} {v}" for k, v in sorted(by_class.get(r, {}).items())) or "–"
        per = " ".join(f"{c['id']}:{c['totals'].get('fired', {}).get(r, 0)}/"
                       f"{c['totals'].get('misfired', {}).get(r, 0)}" for c in campaigns
                       if r in c["totals"].get("fired", {}) or r in c["totals"].get("misfired", {}))
        rows.append([f"<code>{_E(r)}</code>", fi, mi, share, bar, _E(cls), _E(per)])
    text = ("<p><em>fired</em>: moves the rule closed during the audits; <em>misfired</em>: closed moves that "
            "the oracle found feasible (a finding blames the rule). Grey bar fired, red bar misfired; per "
            "campaign as <code>campaign:fired/misfired</code>.</p>")
    head = ["rule", "fired", "misfired", "misfired share", "", "stored findings by class", "per campaign"]
    return _section("rules", "Rules: fired and misfired",
                    text + (_table(head, rows) if rows else "<p>No rule fired.</p>"))


def _stats_section(stats, runs, cap, seed):
    from labyrinth.engine.walker import STUDY_7X7_RULES

    if not stats:
        return _section("walks", "Walkthroughs before the first stuck walk", "<p>Not measured (--stats-runs 0).</p>")
    sizes = [s.n for s in next(iter(stats.values()))]
    labels = [f"{n}x{n}" for n in sizes]
    series = {name: [s.mean for s in rows] for name, rows in stats.items()}
    errors = {name: [(s.low, s.high) for s in rows] for name, rows in stats.items()}
    study = [STUDY_7X7_RULES.get(n) for n in sizes]
    chart = bar_chart(labels, series, errors=errors, markers=study, marker_name="study (7x7 rules)",
                      title="Mean walkthroughs completed before the first stuck walk", xlabel="board size",
                      ylabel="walkthroughs")
    rows = []
    for i, n in enumerate(sizes):
        row = [labels[i], study[i] if study[i] is not None else "–"]
        for name in stats:
            s = stats[name][i]
            row.append(f"{s.mean:.2f} [{s.low:.2f}, {s.high:.2f}]" + (f", {s.censored} censored" if s.censored
                                                                       else ""))
        rows.append(row)
    text = (f"<p>{runs} runs per size (seed {seed}; a run stops at {cap} walkthroughs), measured when this "
            "report was made, with the campaigns' rule sets; black ticks: the study's figures for its 7x7 rule "
            "set (1000 runs). Whiskers: 95% confidence interval.</p>")
    head = ["board", "study"] + [f"{_E(n)} mean [95% CI]" for n in stats]
    return _section("walks", "Walkthroughs before the first stuck walk",
                    text + _figure(chart) + _table(head, rows, "num"))


def _timing_section(measured, recorded, time_limit):
    samples = {name: times for name, times in measured.items() if times}
    if recorded:
        samples["auto (recorded)"] = recorded
    if not samples:
        return _section("timing", "Oracle time per query", "<p>No queries to show.</p>")
    chart = histograms(samples, title="Oracle time per query, by backend")
    count = max((len(t) for t in measured.values()), default=0)
    text = (f"<p>Each backend, fresh, on the same {count} states taken from this store (findings, the states "
            f"their moves lead to, pattern examples, prefixes of a random walk per board size), "
            f"{time_limit:g} s limit per query; the last row is what the campaigns recorded: each unit's oracle "
            "seconds over its queries.</p>")
    return _section("timing", "Oracle time per query", text + _figure(chart))


def _frequency_section(patterns):
    if not patterns:
        return _section("frequency", "Pattern frequency", "<p>No minimal stuck patterns in this store.</p>")
    top = patterns[:30]
    chart = bar_chart([f"#{p['id']}" for p in top], {"times seen": [p["count"] for p in top]},
                      title=f"How often each minimal stuck pattern was met (top {len(top)} of {len(patterns)})",
                      xlabel="pattern", ylabel="findings", width=max(860, 26 * len(top) + 80), integer=True)
    return _section("frequency", "Pattern frequency", _figure(chart))


def _gallery_section(patterns, examples):
    if not patterns:
        return _section("gallery", "Gallery of minimal stuck patterns", "<p>No patterns.</p>")
    cards, full = [], []
    for p in patterns:
        pid = p["id"]
        pic = render_pattern(p["facts"], title=p["drawing"], id_prefix=f"g{pid}_")
        link = f'<a href="#example-{pid}">example: <code>{_E(_short(p["example"]))}</code></a>' \
            if pid in examples else f"<code>{_E(_short(p['example']))}</code>"
        cards.append(f'<div class=card id="pattern-{pid}"><div class=pic>{pic}</div><b>#{pid}</b> seen '
                     f'{p["count"]}×<br>{len(p["facts"])} facts, {_E(p.get("turn") or "")}<br>{link}</div>')
        if pid in examples:
            full.append(f'<div class=example id="example-{pid}"><h3>Pattern #{pid}: '
                        f'<code>{_E(p["example"])}</code> <a href="#pattern-{pid}">↑</a></h3>'
                        f'{examples[pid]}</div>')
    text = ("<p>Each pattern in its own frame: the head at the centre heading up, dark = taken, hatched = "
            "outside the board, white = must be visited, square = the end corner, pale = optional. Each links to "
            "the dead state it came from, drawn in full: its cells outlined in amber, the optional cells pale.</p>")
    return _section("gallery", "Gallery of minimal stuck patterns",
                    text + '<div class=gallery>' + "".join(cards) + "</div>" + "".join(full))


def _findings_section(findings, limit):
    rows = []
    rank = {k: i for i, k in enumerate(KINDS)}
    ordered = sorted(findings, key=lambda f: (f["kind"], rank.get(getattr(f.get("explained"), "kind", None), -1),
                                              f["id"]))
    for f in ordered[:limit]:
        pat = f'<a href="#pattern-{f["pattern"]}">#{f["pattern"]}</a>' if f["pattern"] else "–"
        cells = " ".join(f"({x},{y})" for x, y in f["cells"]) or "–"
        e = f.get("explained")
        why = "–" if e is None else f"<b>{_E(e.kind)}</b>: {_E(e.text)}"
        rows.append([f["id"], f["campaign"], f["kind"], f"<code>{_E(_short(f['state'], 60))}</code>", f["move"],
                     _E(", ".join(f["rules"]) or "–"), cells, why, _strong_reason(f), pat,
                     _E(f["checked_by"] or "–")])
    more = f"<p>… and {len(findings) - limit} more.</p>" if len(findings) > limit else ""
    head = ["#", "campaign", "class", "state", "move", "blamed", "trigger cells", "why dead",
            "a sound set's certificate", "pattern", "confirmed by"]
    return _section("findings", "Findings",
                    (_table(head, rows) if rows else "<p>No findings.</p>") + more)


def _strong_reason(finding):
    """A missed-dead finding's move as the sound sets see it (the first that closes it: ``strong``, ...,
    ``strong+++``): its certificate's steps (folded), or why there is none."""
    from verify.certificates import quote, quote_text

    if finding["kind"] != "missed-dead" or "@" in finding["state"] or ":" not in finding["state"]:
        return "–"
    q = quote(finding["state"], finding["move"])
    if q["certificate"] is None:
        return _E(quote_text(q))
    k = len(q["certificate"]["steps"])
    items = "".join(f"<li>{_E(w.split('. ', 1)[1])}</li>" for w in q["words"])
    return (f"<details><summary>{_E(q['rules'])}: dead in {k} step{'' if k == 1 else 's'}</summary><ol>{items}</ol>"
            "</details>")


def _short(text, width=40):
    return text if len(text) <= width else text[: width - 1] + "…"


def _figure(svg):
    return f"<figure>{svg}</figure>"


def _section(anchor, title, body):
    return f'<section id="{anchor}"><h2>{_E(title)}</h2>{body}</section>'


_CSS = """
body { font-family: "DejaVu Sans", Arial, sans-serif; margin: 24px auto; max-width: 1180px; color: #222;
       padding: 0 16px; }
h1 { font-size: 22px; } h2 { font-size: 18px; border-bottom: 1px solid #ddd; padding-bottom: 4px; margin-top: 32px; }
h3 { font-size: 14px; }
nav { margin: 8px 0 16px; } nav a { color: #2f6fd6; text-decoration: none; }
.meta { color: #555; }
table { border-collapse: collapse; font-size: 13px; margin: 8px 0; }
th, td { border: 1px solid #ddd; padding: 3px 7px; text-align: left; vertical-align: top; }
th { background: #f4f4f4; }
table.num td { text-align: right; } table.num td:first-child { text-align: left; }
.bar { display: inline-block; height: 10px; background: #9a9a9a; margin-right: 2px; }
.bar.bad { background: #d62728; }
.gallery { display: flex; flex-wrap: wrap; gap: 10px; }
.card { border: 1px solid #ddd; border-radius: 4px; padding: 8px; font-size: 12px; width: 190px; }
.card .pic { min-height: 60px; margin-bottom: 4px; }
.card code { word-break: break-all; }
.example { display: inline-block; vertical-align: top; margin: 6px 12px 6px 0; }
figure { margin: 8px 0; }
code { font-size: 12px; }
"""

_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{title}</title>
<style>{css}</style>
</head>
<body>
{body}
</body>
</html>
"""
