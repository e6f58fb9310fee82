"""Puzzles beside the labyrinth, one module or package per puzzle."""

__all__ = []
