"""labyrinth: a constraint-backed rule verifier and oracle for the one-way labyrinth."""

__version__ = "0.1.0"
