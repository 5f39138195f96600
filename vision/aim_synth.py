"""Synthetic aim clips: players raising their weapons at the aim count, with ground truth.

A scene of its own (not the throw clips' renderer): a table of varied size and surface with its
corner markers, a standee at each seat (crown and base markers), and at each seat a weapon (a
foam gun or a tanto of varied shape and colour, marker 30 + seat flat on its top, top edge
towards the muzzle) held in a hand. Each player brings the weapon up from below the table's
edge and onto a target at a moment drawn around the count's "3", holds it with a trembling hand,
or points late, or never points (keeps it out of view, or waves it about). Lines of fire cross,
several weapons may aim at one seat, and another player's arm may cover a weapon at the
deadline. The camera (60-100 cm, tilt up to 25 degrees, lens distortion k1 up to 0.15) films it
with dim, bright or auto-exposed light, noise, shake up to 2 px, defocus of 0.3-1.0 px, a shutter
open 20-100 % of the frame interval (a moving weapon smears) and JPEG compression. Each player's
arm runs from the hand to the shoulder, behind the seat; weapons held at different heights may
pass over one another.

The truth of each weapon follows the spec's definition on the true geometry: the seat whose
standee lies closest to the line of fire on the table plane; pointed late when it first came to
rest after the deadline. Table coordinates: cm, origin at the table's centre, z up.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision import markers
from vision.sources import write_frames
from vision.synth import lens_maps

WIDTH, HEIGHT = 640, 480
_SHADE_STRIP = 24  # rows blended at a time under a shadow
_BLUR_REACH = 8  # px: more than the defocus blur's kernel reaches (3 px for 1 px of defocus)
PAD = 40
DEADLINE = 0.5  # seconds after the "3"
ARRIVE_IN_TIME = (-1.1, DEADLINE - 0.18)  # when an in-time weapon comes to rest, after the "3"
ARRIVE_LATE = (DEADLINE + 0.18, DEADLINE + 0.95)
VERY_LATE = (DEADLINE + 0.95, DEADLINE + 1.35)  # late pointers that come in at the end of the watch (``late_arrival``)
AFTER_DEADLINE_S = 1.6  # the clip goes on this long after the deadline (``AimSpec.after_deadline_s``)
CLEAR_START_S = 0.45  # the table is seen clear of weapons for this long at the start of a clip


@dataclass(frozen=True)
class WeaponPlan:
    """One seat's weapon through the clip."""

    seat: int
    behaviour: str  # "in_time", "late", "switch", "hidden_arm", "never_hidden", "never_waving"
    target: int | None  # the seat it ends up pointing at (None: never points)
    first_target: int | None  # "switch": the seat it pointed at first
    kind: str  # "gun" or "tanto"
    shape: int  # which drawing of the weapon
    colour: tuple[int, int, int]
    length_cm: float
    foot: tuple[float, float]  # where the marker is over the table at rest (cm)
    height_cm: float
    aim_error_deg: float
    appear_at: float  # seconds after the "3" it comes into view
    move_s: float  # how long its last move onto the target lasts
    arrive_at: float  # comes to rest on its target
    jitter_deg: float
    jitter_cm: float
    pitch_deg: float
    roll_deg: float
    skin: tuple[int, int, int]


@dataclass(frozen=True)
class AimSpec:
    seed: int
    seats: int
    fps: int
    three_at: float
    table_w: float
    table_h: float
    surface: str
    standee_h: float
    seat_jitter: tuple[tuple[float, float], ...]
    camera_height_cm: float
    tilt_deg: float
    tilt_dir_deg: float
    yaw_deg: float
    fill: float
    lens_k1: float
    light: str  # "dim", "normal", "bright", "auto"
    gain: float
    noise_sigma: float
    shake_px: float
    jpeg_quality: int
    print_black: int
    print_white: int
    weapons: tuple[WeaponPlan, ...]
    cover_arm: tuple[int, int, float, float] | None  # (arm's seat, covered seat, from, to) seconds after the "3"
    blur_sigma: float = 0.6  # defocus, pixels
    exposure: float = 0.0  # the shutter's open time, as a share of the frame interval: moving weapons smear
    after_deadline_s: float = AFTER_DEADLINE_S  # the clip goes on this long after the deadline


def variation_tags(spec: AimSpec) -> list[str]:
    tags = [f"seats:{spec.seats}", f"fps:{spec.fps}", f"light:{spec.light}", f"surface:{spec.surface}"]
    tags.append("tilt:strong" if spec.tilt_deg >= 12 else "tilt:mild")
    tags.append("lens:barrel" if spec.lens_k1 >= 0.07 else "lens:straight")
    tags.append("noise:high" if spec.noise_sigma >= 4 else "noise:low")
    tags.append("shake:yes" if spec.shake_px >= 1 else "shake:no")
    tags.append("jpeg:40-60" if spec.jpeg_quality <= 60 else "jpeg:high")
    tags.append("camera:high" if spec.camera_height_cm >= 80 else "camera:low")
    tags.append("print:grey" if spec.print_white - spec.print_black < 150 else "print:crisp")
    tags.append("blur:strong" if spec.blur_sigma >= 0.75 else "blur:mild")
    tags.append("exposure:long" if spec.exposure >= 0.6 else "exposure:short")
    tags.append("cant:yes" if any(abs(w.roll_deg) >= 15 for w in spec.weapons) else "cant:no")
    return tags


# ----------------------------------------------------------------------------- layout


def standee_positions(spec: AimSpec) -> list[np.ndarray]:
    out = []
    for s in range(spec.seats):
        a = -math.pi / 2 - 2 * math.pi * s / spec.seats
        jr, ja = spec.seat_jitter[s]
        out.append(np.array([(spec.table_w / 2 - 11 + jr) * math.cos(a + ja),
                             (spec.table_h / 2 - 10 + jr) * math.sin(a + ja)]))
    return out


def corner_positions(spec: AimSpec) -> list[np.ndarray]:
    x, y = spec.table_w / 2 - 3.5, spec.table_h / 2 - 3.5
    return [np.array(p) for p in ((-x, -y), (-x, y), (x, y), (x, -y))]


def true_target(foot: np.ndarray, direction: float, standees: list[np.ndarray], shooter: int) -> tuple[int, float, float]:
    """The spec's definition: the standee closest to the ray on the table plane. Returns (seat, the
    distance margin to the next one in cm, the angular margin in degrees)."""
    d = np.array([math.cos(direction), math.sin(direction)])
    rows = []
    for s, p in enumerate(standees):
        if s == shooter:
            continue
        rel = p - foot
        along = float(rel @ d)
        perp = float(rel[0] * d[1] - rel[1] * d[0])
        if along <= 0:  # behind the weapon
            continue
        rows.append((abs(perp), abs(math.degrees(math.atan2(perp, along))), s))
    rows.sort()
    if len(rows) < 2:
        rows.append((math.inf, 180.0, -1))
    return rows[0][2], rows[1][0] - rows[0][0], rows[1][1] - rows[0][1]


# ----------------------------------------------------------------------------- drawing the spec


def _pick(rng: np.random.Generator, options: list[Any], p: list[float] | None = None) -> Any:
    return options[int(rng.choice(len(options), p=p))]


def random_spec(seed: int, **overrides: Any) -> AimSpec:
    rng = np.random.default_rng(seed)
    seats = int(overrides.pop("seats", rng.integers(4, 10)))
    light = overrides.pop("light", None) or _pick(rng, ["dim", "normal", "bright", "auto"])
    base: dict[str, Any] = {
        "seed": seed, "seats": seats, "fps": int(_pick(rng, [30, 60], [0.4, 0.6])),
        "three_at": float(rng.uniform(2.0, 2.6)),
        "table_w": float(rng.uniform(75, 100)), "table_h": float(rng.uniform(56, 76)),
        "surface": _pick(rng, ["felt", "wood", "cloth", "plain"]),
        "standee_h": float(rng.uniform(9, 13)),
        "seat_jitter": tuple((float(rng.uniform(-2.5, 2.5)), float(rng.uniform(-0.08, 0.08))) for _ in range(seats)),
        "camera_height_cm": float(rng.uniform(60, 100)),
        "tilt_deg": float(rng.uniform(0, 25)), "tilt_dir_deg": float(rng.uniform(0, 360)),
        "yaw_deg": float(rng.uniform(-15, 15) + _pick(rng, [0, 90, 180, 270])),
        "fill": float(rng.uniform(0.82, 0.95)), "lens_k1": float(rng.uniform(0, 0.15)),
        "light": light,
        "gain": {"dim": float(rng.uniform(0.35, 0.6)), "normal": float(rng.uniform(0.75, 1.05)),
              "bright": float(rng.uniform(1.15, 1.45)), "auto": float(rng.uniform(0.6, 1.2))}[light],
        "noise_sigma": float(rng.uniform(1, 7)), "shake_px": float(_pick(rng, [0.0, rng.uniform(0.5, 2.0)])),
        "jpeg_quality": int(_pick(rng, [int(rng.integers(40, 61)), int(rng.integers(61, 95))])),
        "print_black": int(rng.integers(0, 70)), "print_white": int(rng.integers(185, 250)),
        "weapons": (), "cover_arm": None,
    }
    wanted_weapons = overrides.pop("behaviours", None)
    fixed = overrides.pop("aims", None)  # {seat: (target or None, late)}: what the players really do
    late_arrival = tuple(overrides.pop("late_arrival", ARRIVE_LATE))  # when late pointers come to rest (after the "3")
    after = float(overrides.get("after_deadline_s", AFTER_DEADLINE_S))
    if len(late_arrival) != 2 or not DEADLINE < late_arrival[0] <= late_arrival[1] <= DEADLINE + after:
        raise ValueError(f"late_arrival {late_arrival}: from the deadline ({DEADLINE} s) to the clip's end "
                         f"({DEADLINE + after} s after the \"3\")")
    if fixed is not None:
        wanted_weapons = [("absent" if s not in fixed else "never_hidden" if fixed[s][0] is None
                           else "late" if fixed[s][1] else "in_time") for s in range(seats)]
    base.update({k: v for k, v in overrides.items()})
    spec = AimSpec(**base)
    for _ in range(60):  # a set-up the calibration accepts: every table marker at least 15 px wide
        if _smallest_marker_px(spec) >= 15.0 or {"camera_height_cm", "tilt_deg"} & set(overrides):
            break
        spec = AimSpec(**{**asdict(spec), "camera_height_cm": float(rng.uniform(60, 100)),
                          "tilt_deg": float(rng.uniform(0, 25)), "tilt_dir_deg": float(rng.uniform(0, 360)),
                          "fill": float(rng.uniform(0.86, 0.97))})
    else:
        if _smallest_marker_px(spec) < 15.0:  # a camera square over the table, its long side along the image's
            spec = AimSpec(**{**asdict(spec), "camera_height_cm": 75.0, "tilt_deg": float(rng.uniform(0, 5)),
                              "fill": 0.95, "yaw_deg": float(rng.uniform(-10, 10)),
                              "table_w": min(spec.table_w, 85.0), "table_h": min(spec.table_h, 64.0)})
    weapons, cover = _plan_weapons(rng, spec, wanted_weapons, None if fixed is None else
                                   {s: t for s, (t, _) in fixed.items()}, late_arrival)
    # a lens in focus enough for the weapons' 3 cm markers (as the calibration asks of the table's): defocus
    # up to 1 px; beyond it no 3 cm marker decodes at 640x480
    look = {"blur_sigma": float(rng.uniform(0.3, 1.0)), "exposure": float(rng.uniform(0.2, 1.0))}
    look.update({k: v for k, v in overrides.items() if k in look})
    return AimSpec(**{**asdict(spec), "weapons": weapons, "cover_arm": cover,
                      "seat_jitter": spec.seat_jitter, **look})


def _smallest_marker_px(spec: AimSpec) -> float:
    """The smallest table marker's side in the image, px (base markers counted as 3 cm cards)."""
    cam = _Camera(spec)
    sides = []
    spots = [(c, markers.CORNER_SIZE_CM) for c in corner_positions(spec)]
    spots += [(p, markers.BASE_SIZE_CM) for p in standee_positions(spec)]
    for c, size in spots:
        q = cam.project(_flat(c, size, 0.0))
        sides.append(markers.quad_side(q))
    return min(sides)


def _plan_weapons(rng: np.random.Generator, spec: AimSpec, wanted: list[str] | None,
                  targets: dict[int, int | None] | None = None, late_arrival: tuple[float, ...] = ARRIVE_LATE
                  ) -> tuple[tuple[WeaponPlan, ...], tuple[int, int, float, float] | None]:
    standees = standee_positions(spec)
    camera = _Camera(spec)
    n = spec.seats
    if wanted is None:
        wanted = [_pick(rng, ["in_time", "late", "switch", "hidden_arm", "never_hidden", "never_waving"],
                        [0.62, 0.13, 0.1, 0.05, 0.05, 0.05]) for _ in range(n)]
        if "hidden_arm" in wanted[1:]:  # one covering arm per clip
            first = wanted.index("hidden_arm")
            wanted = [w if w != "hidden_arm" or i == first else "in_time" for i, w in enumerate(wanted)]
    popular = int(rng.integers(0, n))  # several weapons on one seat
    plans = []
    cover = None
    for seat in range(n):
        behaviour = wanted[seat]
        if behaviour == "absent":
            continue
        others = [s for s in range(n) if s != seat]
        target = popular if popular != seat and rng.random() < 0.35 else int(rng.choice(others))
        if targets is not None:
            target = targets.get(seat)  # type: ignore[assignment]
        plan = None
        for _ in range(80):
            plan = _one_weapon(rng, spec, seat, behaviour, target, standees, camera, late_arrival)
            if plan is not None:
                break
            if targets is None:
                target = int(rng.choice(others))
        if plan is None:  # no clear line from this seat: the player keeps the weapon down
            plan = _one_weapon(rng, spec, seat, "never_hidden", None, standees, camera)
        assert plan is not None
        plans.append(plan)
        if plan.behaviour == "hidden_arm":
            coverer = (seat + int(rng.choice([-1, 1]))) % n
            cover = (coverer, seat, DEADLINE - float(rng.uniform(0.25, 0.5)), DEADLINE + float(rng.uniform(0.3, 0.6)))
    return tuple(plans), cover


def _one_weapon(rng: np.random.Generator, spec: AimSpec, seat: int, behaviour: str, target: int | None,
                standees: list[np.ndarray], camera: _Camera, late_arrival: tuple[float, ...] = ARRIVE_LATE
                ) -> WeaponPlan | None:
    pos = standees[seat]
    out = pos / np.linalg.norm(pos)
    side = np.array([-out[1], out[0]])
    foot = pos + out * rng.uniform(-7, 6) + side * rng.uniform(-9, 9)
    if abs(foot[0]) > spec.table_w / 2 + 2 or abs(foot[1]) > spec.table_h / 2 + 2:
        foot = foot * 0.9
    never = behaviour.startswith("never")
    error = float(rng.normal(0, 1.5))
    height = float(rng.uniform(2, 40))
    for _ in range(20):  # held where the camera sees it (the players know where it looks)
        px = camera.project(np.array([[foot[0], foot[1], height]]))[0] - PAD
        if 30 <= px[0] <= WIDTH - 30 and 30 <= px[1] <= HEIGHT - 30:
            break
        height *= 0.8
        foot = foot * 0.97
    else:
        return None
    first = None
    if not never:
        assert target is not None
        to = standees[target] - foot
        direction = math.atan2(to[1], to[0]) + math.radians(error)
        got, dist_margin, angle_margin = true_target(foot, direction, standees, seat)
        if got != target or dist_margin < 3.0 or angle_margin < 9.0:
            return None
        if behaviour == "switch":
            choices = [s for s in range(spec.seats) if s not in (seat, target)]
            first = int(rng.choice(choices))
            to1 = standees[first] - foot
            got1, _, a1 = true_target(foot, math.atan2(to1[1], to1[0]), standees, seat)
            if got1 != first or a1 < 9.0:
                return None
    if behaviour == "late":
        arrive = float(rng.uniform(late_arrival[0], late_arrival[1]))
    elif behaviour == "switch":
        arrive = float(rng.uniform(-0.2, ARRIVE_IN_TIME[1]))
    else:
        arrive = float(rng.uniform(*ARRIVE_IN_TIME))
    move = float(rng.uniform(0.25, 0.6)) * (1.6 if behaviour == "switch" else 1.0)
    kind = "tanto" if rng.random() < 0.3 else "gun"
    skin = np.array([150, 175, 215]) * rng.uniform(0.45, 1.1)
    return WeaponPlan(
        seat=seat, behaviour=behaviour, target=None if never else target, first_target=first, kind=kind,
        shape=int(rng.integers(0, 3)),
        colour=tuple(int(c) for c in rng.integers(20, 235, 3)),  # type: ignore[arg-type]
        length_cm=float(rng.uniform(14, 22) if kind == "gun" else rng.uniform(20, 30)),
        foot=(float(foot[0]), float(foot[1])), height_cm=height, aim_error_deg=error,
        appear_at=max(arrive - move - float(rng.uniform(0.0, 0.1)), CLEAR_START_S - spec.three_at), move_s=move,
        arrive_at=arrive,
        jitter_deg=float(rng.uniform(0.2, 1.2)), jitter_cm=float(rng.uniform(0.05, 0.35)),
        pitch_deg=float(rng.uniform(-8, 8)), roll_deg=_roll(float(rng.uniform(-1, 1))),
        skin=tuple(int(c) for c in np.clip(skin, 0, 255)),  # type: ignore[arg-type]
    )


def _roll(u: float) -> float:
    """A weapon's roll about its own axis (degrees) from a draw ``u`` in -1..1: held about upright (within 6.4
    degrees) four times in five, else canted in the hand by 15-35 degrees either way."""
    if abs(u) <= 0.8:
        return 8.0 * u
    return math.copysign(15.0 + 20.0 * (abs(u) - 0.8) / 0.2, u)


def clip_set(count: int, seed: int = 0) -> list[AimSpec]:
    return [random_spec(seed * 100_003 + i) for i in range(count)]


# ----------------------------------------------------------------------------- camera


class _Camera:
    def __init__(self, spec: AimSpec) -> None:
        down = np.array([[1.0, 0, 0], [0, -1, 0], [0, 0, -1]])
        tilt = math.radians(spec.tilt_deg)
        axis = math.radians(spec.tilt_dir_deg)
        k = np.array([math.cos(axis), math.sin(axis), 0.0])
        kx = np.array([[0, -k[2], k[1]], [k[2], 0, -k[0]], [-k[1], k[0], 0]])
        tilt_rot = np.eye(3) + math.sin(tilt) * kx + (1 - math.cos(tilt)) * kx @ kx  # world rotation of the camera
        yaw = math.radians(spec.yaw_deg)
        rz = np.array([[math.cos(yaw), -math.sin(yaw), 0], [math.sin(yaw), math.cos(yaw), 0], [0, 0, 1]])
        # camera axes in the world: x, y, z (z along the view, down and tilted)
        axes = tilt_rot @ rz @ down.T
        self.rotation = axes.T  # world -> camera
        view = axes[:, 2]
        self.centre = -view * spec.camera_height_cm / max(-view[2], 0.3)
        self.focal = 1.0
        self.principal = np.zeros(2)
        corners = np.array([[sx * spec.table_w / 2, sy * spec.table_h / 2, 0] for sx in (-1, 1) for sy in (-1, 1)])
        for _ in range(4):  # the play area fills the image: focal length, then the camera slid sideways
            nrm = self.project(corners)
            span = nrm.max(0) - nrm.min(0)
            self.focal *= float(min(WIDTH * spec.fill / span[0], HEIGHT * 0.94 / span[1]))
            nrm = self.project(corners)
            shift = (nrm.max(0) + nrm.min(0)) / 2 - self.principal
            depth = float(self.depth(np.zeros((1, 3)))[0])
            self.centre = self.centre + (axes[:, 0] * shift[0] + axes[:, 1] * shift[1]) * depth / self.focal
        self.principal = np.array([WIDTH / 2 + PAD, HEIGHT / 2 + PAD])

    def project(self, pts: np.ndarray) -> np.ndarray:
        cam = (np.asarray(pts, float).reshape(-1, 3) - self.centre) @ self.rotation.T
        z = np.maximum(cam[:, 2], 1e-3)
        return np.asarray(cam[:, :2] / z[:, None] * self.focal + self.principal)

    def depth(self, pts: np.ndarray) -> np.ndarray:
        return np.asarray(((np.asarray(pts, float).reshape(-1, 3) - self.centre) @ self.rotation.T)[:, 2])


# ----------------------------------------------------------------------------- textures


def _card(marker_id: int, card_cm: float, marker_cm: float, black: int, white: int, px_per_cm: float = 16) -> np.ndarray:
    side = round(card_cm * px_per_cm)
    m = round(marker_cm * px_per_cm)
    tex = np.full((side, side, 3), white, np.uint8)
    off = (side - m) // 2
    img = markers.marker_image(marker_id, m)
    img = np.where(img > 127, white, black).astype(np.uint8)
    tex[off:off + m, off:off + m] = cv2.cvtColor(img, cv2.COLOR_GRAY2BGR)
    return tex


def _surface(rng: np.random.Generator, kind: str, shape: tuple[int, int]) -> np.ndarray:
    h, w = shape
    colour = np.array(_pick(rng, [[50, 110, 50], [60, 95, 140], [110, 110, 110], [80, 80, 130], [40, 70, 120],
                                  [150, 150, 150], [30, 30, 30]]), np.float32) * rng.uniform(0.8, 1.2)
    img = np.empty((h, w, 3), np.float32)
    img[:] = colour
    def field(scale: int) -> np.ndarray:
        small = rng.standard_normal((max(2, h // scale), max(2, w // scale))).astype(np.float32)
        return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)
    if kind == "felt":
        img += (field(20) * 8 + field(2) * 6)[..., None]
    elif kind == "wood":
        yy = np.arange(h, dtype=np.float32)[:, None]
        grain = np.sin(yy / rng.uniform(3, 9) + field(40) * 3) * 14
        img += (grain + field(3) * 4)[..., None]
    elif kind == "cloth":
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        period = rng.uniform(20, 50)
        check = ((np.floor(xx / period) + np.floor(yy / period)) % 2) * rng.uniform(15, 40)
        img += (check + field(2) * 5)[..., None]
    else:
        img += (field(60) * 4)[..., None]
    return np.clip(img, 0, 255).astype(np.uint8)


# ----------------------------------------------------------------------------- motion


def _ease(x: float) -> float:
    x = min(max(x, 0.0), 1.0)
    return x * x * (3 - 2 * x)


class AimScene:
    """One aim clip's world; ``render(i)`` gives frame ``i``."""

    TABLE_PX_PER_CM = 4.0

    def __init__(self, spec: AimSpec) -> None:
        self.spec = spec
        rng = np.random.default_rng(spec.seed + 17)
        self.camera = _Camera(spec)
        self.standees = standee_positions(spec)
        self.duration = spec.three_at + DEADLINE + spec.after_deadline_s
        self.frame_count = math.ceil(self.duration * spec.fps)
        self.static = self._static(rng)
        self._light = self._light_field(rng)
        self._lens = self._lens_maps()
        self._still: np.ndarray | None = None  # the static table filmed by a still camera
        self._rows_seen: tuple[np.ndarray, np.ndarray] = (np.zeros(0), np.zeros(0))
        self._cols_seen: tuple[np.ndarray, np.ndarray] = (np.zeros(0), np.zeros(0))
        self._noise_rng = np.random.default_rng(spec.seed + 29)
        sigma = spec.noise_sigma / max(spec.gain, 0.3) ** 0.5
        self._noise = np.round(self._noise_rng.standard_normal((HEIGHT + 48, WIDTH + 48, 3)) * sigma).astype(np.int16)
        self._shake = self._noise_rng.uniform(-1, 1, (self.frame_count + 1, 2)) * spec.shake_px
        self._sun = rng.uniform(-0.35, 0.35, 2)
        self._shadow = float(rng.uniform(0.15, 0.45))
        self._cards = {w.seat: _card(markers.weapon_id(w.seat), 4.0, markers.WEAPON_SIZE_CM, spec.print_black,
                                     spec.print_white) for w in spec.weapons}
        self._jitter_phase = {w.seat: rng.uniform(0, 2 * math.pi, 6) for w in spec.weapons}
        self._wave = {w.seat: (float(rng.uniform(1.0, 1.6)), float(rng.uniform(30, 60)), float(rng.uniform(-1.0, 0.2)))
                      for w in spec.weapons}
        self._ae = (float(rng.uniform(0.15, 0.3)), float(rng.uniform(0.3, 0.8)), float(rng.uniform(0, 6.28)))
        self._shoulder = {}  # where each player's arm comes from: the shoulder, behind the seat, seated height
        for w in spec.weapons:
            pos = self.standees[w.seat]
            out = pos / np.linalg.norm(pos)
            side = np.array([-out[1], out[0]])
            at = pos + out * float(rng.uniform(24, 34)) + side * float(rng.uniform(-10, 10))
            self._shoulder[w.seat] = np.array([at[0], at[1], float(rng.uniform(28, 40))])
        # half the weapons waved about draw loops instead (radius in cm, turn rate in radians a second, phase):
        # across the seats beside their own, over their crowns, pointing along the way as it turns through
        # every direction
        self._loop = {w.seat: (float(rng.uniform(4, 10)), float(rng.choice([-1, 1]) * rng.uniform(3.5, 7.0)),
                               float(rng.uniform(0, 2 * math.pi)), float(rng.uniform(0, 1)) < 0.5)
                      for w in spec.weapons}

    # -- set-up
    def _static(self, rng: np.random.Generator) -> np.ndarray:
        spec = self.spec
        extent = 90.0
        ppc = self.TABLE_PX_PER_CM
        w, h = int((spec.table_w + 2 * extent) * ppc), int((spec.table_h + 2 * extent) * ppc)
        tex = _surface(rng, spec.surface, (h, w))
        x0, x1 = -spec.table_w / 2 - extent, spec.table_w / 2 + extent
        y0, y1 = -spec.table_h / 2 - extent, spec.table_h / 2 + extent
        img = np.zeros((HEIGHT + 2 * PAD, WIDTH + 2 * PAD, 3), np.uint8)
        self._quad(img, tex, np.array([[x0, y1, 0], [x1, y1, 0], [x1, y0, 0], [x0, y0, 0]]))
        black, white = spec.print_black, spec.print_white
        for i, c in enumerate(corner_positions(spec)):
            self._quad(img, _card(i, 6.0, markers.CORNER_SIZE_CM, black, white), _flat(c, 6.0, 0.0))
        items = []
        for seat, pos in enumerate(self.standees):
            inward = -pos / np.linalg.norm(pos)
            angle = math.atan2(inward[1], inward[0]) - math.pi / 2
            self._quad(img, _card(markers.base_id(seat), 3.8, markers.BASE_SIZE_CM, black, white),
                       _flat(pos + inward * float(rng.uniform(3.5, 5.5)), 3.8, angle))
            side = np.array([-inward[1], inward[0], 0.0])
            p0, z, i3 = np.append(pos, 0.0), np.array([0, 0, 1.0]), np.append(inward, 0.0)
            hw, up = 3.0, spec.standee_h
            body = np.array([p0 - side * hw + z * up, p0 + side * hw + z * up, p0 + side * hw, p0 - side * hw])
            pic = np.zeros((110, 60, 3), np.uint8)
            pic[:] = [int(c) for c in rng.integers(40, 220, 3)]
            cv2.ellipse(pic, (30, 27), (12, 12), 0, 0, 360, [int(c) for c in rng.integers(0, 255, 3)], -1)
            top = p0 + z * (up + 0.1)
            half = 2.5
            crown = np.array([top + i3 * half + side * half, top + i3 * half - side * half,
                              top - i3 * half - side * half, top - i3 * half + side * half])
            items.append((float(self.camera.depth(body.mean(0))[0]), body, pic))
            items.append((float(self.camera.depth(crown.mean(0))[0]) - 0.01, crown,
                          _card(markers.crown_id(seat), 5.0, markers.CROWN_SIZE_CM, black, white)))
        for _, quad, tex in sorted(items, key=lambda it: -it[0]):
            self._quad(img, tex, quad)
        return img

    def _light_field(self, rng: np.random.Generator) -> np.ndarray:
        yy, xx = np.mgrid[0:HEIGHT, 0:WIDTH].astype(np.float32)
        ang = rng.uniform(0, 2 * math.pi)
        ramp = ((xx - WIDTH / 2) * math.cos(ang) + (yy - HEIGHT / 2) * math.sin(ang)) / (WIDTH / 2)
        r2 = ((xx - WIDTH / 2) ** 2 + (yy - HEIGHT / 2) ** 2) / (WIDTH / 2) ** 2
        field = (1 + rng.uniform(0, 0.3) * ramp) * (1 - rng.uniform(0, 0.25) * r2)
        tint = rng.uniform(0.88, 1.12, 3).astype(np.float32)
        return np.asarray(field[..., None] * tint[None, None, :], np.float32)

    def _lens_maps(self) -> tuple[np.ndarray, np.ndarray]:
        return lens_maps(self.camera.focal, self.spec.lens_k1, pad=PAD)

    def _quad(self, img: np.ndarray, tex: np.ndarray, world: np.ndarray, shade: float = 1.0,
              origin: tuple[int, int] = (0, 0)) -> None:
        pts = self.camera.project(world).astype(np.float32) - np.array(origin, np.float32)
        if abs(cv2.contourArea(pts)) < 2.0:
            return
        h, w = img.shape[:2]
        x0, y0 = np.maximum(np.floor(pts.min(0)).astype(int), 0)
        x1, y1 = np.minimum(np.ceil(pts.max(0)).astype(int) + 1, [w, h])
        if x1 <= x0 or y1 <= y0:
            return
        src = np.array([[0, 0], [tex.shape[1], 0], [tex.shape[1], tex.shape[0]], [0, tex.shape[0]]], np.float32)
        local = (pts - np.array([x0, y0], np.float32)).astype(np.float32)
        warped = cv2.warpPerspective(tex, cv2.getPerspectiveTransform(src, local), (int(x1 - x0), int(y1 - y0)),
                                     flags=cv2.INTER_LINEAR)
        mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.fillConvexPoly(mask, np.round(local * 16).astype(np.int32), 255, cv2.LINE_AA, 4)
        alpha = (mask.astype(np.float32) / 255.0)[..., None]
        roi = img[y0:y1, x0:x1]
        roi[:] = (roi * (1 - alpha) + warped * (alpha * shade)).astype(np.uint8)

    # -- the weapons
    def pose(self, plan: WeaponPlan, t: float) -> tuple[np.ndarray, float, float] | None:
        """(marker centre xyz, direction, visible) of a weapon at ``t`` seconds after the "3"."""
        if plan.behaviour == "never_hidden" or t < plan.appear_at:
            return None
        foot = np.array(plan.foot)
        out = foot / max(np.linalg.norm(foot), 1e-6)
        ph = self._jitter_phase[plan.seat]
        jit_a = plan.jitter_deg * (math.sin(7.1 * t + ph[0]) * 0.6 + math.sin(12.9 * t + ph[1]) * 0.4)
        jit_p = plan.jitter_cm * np.array([math.sin(8.3 * t + ph[2]), math.sin(11.7 * t + ph[3])])
        start_dir = math.atan2(-out[1], -out[0]) + math.radians(25 * math.sin(ph[4]))
        start_foot = foot + out * 25  # brought up from below the table's edge
        start_h = 0.0
        if plan.behaviour == "never_waving":
            freq, amp, _ = self._wave[plan.seat]
            raise_f = _ease((t - plan.appear_at) / 0.4)
            h = start_h + (plan.height_cm - start_h) * raise_f
            radius, rate, phase, loops = self._loop[plan.seat]
            if loops:
                a = phase + rate * (t - plan.appear_at)
                f = foot + out * 3 + radius * np.array([math.cos(a), math.sin(a)]) + jit_p
                d = a + math.copysign(math.pi / 2, rate) + math.radians(amp * 0.3) * math.sin(2 * math.pi * freq * t)
                return np.array([f[0], f[1], h]), d, 1.0
            d = start_dir + math.radians(amp) * math.sin(2 * math.pi * freq * (t - plan.appear_at)) \
                + math.radians(amp * 0.5) * math.sin(2 * math.pi * freq * 1.7 * (t - plan.appear_at) + 1.0)
            f = foot + out * 4 * math.sin(2 * math.pi * freq * 0.8 * t) + jit_p
            return np.array([f[0], f[1], h]), d, 1.0

        def aim_dir(seat: int | None) -> float:
            to = self.standees[seat] - foot  # type: ignore[index]
            return math.atan2(to[1], to[0]) + math.radians(plan.aim_error_deg)

        end_dir = aim_dir(plan.target)
        move_start = max(plan.appear_at + 0.1, plan.arrive_at - plan.move_s)
        if plan.behaviour == "switch":
            first_dir = aim_dir(plan.first_target)
            move_start = plan.appear_at + 0.1
            mid = (move_start + plan.arrive_at) / 2
            if t < mid:
                k = _ease((t - move_start) / max(mid - 0.15 - move_start, 0.05))
                d = start_dir + _angle(first_dir - start_dir) * k
                f = start_foot + (foot - start_foot) * k
                h = start_h + (plan.height_cm - start_h) * k
            else:
                k = _ease((t - (mid + 0.05)) / max(plan.arrive_at - mid - 0.05, 0.05))
                d = first_dir + _angle(end_dir - first_dir) * k
                f, h = foot, plan.height_cm
        else:
            k = _ease((t - move_start) / max(plan.arrive_at - move_start, 0.05))
            d = start_dir + _angle(end_dir - start_dir) * k
            f = start_foot + (foot - start_foot) * k
            h = start_h + (plan.height_cm - start_h) * k
        settle = min(1.0, max(0.0, (t - plan.arrive_at) / 0.3))
        d += math.radians(jit_a) * (0.3 + 0.7 * settle)
        f = f + jit_p
        return np.array([f[0], f[1], h]), d, 1.0

    def _weapon_polys(self, plan: WeaponPlan, centre: np.ndarray, direction: float
                      ) -> tuple[list[tuple[np.ndarray, tuple[int, int, int]]], np.ndarray]:
        """World polygons (hand and weapon, in drawing order) and the marker card's corners."""
        fwd3, left3, up3 = _weapon_axes(plan, direction)

        def at(x: float, y: float, z: float = 0.0) -> np.ndarray:
            return centre + fwd3 * x + left3 * y + up3 * z

        def outline(xs: np.ndarray, ys: np.ndarray, z: float = 0.0) -> np.ndarray:
            """``at`` of every point (x, y) at once: one array operation, not one per point."""
            return np.asarray(centre + fwd3 * xs[:, None] + left3 * ys[:, None] + up3 * z)

        polys: list[tuple[np.ndarray, tuple[int, int, int]]] = []
        # the hand behind the card and the arm from the wrist to the player's shoulder, behind the seat
        hand = outline(*_HAND, -1.5)
        wrist = at(-7, 0, -3)
        shoulder = self._shoulder[plan.seat]
        along = shoulder[:2] - wrist[:2]
        across = np.array([-along[1], along[0], 0.0]) / max(float(np.linalg.norm(along)), 1e-6)
        arm = np.array([wrist + across * 3.2, wrist - across * 3.2, shoulder - across * 5.0, shoulder + across * 5.0])
        polys += [(arm, plan.skin), (hand, plan.skin)]
        def bar(x0: float, x1: float, half: float) -> np.ndarray:
            """A rectangle along the weapon from ``x0`` to ``x1``, ``half`` its width each side."""
            return outline(np.array([x0, x1, x1, x0]), np.array([half, half, -half, -half]))

        length, col = plan.length_cm, plan.colour
        dark = tuple(int(c * 0.6) for c in col)
        if plan.kind == "gun":
            w = 1.6 + 0.4 * plan.shape
            body, barrel = bar(-5, length - 8, w + 0.4), bar(length - 8, length - 5, w * 0.6)
            polys += [(body, col), (barrel, dark)]  # type: ignore[list-item]
            if plan.shape == 2:
                polys.append((bar(length - 5, length - 4.5, 0.5), (30, 30, 200)))
        else:
            handle, guard = bar(-6, 3, 1.6), bar(3, 4, 2.6)
            blade = outline(np.array([4, length - 8, length - 5, length - 8 if plan.shape else length - 5]),
                            np.array([1.3, 1.3, 0.0 if plan.shape else -1.3, -1.3]))
            polys += [(handle, col), (guard, dark), (blade, (200, 200, 205))]  # type: ignore[list-item]
        return polys, _card_corners(centre, (fwd3, left3, up3))

    def _card_at(self, plan: WeaponPlan, centre: np.ndarray, direction: float) -> np.ndarray:
        """The marker card's corners alone (as ``_weapon_polys`` gives them)."""
        return _card_corners(centre, _weapon_axes(plan, direction))

    # -- frames
    def render(self, index: int) -> np.ndarray:
        spec = self.spec
        t = index / spec.fps - spec.three_at
        img = self.static.copy()
        drawn = []
        for plan in spec.weapons:
            pose = self.pose(plan, t)
            if pose is None:
                continue
            centre, direction, _ = pose
            polys, card = self._weapon_polys(plan, centre, direction)
            drawn.append((float(centre[2]), plan, polys, card))
        arms = self._arms(t)
        if drawn or arms:  # shadows on the table
            self._shade(img, [[poly for poly, _ in polys] for _, _, polys, _ in drawn] + [[poly] for poly in arms])
        open_s = spec.exposure / spec.fps
        for _, plan, polys, card in sorted(drawn, key=lambda d: d[0]):
            # over the exposure a moving weapon smears: drawn at a few moments of it, averaged
            before = self.pose(plan, t - open_s) if open_s > 0 else None
            moved = 0.0
            if before is not None:
                card0 = self._card_at(plan, before[0], before[1])
                moved = float(np.max(np.linalg.norm(self.camera.project(card0) - self.camera.project(card), axis=1)))
            steps = min(6, int(math.ceil(moved)))
            if steps < 2:
                self._draw_weapon(img, plan, polys, card)
                continue
            # only the box the weapon covers at some moment of the exposure changes: averaged there
            shapes: list[tuple[list[tuple[np.ndarray, tuple[int, int, int]]], np.ndarray] | None] = [(polys, card)]
            for k in range(1, steps):  # the first moment is the frame's own: the shape worked out above
                pose = self.pose(plan, t - open_s * k / (steps - 1))
                shapes.append(None if pose is None else self._weapon_polys(plan, pose[0], pose[1]))
            corners = np.vstack([self.camera.project(p) for s in shapes if s is not None for p in [*(q for q, _ in s[0]), s[1]]])
            x0, y0 = np.floor(corners.min(axis=0)).astype(int) - 2
            x1, y1 = np.ceil(corners.max(axis=0)).astype(int) + 3
            x, y, w, h = _grown((int(x0), int(y0), int(x1 - x0), int(y1 - y0)), 0, img.shape)
            if w == 0 or h == 0:  # out of the picture all through the exposure
                continue
            total = np.zeros((h, w, img.shape[2]), np.float32)
            for shape in shapes:
                layer = img[y:y + h, x:x + w].copy()
                if shape is not None:
                    self._draw_weapon(layer, plan, *shape, origin=(x, y))
                total += layer
            img[y:y + h, x:x + w] = (total / len(shapes)).astype(np.uint8)
        for poly in arms:
            cv2.fillPoly(img, [np.round(self.camera.project(poly) * 8).astype(np.int32)], (120, 150, 190), cv2.LINE_AA, 3)
        img = self._filmed(img, index)
        gain = spec.gain
        if spec.light == "auto":  # the camera's exposure hunts as hands and weapons come in
            amp, freq, phase = self._ae
            gain *= 1 + amp * math.sin(2 * math.pi * freq * (index / spec.fps) + phase)
        img = cv2.multiply(img, self._light, scale=gain, dtype=cv2.CV_8U)
        ox, oy = self._noise_rng.integers(0, 48, 2)
        noisy = img.astype(np.int16)  # added as whole numbers, kept within 0-255
        noisy += self._noise[oy:oy + HEIGHT, ox:ox + WIDTH]
        img = np.clip(noisy, 0, 255, out=noisy).astype(np.uint8)
        _, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, spec.jpeg_quality])
        return np.asarray(cv2.imdecode(buf, cv2.IMREAD_COLOR))

    def _arms(self, t: float) -> list[np.ndarray]:
        """The world polygon of the arm reaching over a weapon at ``t`` (``AimSpec.cover_arm``), if it is there then."""
        spec = self.spec
        if spec.cover_arm is None:
            return []
        coverer, covered, t0, t1 = spec.cover_arm
        if not t0 <= t <= t1:
            return []
        target = next((np.array(w.foot) for w in spec.weapons if w.seat == covered), np.zeros(2))
        start = self.standees[coverer] / np.linalg.norm(self.standees[coverer]) * 70
        d = (target - start) / np.linalg.norm(target - start)
        side = np.array([-d[1], d[0]])
        z = max((w.height_cm for w in spec.weapons if w.seat == covered), default=20.0) + 12
        reach = target + d * 6
        return [np.array([np.append(start + side * 6, z), np.append(reach + side * 5, z),
                          np.append(reach - side * 5, z), np.append(start - side * 6, z)])]

    def card_hidden(self, plan: WeaponPlan, t: float) -> float | None:
        """The share of ``plan``'s marker card that the frame at ``t`` draws something over (a weapon held higher,
        with its hand and arm, or an arm reaching over it), before the lens and the blur; None when the weapon is
        not in the frame then. A card covered even in part no longer shows its marker whole (its white margin is an
        eighth of its side): this tells the weapons the camera could not read from those the reader missed."""
        pose = self.pose(plan, t)
        if pose is None:
            return None
        scale = 4  # quarter pixels
        card = self.camera.project(self._card_at(plan, pose[0], pose[1])) * scale
        x0, y0 = np.floor(card.min(axis=0)).astype(int)
        x1, y1 = np.ceil(card.max(axis=0)).astype(int)
        if x1 - x0 < 1 or y1 - y0 < 1:
            return None
        origin = np.array([x0, y0])
        own = np.zeros((y1 - y0 + 1, x1 - x0 + 1), np.uint8)
        cv2.fillPoly(own, [np.round(card - origin).astype(np.int32)], 255)
        over = np.zeros_like(own)
        above: list[np.ndarray] = list(self._arms(t))
        for other in self.spec.weapons:
            other_pose = None if other.seat == plan.seat else self.pose(other, t)
            if other_pose is not None and other_pose[0][2] > pose[0][2]:
                polys, other_card = self._weapon_polys(other, other_pose[0], other_pose[1])
                above += [poly for poly, _ in polys] + [other_card]
        for poly in above:
            cv2.fillPoly(over, [np.round(self.camera.project(poly) * scale - origin).astype(np.int32)], 255)
        area = int(np.count_nonzero(own))
        return float(np.count_nonzero(own & over)) / area if area else None

    def _shade(self, img: np.ndarray, groups: list[list[np.ndarray]]) -> None:
        """Darkens the table under each group of world polygons (a weapon with its hand and arm, an arm):
        their shadows along the sun, softened by a 9 px box blur. Only the boxes the softened shadows
        reach are blended (elsewhere the blend keeps every pixel as it is)."""
        mask = np.zeros(img.shape[:2], np.uint8)
        boxes = []
        for group in groups:
            outlines = []
            for poly in group:
                shadow = np.column_stack([poly[:, :2] + poly[:, 2:3] * self._sun, np.zeros(len(poly))])
                outlines.append(np.round(self.camera.project(shadow)).astype(np.int32))
            for points in outlines:
                cv2.fillPoly(mask, [points], 255)
            every = np.vstack(outlines)
            lo, hi = every.min(axis=0), every.max(axis=0)
            boxes.append(_grown((int(lo[0]), int(lo[1]), int(hi[0] - lo[0]) + 1, int(hi[1] - lo[1]) + 1), 5, img.shape))
        bx, by, bw, bh = cv2.boundingRect(mask)
        x, y, w, h = _grown((bx, by, bw, bh), 5, img.shape)  # the blur spreads a shadow 4 px
        blurred = cv2.blur(mask[y:y + h, x:x + w], (9, 9))
        soft = blurred.astype(np.float32) * (self._shadow / 255.0)
        for x0, y0, x1, y1 in _disjoint([(max(bx0, x), max(by0, y), min(bx0 + bw0, x + w), min(by0 + bh0, y + h))
                                         for bx0, by0, bw0, bh0 in boxes]):
            if x1 <= x0 or y1 <= y0:
                continue
            for top in range(y0, y1, _SHADE_STRIP):  # a strip of rows at a time, where its shadow falls
                bottom = min(top + _SHADE_STRIP, y1)
                sx, _, sw, _ = cv2.boundingRect(blurred[top - y:bottom - y, x0 - x:x1 - x])
                if sw == 0:
                    continue
                left, right = x0 + sx, x0 + sx + sw
                part = soft[top - y:bottom - y, left - x:right - x]
                img[top:bottom, left:right] = (img[top:bottom, left:right] * (1 - part[..., None])).astype(np.uint8)

    def _filmed(self, canvas: np.ndarray, index: int) -> np.ndarray:
        """The canvas through the lens (with the frame's shake) and the defocus. A still camera films the
        static table the same in every frame: then only the part where the canvas differs from the
        static table is bent and blurred again, the rest taken from the static table's filmed frame."""
        mx, my = self._lens
        if self.spec.shake_px != 0:
            dx, dy = self._shake[min(index, len(self._shake) - 1)]
            img = cv2.remap(canvas, mx + np.float32(dx), my + np.float32(dy), cv2.INTER_LINEAR)
            return np.asarray(cv2.GaussianBlur(img, (0, 0), self.spec.blur_sigma))
        if self._still is None:
            self._still = cv2.GaussianBlur(cv2.remap(self.static, mx, my, cv2.INTER_LINEAR), (0, 0), self.spec.blur_sigma)
            self._rows_seen = (my.min(axis=1), my.max(axis=1))
            self._cols_seen = (mx.min(axis=0), mx.max(axis=0))
        out = self._still.copy()
        diff = cv2.absdiff(canvas, self.static).reshape(canvas.shape[0], -1)
        cx, cy, cw, ch = cv2.boundingRect(diff)
        if cw == 0 or ch == 0:
            return out
        # the output pixels whose samples (two pixels each way) may fall in the changed box
        rows = np.flatnonzero((self._rows_seen[1] >= cy - 2) & (self._rows_seen[0] <= cy + ch + 1))
        cols = np.flatnonzero((self._cols_seen[1] >= cx // 3 - 2) & (self._cols_seen[0] <= (cx + cw) // 3 + 1))
        if len(rows) == 0 or len(cols) == 0:
            return out
        r = _BLUR_REACH
        v0, v1 = max(int(rows[0]) - 2 * r, 0), min(int(rows[-1]) + 1 + 2 * r, HEIGHT)
        u0, u1 = max(int(cols[0]) - 2 * r, 0), min(int(cols[-1]) + 1 + 2 * r, WIDTH)
        bent = cv2.remap(canvas, mx[v0:v1, u0:u1], my[v0:v1, u0:u1], cv2.INTER_LINEAR)
        blurred = cv2.GaussianBlur(bent, (0, 0), self.spec.blur_sigma)
        # the blur of the part's inner pixels (``r`` from its inner edges) is the whole frame's
        w0, w1 = max(int(rows[0]) - r, 0), min(int(rows[-1]) + 1 + r, HEIGHT)
        z0, z1 = max(int(cols[0]) - r, 0), min(int(cols[-1]) + 1 + r, WIDTH)
        out[w0:w1, z0:z1] = blurred[w0 - v0:w1 - v0, z0 - u0:z1 - u0]
        return out

    def _draw_weapon(self, img: np.ndarray, plan: WeaponPlan, polys: list[tuple[np.ndarray, tuple[int, int, int]]],
                     card: np.ndarray, origin: tuple[int, int] = (0, 0)) -> None:
        """Draws the weapon on ``img``, a part of the frame whose top-left corner is ``origin``."""
        eighths = np.array(origin, np.int32) * 8
        for poly, colour in polys:
            cv2.fillPoly(img, [np.round(self.camera.project(poly) * 8).astype(np.int32) - eighths], colour,
                         cv2.LINE_AA, 3)
        self._quad(img, self._cards[plan.seat], card, origin=origin)

    def frames(self) -> Iterator[np.ndarray]:
        for i in range(self.frame_count):
            yield self.render(i)

    # -- truth
    def truth(self) -> dict[str, Any]:
        aims: dict[str, int | None] = {}
        late = []
        for plan in self.spec.weapons:
            aims[str(plan.seat)] = plan.target
            if plan.behaviour == "late":
                late.append(plan.seat)
        return {"aims": aims, "late": sorted(late)}

    def info(self) -> dict[str, Any]:
        return {"fps": self.spec.fps, "seats": self.spec.seats, "three_at": round(self.spec.three_at, 4)}


# the hand's outline in its weapon's frame (cm): an ellipse of 14 points
_HAND = (np.array([-4 + 4 * math.cos(a) for a in np.linspace(0, 2 * math.pi, 14)]),
         np.array([3.2 * math.sin(a) for a in np.linspace(0, 2 * math.pi, 14)]))


def _grown(box: tuple[int, int, int, int], margin: int, shape: tuple[int, ...]) -> tuple[int, int, int, int]:
    """``box`` (x, y, width, height) grown by ``margin`` on every side, kept inside an image of ``shape``."""
    x0, y0 = max(0, box[0] - margin), max(0, box[1] - margin)
    x1, y1 = min(shape[1], box[0] + box[2] + margin), min(shape[0], box[1] + box[3] + margin)
    return x0, y0, max(0, x1 - x0), max(0, y1 - y0)


def _weapon_axes(plan: WeaponPlan, direction: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A weapon's forward, left and up axes in the world, pitched and rolled by the hand."""
    fwd = np.array([math.cos(direction), math.sin(direction), 0.0])
    left = np.array([-fwd[1], fwd[0], 0.0])
    pitch, roll = math.radians(plan.pitch_deg), math.radians(plan.roll_deg)
    up = np.array([0, 0, 1.0])
    f = fwd * math.cos(pitch) + up * math.sin(pitch)
    s = left * math.cos(roll) + (up * math.cos(pitch) - fwd * math.sin(pitch)) * math.sin(roll)  # about f: rigid
    # their cross product, written out (``np.cross``'s order of operations, without its overhead)
    u = np.array([f[1] * s[2] - f[2] * s[1], f[2] * s[0] - f[0] * s[2], f[0] * s[1] - f[1] * s[0]])
    return f, s, u


_CARD_XS = np.array([2.0, 2.0, -2.0, -2.0])  # the 3 cm marker on a 4 cm card, in its weapon's frame (cm)
_CARD_YS = np.array([2.0, -2.0, -2.0, 2.0])


def _card_corners(centre: np.ndarray, axes: tuple[np.ndarray, np.ndarray, np.ndarray]) -> np.ndarray:
    fwd3, left3, up3 = axes
    return np.asarray(centre + fwd3 * _CARD_XS[:, None] + left3 * _CARD_YS[:, None] + up3 * 0.05)


def _disjoint(boxes: list[tuple[int, int, int, int]]) -> list[tuple[int, int, int, int]]:
    """Boxes (x0, y0, x1, y1) merged until none overlaps another: every pixel of them in exactly one."""
    out = list(boxes)
    merged = True
    while merged:
        merged = False
        for i in range(len(out)):
            for j in range(i + 1, len(out)):
                a, b = out[i], out[j]
                if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]:
                    out[i] = (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))
                    del out[j]
                    merged = True
                    break
            if merged:
                break
    return out


def _flat(centre: np.ndarray, side: float, angle: float) -> np.ndarray:
    half = side / 2
    local = np.array([[-half, half], [half, half], [half, -half], [-half, -half]])
    c, s = math.cos(angle), math.sin(angle)
    return np.column_stack([local @ np.array([[c, s], [-s, c]]) + centre, np.zeros(4)])


def _angle(a: float) -> float:
    return (a + math.pi) % (2 * math.pi) - math.pi


def write_clip(scene: AimScene, folder: Path, video: bool = False) -> Path:
    """``clip.json``, the frames (``video.avi`` or ``frames/NNNNNN.png``) and ``truth.json`` (the
    spec's output object for this clip, with the spec)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "clip.json").write_text(json.dumps(scene.info()) + "\n")
    truth = scene.truth()
    (folder / "truth.json").write_text(json.dumps({**truth, "tags": variation_tags(scene.spec),
                                                   "behaviours": {str(w.seat): w.behaviour for w in scene.spec.weapons},
                                                   "spec": asdict(scene.spec)}, indent=1) + "\n")
    write_frames(folder, scene.frames(), fps=scene.spec.fps, size=(WIDTH, HEIGHT), video=video)
    return folder


__all__ = [
    "AimScene",
    "AimSpec",
    "WeaponPlan",
    "clip_set",
    "random_spec",
    "standee_positions",
    "true_target",
    "variation_tags",
    "write_clip",
]
