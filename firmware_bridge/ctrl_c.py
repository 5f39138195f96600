"""A Ctrl-C, told apart from an error, for the commands of all three packages.

Python's own Ctrl-C is a KeyboardInterrupt, but a library loading at that moment may turn it into another error
(NumPy's C modules raise an ImportError), and Python 3.11 wraps one raised while a class is made (in
``__set_name__``: a dataclass of a module being loaded) in a RuntimeError.  A command that calls
:func:`watch_ctrl_c` first, and asks :func:`ctrl_c_in` of any error it catches, stops as a Ctrl-C stops (one line,
exit 130) rather than show the error.  It lives in the lowest package and needs nothing but the standard library,
so that a command can set it up before it loads anything slow.
"""

from __future__ import annotations

import signal
import sys
import threading

EXIT_STOPPED = 130  # the shell's code for a command stopped by Ctrl-C (SIGINT)

CTRL_C = threading.Event()
"""Set by :func:`watch_ctrl_c`'s handler when a Ctrl-C came."""


def _on_ctrl_c(signum: int, frame: object) -> None:
    CTRL_C.set()
    raise KeyboardInterrupt


def watch_ctrl_c() -> None:
    """Python's own Ctrl-C, remembered (:data:`CTRL_C`).  Nothing changes when a program has its own handler,
    or when called from a thread other than the main one."""
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler and threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, _on_ctrl_c)


def ctrl_c_in(exc: BaseException) -> bool:
    """Whether ``exc`` comes from a Ctrl-C and must stop the command as a Ctrl-C does: one came while it was
    raised (:func:`watch_ctrl_c`), or it was raised from one (its cause or context, a few levels down)."""
    if CTRL_C.is_set():
        return True
    seen: BaseException | None = exc
    for _ in range(8):
        if seen is None:
            return False
        if isinstance(seen, KeyboardInterrupt):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def stopped(line: str = "Stopped.") -> int:
    """Ctrl-C: one line on stderr, and the exit code that says so."""
    print(f"\n{line}", file=sys.stderr)
    # Under `python -m`, CPython 3.11 turns the exit into a death by SIGINT when a Ctrl-C ended code run from a
    # string (a dataclass or an enum being made), even once caught; the next code run from a string forgets it.
    exec("")
    return EXIT_STOPPED
