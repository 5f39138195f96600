"""A one-line progress display on stderr for anything that takes more than a second."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable, Iterator
from typing import TextIO, TypeVar

T = TypeVar("T")


def progress(items: Iterable[T], total: int, label: str, stream: TextIO | None = None) -> Iterator[T]:
    """Yields ``items`` while showing ``label n/total`` and the elapsed time (only on a terminal)."""
    stream = stream or sys.stderr
    show = stream.isatty()
    start = time.monotonic()
    n = 0
    for n, item in enumerate(items, start=1):
        yield item
        if show:
            stream.write(f"\r{label} {n}/{total}  {time.monotonic() - start:5.1f} s")
            stream.flush()
    if show:
        stream.write(f"\r{label} {n}/{total}  {time.monotonic() - start:5.1f} s\n")
        stream.flush()
