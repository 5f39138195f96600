"""Waiting for the table's own threads as the table closes."""

from __future__ import annotations

import threading


def join(thread: threading.Thread | None, timeout: float) -> None:
    """Waits at most ``timeout`` seconds for ``thread`` to end.  A thread that never started (Ctrl-C landed
    between its making and its start, or during its start) has nothing to wait for; nor has the calling
    thread itself."""
    if thread is None or thread is threading.current_thread():
        return
    try:
        thread.join(timeout=timeout)
    except RuntimeError:  # "cannot join thread before it is started"
        pass
