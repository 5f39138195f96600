"""Hostile inputs for the commands: one-field mutations of valid records, and running a command in-process.

A command given any input either works (exit 0) or refuses it with one line and exit 2; an exception
escaping ``main`` (a traceback for the user) fails the test that uses :func:`run`.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from controller.__main__ import main
from controller.record.generator import random_record

VALUES: list[Any] = [None, True, 0, -1, 7, 1.5, "", "x", "Bo", "purple", [], [1], ["x"], [[]], {}, {"x": 1}, {"x": []}]
DELETE = object()


def valid_records() -> list[dict]:
    """Valid records with Super Powers and Objects (and a plain 2nd edition game), as JSON objects."""
    return [
        random_record(7, "yakuzas", 9, powers=True, objects=True).to_dict(),
        random_record(11, "yakuzas", 6, powers=True, objects=True).to_dict(),
        random_record(5, "classic", 5, powers=True, objects=True).to_dict(),
        random_record(3, "classic-2014", 6).to_dict(),
    ]


def paths(value: Any, prefix: tuple = ()) -> Iterator[tuple]:
    """Every path to a value inside ``value`` (keys and list indexes)."""
    if isinstance(value, dict):
        for key, inner in value.items():
            yield (*prefix, key)
            yield from paths(inner, (*prefix, key))
    elif isinstance(value, list):
        for k, inner in enumerate(value):
            yield (*prefix, k)
            yield from paths(inner, (*prefix, k))


def mutate(data: Any, path: tuple, value: Any) -> Any:
    """A deep copy of ``data`` with the value at ``path`` replaced by ``value`` (or removed: :data:`DELETE`)."""
    copy = json.loads(json.dumps(data))
    parent = copy
    for key in path[:-1]:
        parent = parent[key]
    if value is DELETE:
        del parent[path[-1]]
    else:
        parent[path[-1]] = value
    return copy


def rename_key(data: Any, path: tuple, new: str) -> Any:
    """A deep copy of ``data`` with the key at ``path`` (in an object) renamed ``new``."""
    copy = json.loads(json.dumps(data))
    parent = copy
    for key in path[:-1]:
        parent = parent[key]
    parent[new] = parent.pop(path[-1])
    return copy


def mutation_specs(data: dict) -> list[tuple[tuple, str, Any]]:
    """Every one-field mutation of ``data``, as (path, "set" or "rename", value): each value replaced by each
    of :data:`VALUES` or removed, each object key renamed to an unknown name, a player name or a gang name."""
    specs: list[tuple[tuple, str, Any]] = []
    for path in paths(data):
        specs.extend((path, "set", value) for value in [*VALUES, DELETE])
        if isinstance(path[-1], str):
            specs.extend((path, "rename", new) for new in ("zz", "Bo", "purple", "white"))
    return specs


def apply(data: dict, spec: tuple[tuple, str, Any]) -> tuple[str, Any]:
    path, how, value = spec
    where = ".".join(map(str, path))
    if how == "rename":
        return f"{where} renamed {value}", rename_key(data, path, value)
    shown = "<deleted>" if value is DELETE else json.dumps(value)
    return f"{where} = {shown}", mutate(data, path, value)


def mutations(data: dict) -> Iterator[tuple[str, Any]]:
    for spec in mutation_specs(data):
        yield apply(data, spec)


def sample(data: dict, count: int, seed: int) -> list[tuple[str, Any]]:
    specs = mutation_specs(data)
    return [apply(data, spec) for spec in random.Random(seed).sample(specs, min(count, len(specs)))]


def run(argv: list[str]) -> tuple[int, str, str]:
    """Run ``cashnguns argv`` in-process: (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, out.getvalue(), err.getvalue()


def check_refused_or_done(code: int, err: str, what: str) -> None:
    assert code in (0, 2), f"{what}: exit {code}: {err}"
    if code == 2:
        assert err.count("\n") == 1 and err.strip(), f"{what}: not one line: {err!r}"
    assert "Traceback" not in err


def write(path: Path, data: Any) -> Path:
    path.write_text(json.dumps(data, ensure_ascii=True))
    return path
