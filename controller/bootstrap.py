"""Set up the project's virtual environment and run the demo or the tests.

Runs with nothing but a bare ``python3`` (3.11+), standard library only::

    python3 -m controller.bootstrap demo [demo options]
    python3 -m controller.bootstrap test [pytest options]

It creates ``.venv`` beside ``pyproject.toml`` (once), installs the project
into it (again only when ``pyproject.toml`` changed), then runs the command
inside it.  Debian's ``python3`` ships without ``ensurepip`` unless
``python3-venv`` is installed; in that case the venv is made without pip and
pip is fetched from the package index as a wheel and installed from itself.
"""

from __future__ import annotations

import hashlib
import os
import re
import signal
import subprocess
import sys
import tempfile
import urllib.parse
import urllib.request
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".venv"
INDEX = os.environ.get("PIP_INDEX_URL", "https://pypi.org/simple").rstrip("/")

PACKAGES = ("controller", "vision", "firmware_bridge")

COMMANDS = {
    # command: (extra to install, module run inside the venv)
    "demo": ("", ["-m", "controller", "demo"]),
    "test": ("dev", ["-m", "pytest"]),
}


HELP = f"""Sets up {VENV} (once: a few minutes), then runs the command in it:
  demo [options]   a whole simulated game, told live (`demo --help` lists its options)
  test [options]   the tests (options go to pytest)
After it, the table's command is {VENV / "bin" / "cashnguns"}."""


def venv_python() -> Path:
    return VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def say(message: str) -> None:
    print(f"[bootstrap] {message}", file=sys.stderr, flush=True)


def has_ensurepip() -> bool:
    if os.environ.get("CASHNGUNS_BOOTSTRAP_NO_ENSUREPIP"):
        return False
    try:
        import ensurepip  # noqa: F401
    except ImportError:
        return False
    return True


def fetch_pip_wheel(dest: Path) -> Path:
    """Download the newest pip wheel from the package index's simple page (PEP 503)."""
    page = f"{INDEX}/pip/"
    with urllib.request.urlopen(page, timeout=60) as reply:
        html = reply.read().decode("utf-8", "replace")
    links = re.findall(r'href="([^"]*?/?(pip-([0-9]+(?:\.[0-9]+)*)-py3-none-any\.whl)[^"]*)"', html)
    if not links:
        raise SystemExit(f"[bootstrap] no pip wheel listed at {page}")
    href, filename, _ = max(links, key=lambda link: tuple(int(x) for x in link[2].split(".")))
    target: Path = dest / str(filename)
    say(f"fetching {filename}")
    with urllib.request.urlopen(urllib.parse.urljoin(page, href), timeout=300) as reply:
        target.write_bytes(reply.read())
    return target


def create_venv() -> None:
    say(f"creating {VENV}")
    if has_ensurepip():
        venv.EnvBuilder(with_pip=True, clear=True).create(VENV)
        return
    say("this python has no ensurepip (Debian without python3-venv): installing pip from a wheel")
    venv.EnvBuilder(with_pip=False, clear=True).create(VENV)
    with tempfile.TemporaryDirectory() as tmp:
        wheel = fetch_pip_wheel(Path(tmp))
        # A pip wheel can run itself: python pip.whl/pip install pip
        run([str(venv_python()), str(wheel / "pip"), "install", "--no-index", str(wheel)])


def run(argv: list[str]) -> None:
    result = subprocess.run(argv, cwd=ROOT)
    if result.returncode != 0:
        say(f"failed ({result.returncode}): {' '.join(argv)}")
        sys.exit(result.returncode)


def ensure_installed(extra: str) -> None:
    if not venv_python().exists():
        create_venv()
    stamp = VENV / f".installed-{extra or 'base'}"
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if stamp.exists() and stamp.read_text() == digest:
        return
    target = f".[{extra}]" if extra else "."
    say(f"installing the project and its dependencies into {VENV.name} (first run only)")
    run([str(venv_python()), "-m", "pip", "install", "--disable-pip-version-check", "-e", target])
    stamp.write_text(digest)


def compile_sources() -> None:
    """The project's modules compiled once, as pip compiles its dependencies: every command and every test
    that starts Python again then loads them from their bytecode, also where Python is told not to write it
    (``PYTHONDONTWRITEBYTECODE``). Up-to-date files are skipped; a failure only costs that time back."""
    subprocess.run([str(venv_python()), "-m", "compileall", "-q", "-j", "0", *PACKAGES], cwd=ROOT,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    usage = f"usage: python3 -m controller.bootstrap {{{','.join(COMMANDS)}}} [options]"
    if args[:1] in (["-h"], ["--help"]):
        print(f"{usage}\n\n{HELP}")
        return 0
    if not args or args[0] not in COMMANDS:
        print(f"{usage} (--help says more)", file=sys.stderr)
        return 2
    # The project requires 3.11 (pyproject), but this file runs under whatever ``python3`` the user has:
    # an older one must be told plainly what is wrong instead of failing later inside pip or the venv.
    if sys.version_info < (3, 11):  # noqa: UP036 - the check is for interpreters older than the project supports
        print(f"error: Python 3.11 or newer is needed, this is {sys.version.split()[0]}", file=sys.stderr)
        return 2
    extra, module = COMMANDS[args[0]]
    ensure_installed(extra)
    compile_sources()
    command = [str(venv_python()), *module, *args[1:]]
    return run_to_its_end(command, cwd=ROOT if args[0] == "test" else None)


def run_to_its_end(command: list[str], *, cwd: Path | None) -> int:
    """The command run to its end, its exit status returned. Ctrl-C at a terminal reaches the command and this
    process both: the command stops in its own way (a game says how to go on), and this one waits for it."""
    child = subprocess.Popen(command, cwd=cwd)
    # While it runs this process ignores Ctrl-C rather than catching it: a KeyboardInterrupt raised just after the
    # wait had reaped the child, before its status was kept, would leave the status lost (Popen then gives 0).
    while True:
        try:
            previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
            break
        except KeyboardInterrupt:  # it came as the child started: the child heard it too
            continue
    try:
        code = child.wait()
    finally:
        signal.signal(signal.SIGINT, previous)
    return 128 - code if code < 0 else code  # stopped by a signal: the status a shell gives (130 for Ctrl-C)


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:  # while .venv was being set up: nothing half-done counts as installed
        print("stopped: .venv was not finished; the same command finishes it", file=sys.stderr)
        sys.exit(130)
