"""Coordinates as the pictures write them."""

__all__ = ["rounded"]


def rounded(v):
    """A coordinate rounded for stable output (ints stay ints).

    >>> rounded(3.0), rounded(2.456), rounded(7)
    (3, 2.46, 7)
    """
    v = round(float(v), 2)
    return int(v) if v == int(v) else v
