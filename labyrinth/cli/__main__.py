"""``python -m labyrinth.cli``: the same as the ``labyrinth`` command."""

import sys

from labyrinth.cli import main

sys.exit(main())
