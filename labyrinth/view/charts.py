"""Small SVG charts for the report, drawn with ``drawsvg``: grouped bars with error bars, histograms.

Plain and deterministic: no JavaScript, no fonts to fetch, so a report that
embeds them works offline.

>>> svg = bar_chart(["9", "11"], {"default": [8.9, 3.0]}, title="walkthroughs")
>>> svg.startswith("<svg") and "default" in svg
True
"""

import math

import drawsvg as dw

from labyrinth.view.coords import rounded as _r

__all__ = ["PALETTE", "bar_chart", "histograms", "line_chart", "log_bins"]

#: series colours, in order
PALETTE = ("#2f6fd6", "#e08a00", "#1f9d3a", "#8e44ad", "#d62728", "#17a2b8")
_FONT = "DejaVu Sans, Arial, sans-serif"


def _nice_max(v):
    """A round number >= v for the top of an axis."""
    if v <= 0:
        return 1
    e = 10 ** math.floor(math.log10(v))
    for k in (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10):
        if k * e >= v:
            return k * e
    return 10 * e


def _fmt(v):
    if v == int(v):
        return str(int(v))
    return f"{v:.3g}"


def bar_chart(labels, series, *, errors=None, markers=None, marker_name="", title="", xlabel="", ylabel="",
              width=860, height=300, colours=None, integer=False):
    """Grouped vertical bars: one group per label, one bar per series.

    Parameters
    ----------
    labels : list of str
        The groups along the x axis.
    series : dict
        Series name -> values (one per label; None for no bar).
    errors : dict, optional
        Series name -> (low, high) pairs drawn as whiskers.
    markers : list, optional
        One reference value per label (None for none), drawn as a black tick
        with ``marker_name`` in the legend (e.g. the study's figures).
    colours : dict, optional
        Series name -> colour.
    integer : bool
        Counts: the y axis ticks stay whole numbers.
    """
    errors = errors or {}
    names = list(series)
    colours = colours or {name: PALETTE[i % len(PALETTE)] for i, name in enumerate(names)}
    top = 0.0
    for name in names:
        for i, v in enumerate(series[name]):
            if v is not None:
                top = max(top, v, *(errors.get(name, [None] * len(labels))[i] or (0, 0)))
    for v in markers or ():
        if v is not None:
            top = max(top, v)
    top = _nice_max(top)
    if integer:
        top = max(4, 4 * math.ceil(top / 4))
    left, right, foot = 56, 14, 44
    probe = dw.Drawing(width, height)
    head = _legend(probe, names, colours, left, 36, marker_name if markers else None, width - right) + 16
    pw, ph = width - left - right, height - head - foot
    d = dw.Drawing(width, height, font_family=_FONT, font_size=12, id_prefix="bar")
    d.append(dw.Rectangle(0, 0, width, height, fill="#ffffff"))
    if title:
        d.append(dw.Text(title, 14, left, 18, font_weight="bold"))
    _legend(d, names, colours, left, 36, marker_name if markers else None, width - right)
    for k in range(5):  # horizontal grid and y ticks
        v = top * k / 4
        y = _r(head + ph - ph * k / 4)
        d.append(dw.Line(left, y, left + pw, y, stroke="#e4e4e4"))
        d.append(dw.Text(_fmt(v), 11, left - 6, _r(y + 4), text_anchor="end", fill="#555555"))
    d.append(dw.Line(left, head + ph, left + pw, head + ph, stroke="#444444"))
    group = pw / max(1, len(labels))
    bar = group * 0.8 / max(1, len(names))

    def yv(v):
        return _r(head + ph - ph * v / top)

    for i, label in enumerate(labels):
        gx = left + group * i + group * 0.1
        for j, name in enumerate(names):
            v = series[name][i]
            if v is None:
                continue
            x = gx + bar * j
            r = dw.Rectangle(_r(x), yv(v), _r(bar * 0.9), _r(ph * v / top), fill=colours[name])
            r.append_title(f"{name}, {label}: {_fmt(v)}")
            d.append(r)
            err = errors.get(name)
            if err and err[i] is not None:
                lo, hi = err[i]
                cx = _r(x + bar * 0.45)
                d.append(dw.Line(cx, yv(lo), cx, yv(hi), stroke="#222222", stroke_width=1.3))
                for w in (lo, hi):
                    d.append(dw.Line(_r(cx - 4), yv(w), _r(cx + 4), yv(w), stroke="#222222", stroke_width=1.3))
        if markers and markers[i] is not None:
            y = yv(markers[i])
            m = dw.Line(_r(gx - 3), y, _r(gx + group * 0.8 + 3), y, stroke="#000000", stroke_width=3)
            m.append_title(f"{marker_name}, {label}: {_fmt(markers[i])}")
            d.append(m)
        d.append(dw.Text(label, 11, _r(left + group * (i + 0.5)), head + ph + 16, text_anchor="middle"))
    _axis_labels(d, xlabel, ylabel, x=_r(left + pw / 2), bottom=height - 8, y=_r(head + ph / 2))
    return d.as_svg(header="")


def line_chart(xs, series, *, title="", xlabel="", ylabel="", floor=1e-6, width=860, height=360, colours=None,
               dashed=()):
    """Lines on a log-scaled y axis: one per series, a point per x; values under ``floor`` (zero) sit on it.

    Parameters
    ----------
    xs : list of numbers
        The x positions (board sizes).
    series : dict
        Series name -> values (one per x; None for no point).
    dashed : iterable of str
        Series drawn dashed (reference figures, such as the study's).

    >>> svg = line_chart([9, 11], {"universal": [0.1, 0.25], "strong": [0.0, None]}, title="stuck per walk")
    >>> svg.startswith("<svg") and "strong" in svg
    True
    """
    names = list(series)
    colours = colours or {name: PALETTE[i % len(PALETTE)] if i < len(PALETTE) else "#555555"
                          for i, name in enumerate(names)}
    values = [v for name in names for v in series[name] if v is not None and v > 0]
    hi = 10 ** math.ceil(math.log10(max(values + [floor * 10])))
    lo = floor
    left, right, foot = 64, 14, 44
    probe = dw.Drawing(width, height)
    head = _legend(probe, names, colours, left, 36, None, width - right) + 16
    pw, ph = width - left - right, height - head - foot
    d = dw.Drawing(width, height, font_family=_FONT, font_size=12, id_prefix="line")
    d.append(dw.Rectangle(0, 0, width, height, fill="#ffffff"))
    if title:
        d.append(dw.Text(title, 14, left, 18, font_weight="bold"))
    _legend(d, names, colours, left, 36, None, width - right)
    decades = int(round(math.log10(hi / lo)))

    def yv(v):
        v = max(v, lo)
        return _r(head + ph - ph * math.log10(v / lo) / decades)

    for k in range(decades + 1):
        v = lo * 10 ** k
        y = yv(v)
        d.append(dw.Line(left, y, left + pw, y, stroke="#e4e4e4"))
        label = f"1e{int(round(math.log10(v)))}" if k else f"<{lo:g}"
        d.append(dw.Text(label, 11, left - 6, _r(y + 4), text_anchor="end", fill="#555555"))
    x0, x1 = min(xs), max(xs)

    def xv(x):
        return _r(left + 20 + (pw - 40) * (x - x0) / max(1, x1 - x0))

    for x in xs:
        d.append(dw.Text(str(x), 11, xv(x), head + ph + 16, text_anchor="middle"))
    for name in names:
        points = [(xv(x), yv(v), x, v) for x, v in zip(xs, series[name]) if v is not None]
        for (ax, ay, _, _), (bx, by, _, _) in zip(points, points[1:]):
            d.append(dw.Line(ax, ay, bx, by, stroke=colours[name], stroke_width=2,
                             stroke_dasharray="5,4" if name in dashed else None))
        for px, py, x, v in points:
            c = dw.Circle(px, py, 3.5, fill=colours[name])
            c.append_title(f"{name}, {x}: {v:.3g}")
            d.append(c)
    _axis_labels(d, xlabel, ylabel, x=_r(left + pw / 2), bottom=height - 8, y=_r(head + ph / 2))
    return d.as_svg(header="")


def _axis_labels(d, xlabel, ylabel, *, x, bottom, y):
    """The x axis's label centred at ``x`` on the line ``bottom``, the y axis's turned upright, centred at ``y``."""
    if xlabel:
        d.append(dw.Text(xlabel, 12, x, bottom, text_anchor="middle", fill="#333333"))
    if ylabel:
        d.append(dw.Text(ylabel, 12, 14, y, text_anchor="middle", fill="#333333", transform=f"rotate(-90 14 {y})"))


def _legend(d, names, colours, x, y, marker_name, width):
    """Legend entries left to right, wrapping at ``width``; returns the y of the last row."""
    x0 = x
    items = [(name, colours[name]) for name in names] + ([(marker_name, None)] if marker_name else [])
    for name, colour in items:
        w = 34 + int(7 * len(name))
        if x > x0 and x + w > width:
            x, y = x0, y + 16
        if colour is None:
            d.append(dw.Line(x, y - 4, x + 14, y - 4, stroke="#000000", stroke_width=3))
        else:
            d.append(dw.Rectangle(x, y - 10, 12, 12, fill=colour))
        d.append(dw.Text(name, 12, x + 18, y))
        x += w
    return y


def log_bins(lo=1e-5, hi=100.0, per_decade=2):
    """Bin edges spaced evenly on a log scale, ``per_decade`` bins per factor of ten.

    >>> log_bins(1e-3, 1e-1, 1)
    [0.001, 0.01, 0.1]
    """
    k0, k1 = round(math.log10(lo) * per_decade), round(math.log10(hi) * per_decade)
    return [float(f"{10 ** (k / per_decade):.3g}") for k in range(k0, k1 + 1)]


def _seconds(v):
    if v >= 1:
        return f"{v:.3g} s"
    if v >= 1e-3:
        return f"{v * 1e3:.3g} ms"
    return f"{v * 1e6:.3g} µs"


def histograms(samples, *, title="", edges=None, width=860, row=86, note=None):
    """One histogram per series, stacked, sharing log-spaced bins: for times in seconds.

    ``samples``: series name -> list of seconds. Counts are per bin; the
    first and last bins also hold what falls below or above the edges.
    """
    names = [n for n in samples if samples[n]]
    edges = edges or log_bins()
    nb = len(edges) - 1
    left, right, head = 150, 14, 30
    foot = 40
    height = head + row * max(1, len(names)) + foot
    pw = width - left - right
    bw = pw / nb
    d = dw.Drawing(width, height, font_family=_FONT, font_size=12, id_prefix="hist")
    d.append(dw.Rectangle(0, 0, width, height, fill="#ffffff"))
    if title:
        d.append(dw.Text(title, 14, 10, 18, font_weight="bold"))
    for r, name in enumerate(names):
        counts = [0] * nb
        for v in samples[name]:
            i = 0
            while i < nb - 1 and v >= edges[i + 1]:
                i += 1
            counts[i] += 1
        top = max(counts) or 1
        y0 = head + row * r
        base = y0 + row - 14
        colour = PALETTE[r % len(PALETTE)]
        values = sorted(samples[name])
        median = values[len(values) // 2]
        d.append(dw.Text(name, 12, 10, y0 + 30, font_weight="bold"))
        d.append(dw.Text(f"{len(values)} queries", 11, 10, y0 + 46, fill="#555555"))
        d.append(dw.Text(f"median {_seconds(median)}", 11, 10, y0 + 61, fill="#555555"))
        d.append(dw.Line(left, base, left + pw, base, stroke="#444444"))
        for i, c in enumerate(counts):
            if not c:
                continue
            h = (row - 24) * c / top
            rect = dw.Rectangle(_r(left + bw * i + 1), _r(base - h), _r(bw - 2), _r(h), fill=colour)
            rect.append_title(f"{name}: {c} queries in [{_seconds(edges[i])}, {_seconds(edges[i + 1])})")
            d.append(rect)
            d.append(dw.Text(str(c), 10, _r(left + bw * (i + 0.5)), _r(base - h - 3), text_anchor="middle",
                             fill="#333333"))
    y = head + row * max(1, len(names))
    for i, e in enumerate(edges):
        if i % 2 == 0:
            x = _r(left + bw * i)
            d.append(dw.Line(x, y - 14, x, y - 10, stroke="#444444"))
            d.append(dw.Text(_seconds(e), 10, x, y + 2, text_anchor="middle", fill="#555555"))
    d.append(dw.Text(note or "seconds per oracle query (log scale)", 12, _r(left + pw / 2), height - 10,
                     text_anchor="middle", fill="#333333"))
    return d.as_svg(header="")
