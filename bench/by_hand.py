"""Running a benchmark by hand: Ctrl-C stops it with one line on stderr, not a traceback (exit 130, as a shell
reports a command stopped by Ctrl-C)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import NoReturn


def run(main: Callable[[], int | None]) -> NoReturn:
    """Runs ``main`` and exits with its code (0 for None), or 130 with one line when stopped by Ctrl-C."""
    try:
        code = main()
    except KeyboardInterrupt:
        sys.stderr.write("\nStopped (Ctrl-C): the measurement is incomplete and was not printed.\n")
        sys.exit(130)
    sys.exit(code or 0)
