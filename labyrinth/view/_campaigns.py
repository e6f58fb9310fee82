"""The campaigns of a findings store as the report shows them: every kind of campaign, finished or not."""

import json

__all__ = ["board_and_run", "campaign_row"]


def campaign_row(row, store):
    """A campaign with its params and totals read; an unfinished one's totals are its stored units' sums."""
    out = dict(row)
    out["params"] = json.loads(row["params"] or "{}")
    out["totals"] = json.loads(row["totals"] or "{}")
    if not row["finished"]:  # its row holds no totals (or an earlier run's): the units stored say where it stands
        out["totals"] = _units_sum(store.done_units(row["id"]).values())
    return out


def _units_sum(units):
    """The totals of a campaign's units added up: numbers summed, counters (``findings``...) summed per key.

    >>> _units_sum([{"walks": 2, "findings": {"missed-dead": 1}}, {"walks": 3, "findings": {"missed-dead": 2}}])
    {'walks': 5, 'findings': {'missed-dead': 3}}
    """
    out = {}
    for unit in units:
        for k, v in unit.items():
            if isinstance(v, bool):
                continue
            if isinstance(v, (int, float)):
                out[k] = out.get(k, 0) + v
            elif isinstance(v, dict) and all(isinstance(x, (int, float)) for x in v.values()):
                into = out.setdefault(k, {})
                for key, x in v.items():
                    into[key] = into.get(key, 0) + x
    return out


def board_and_run(c):
    """The board and the run of a campaign row, for every kind of campaign the store holds."""
    p = c["params"]
    kind = c["kind"]
    if kind == "exhaustive":
        return f"{p.get('n')}x{p.get('n')}", "exhaustive" + (f", split {p['split']}" if p.get("split") else "")
    if kind == "trace":
        return "research files", f"{p.get('files', '?')} files, their recorded options"
    if kind == "stats" and p.get("sizes"):
        sizes = ", ".join(f"{n}x{n}" for n in p["sizes"])
        return sizes, (f"walk statistic: {p.get('runs')} runs a size, each up to {p.get('cap')} walkthroughs, "
                       f"seed {p.get('seed')}")
    if kind == "walks" and p.get("n") is not None:
        return f"{p['n']}x{p['n']}", f"{p.get('walks')} walks, seed {c.get('seed')}"
    board = p.get("board", p.get("n"))
    return (f"{board}x{board}" if board is not None else "–"), kind
