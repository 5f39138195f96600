"""Hostile clips: whatever a clip folder holds, `vision judge` and `vision aims` exit 0 or 2 with one line on
stderr, never a traceback (property-based: hypothesis writes the folder)."""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from vision.__main__ import main

_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(["fps", "seats", "thrower", "three_at", "x"]), inner, max_size=5),
    max_leaves=12,
)
_CLIP_JSON = st.one_of(
    _JSON.map(lambda v: json.dumps(v).encode()),
    st.fixed_dictionaries({"fps": st.one_of(st.integers(-5, 400), st.floats(allow_nan=False), st.text(max_size=3)),
                           "seats": st.one_of(st.integers(-3, 12), st.none()),
                           "thrower": st.integers(-2, 10), "three_at": st.floats(-5, 1e6, allow_nan=False)})
    .map(lambda v: json.dumps(v).encode()),
    st.binary(max_size=64),
)


def _image(kind: str, rng: np.random.Generator) -> bytes:
    if kind == "garbage":
        return bytes(rng.integers(0, 256, int(rng.integers(0, 200)), dtype=np.uint8))
    h, w = int(rng.integers(1, 60)), int(rng.integers(1, 60))
    ok, buf = cv2.imencode(".png", rng.integers(0, 256, (h, w, 3), dtype=np.uint8))
    return buf.tobytes() if kind == "png" else buf.tobytes()[: len(buf) // 2]


@pytest.mark.parametrize("command", ["judge", "aims"])
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(clip_json=_CLIP_JSON, frames=st.lists(st.sampled_from(["png", "garbage", "cut"]), max_size=4),
       video=st.one_of(st.none(), st.binary(max_size=300)), seed=st.integers(0, 2**32 - 1))
def test_any_clip_folder_gives_exit_0_or_2_and_one_line(command, capsys, clip_json, frames, video, seed):
    folder = Path(tempfile.mkdtemp(prefix="fuzz-clip-"))
    try:
        rng = np.random.default_rng(seed)
        (folder / "clip.json").write_bytes(clip_json)
        if video is not None:
            (folder / "video.avi").write_bytes(video)
        if frames:
            (folder / "frames").mkdir()
            for k, kind in enumerate(frames):
                (folder / "frames" / f"{k:06d}.png").write_bytes(_image(kind, rng))
        code = main([command, str(folder), "--json"])
        out = capsys.readouterr()
        assert code in (0, 2), (code, out.err)
        if code == 2:
            lines = [line for line in out.err.splitlines() if line.strip()]
            assert len(lines) == 1 and "Traceback" not in out.err, out.err
    finally:
        shutil.rmtree(folder, ignore_errors=True)
