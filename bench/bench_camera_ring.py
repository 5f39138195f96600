"""Memory the live camera's ring of aim-count frames holds (``controller.table.camera.LiveCamera``).

A fake 640x480 camera at 60 frames a second (a fresh frame per read, on a fake clock) is read as the
count's watcher reads it, for ``--seconds`` of frames per count (a camera watched longer than the count
needs), then the aims are asked of the camera (the table plane is not found in the blank frames, so the
reading itself fails: its frames are all this measures). Two counts in a row. Python's ``tracemalloc``
counts the frames' buffers (numpy reports them to it). Prints the memory held at the end of each count's
watch (the peak) and after each reading (held until the next count), in MiB.

    .venv/bin/python bench/bench_camera_ring.py [--seconds 6] [--fps 60]

Run with ``PYTHONPATH`` set to another checkout to measure its camera the same way.
"""

from __future__ import annotations

import argparse
import tracemalloc

import numpy as np

from controller.table.camera import LiveCamera

MB = 1 << 20  # MiB


class Clock:
    def __init__(self) -> None:
        self.t = 100.0

    def now(self) -> float:
        return self.t


class FakeCamera:
    """A webcam's frames: fresh 640x480 BGR frames, each 1/fps later on ``clock``."""

    def __init__(self, clock: Clock, fps: float) -> None:
        self.clock, self.fps = clock, fps

    def read(self) -> np.ndarray:
        self.clock.t += 1 / self.fps
        return np.full((480, 640, 3), 90, np.uint8)

    def close(self) -> None:
        pass


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=6.0, help="frames read per count, in seconds")
    parser.add_argument("--fps", type=float, default=60.0)
    args = parser.parse_args()
    clock = Clock()
    camera = LiveCamera(FakeCamera(clock, args.fps), None, fps=args.fps, clock=clock.now)
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    for count in (1, 2):
        first = clock.t  # the count's "1": the watch begins
        for _ in range(int(args.seconds * args.fps)):
            camera.capture()
        peak = tracemalloc.get_traced_memory()[0] - base
        try:
            camera.read_aims(seats=6, shooters=[0, 1], candidates=[0, 1], number=count, three_at=first + 1.6)
        except Exception as exc:  # the blank frames show no table: only the frames are measured
            why = type(exc).__name__
        else:
            why = "read"
        held = tracemalloc.get_traced_memory()[0] - base
        print(f"count {count}: {len(camera.ring)} frames kept after the reading ({why}); "
              f"{peak / MB:.0f} MiB at the end of the watch, {held / MB:.0f} MiB held until the next count")


if __name__ == "__main__":
    from by_hand import run  # bench/ is the script's folder

    run(main)
