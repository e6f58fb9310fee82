"""C-shape (the study, first universal rule): a free cell beside the head walled on two
other sides must be entered now, unless it is the end corner.

Such a cell keeps at most one free neighbour once the head moves on, so it
could only be the line's last cell. The rule is checked on every side of the
head, which covers the study's mirrored and rotated forms.
"""

from labyrinth.engine.board import MOVES
from labyrinth.rules.base import FORCE, Effect

__all__ = ["CShape"]


class CShape:
    """Force the move into a walled-in neighbour (border or line on two of its other sides)."""

    name = "c-shape"

    def effects(self, state):
        board, taken, head = state.board, state.taken, state.head
        out = []
        for d, move in enumerate(MOVES):
            c = int(board.neighbours[head, d])
            if c < 0 or taken[c] or c == board.end:
                continue
            walls = []
            for w in board.neighbours[c]:
                if w == head:
                    continue
                if w < 0 or taken[w]:
                    walls.append(int(w))
            if len(walls) >= 2:
                out.append(Effect(self.name, FORCE, move, (c, *(w for w in walls if w >= 0))))
        return out
