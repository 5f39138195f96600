"""Synthetic Shuriken clips: the table as the camera sees it, with ground truth.

A small 3D scene (table plane, upright standee cards with a horizontal crown card, flat markers, a
foam star, a player's arm) is projected by a pinhole camera at 60-100 cm with tilt, yaw and radial
lens distortion, then lit unevenly, defocused, given sensor noise and JPEG-compressed. Every
variation is drawn from a seed, so a clip set is reproducible. The judge never sees anything but
the frames and the clip's ``fps``/``seats``/``thrower``.

Table coordinates are centimetres, origin at the play area's centre, x to seat 0's right, y away
from seat 0, z up. Seats go clockwise seen from above, seat 0 in the middle of the near edge.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision import markers
from vision.sources import write_frames

WIDTH, HEIGHT = 640, 480
PAD = 32  # the ideal (undistorted) canvas is larger than the output so lens distortion has content


def lens_maps(focal: float, k1: float, *, pad: int, width: int = WIDTH, height: int = HEIGHT) -> tuple[np.ndarray, np.ndarray]:
    """``cv2.remap`` maps that bend an ideal canvas (``pad`` pixels larger on each side) through a barrel lens
    of coefficient ``k1``, as a camera of focal length ``focal`` (pixels) would see it."""
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    xn, yn = (xx - width / 2) / focal, (yy - height / 2) / focal
    k = 1 + k1 * (xn * xn + yn * yn)
    return (xn * k * focal + width / 2 + pad).astype(np.float32), (yn * k * focal + height / 2 + pad).astype(np.float32)
PLAY_W, PLAY_H = 80.0, 60.0  # play area, cm
USUAL_INSET_CM = (10.0, 9.0)  # the standees' bases this far inside the play area's long and short edges
STANDEE_W, STANDEE_H = 6.0, 11.0
CROWN_CARD = 5.0  # crown card side, cm (4 cm marker + margins)
BASE_CARD = 3.8  # base marker card side, cm (3 cm marker + margins)
BASE_MARKER_OFFSET = 4.5  # base marker centre in front of the standee, cm
STAR_RADIUS = 3.0
TEX_PX_PER_CM = 10
TABLE_PX_PER_CM = 6
CARD_PX_PER_CM = 16
NOISE_MARGIN = 48  # a frame's noise is a random window of a larger bank


class Scenario(Enum):
    MISS = "miss"
    NEAR_MISS = "near_miss"
    TOUCH = "touch"
    KNOCK = "knock"
    MULTI = "multi"


class HandMove(Enum):
    NONE = "none"
    BEFORE = "before"  # a player reaches over the table and withdraws before the throw
    THROWER_ARM = "thrower_arm"  # the thrower's arm follows the shuriken in
    AFTER = "after"  # another player reaches for the shuriken once it lies still
    OVER = "over"  # a hand comes over a seat at any time (while another standee falls, too) and rests there


class StarRest(Enum):
    """Where the star ends up."""

    TABLE = "table"  # on the table away from the standees, or off it
    CROWN = "crown"  # on top of a crown (the crown marker hidden): the standee it touched's, or, a miss, one it
    # dropped onto without moving it
    BETWEEN = "between"  # on the table between two standees, by their bases


@dataclass(frozen=True)
class ClipSpec:
    """Every random choice of one clip; ``random_spec`` draws them from a seed."""

    seed: int
    seats: int
    thrower: int
    scenario: Scenario
    hits: tuple[tuple[int, str], ...]  # (seat, "knocked"|"touched") in the order the star meets them
    hand: HandMove
    fps: int
    camera_height_cm: float
    tilt_deg: float
    yaw_deg: float
    fill: float  # how much of the image width the play area takes
    lens_k1: float
    light: float  # overall gain; below ~0.5 is a dim room
    gradient: float  # relative change of light across the image
    noise_sigma: float
    jpeg_quality: int
    star_speed_cm_s: float
    exposure_s: float
    # the camera and the room during the clip
    shake_px: float = 0.0  # per-frame camera shake, pixels (each frame its own random offset)
    drift_px: float = 0.0  # slow drift of the whole image over the clip, pixels
    exposure_change: float = 1.0  # auto exposure: brightness ratio reached mid-clip (1: none)
    rolling_flicker: float = 0.0  # amplitude of bands of a rolling shutter under mains light
    # a camera that vibrates (a lamp arm, a bumped table) while a rolling shutter reads its rows one after the
    # other: each row shifted by where the camera was when that row was read, pixels (amplitude) and hertz
    wobble_px: float = 0.0
    wobble_hz: float = 0.0
    rest: StarRest = StarRest.TABLE
    # how this table and its cards look
    print_black: int = 0  # grey level of a marker's black cells as printed
    print_white: int = 235  # and of the card's white
    table_kind: str = "felt"  # felt, wood or cloth
    standee_w_cm: float = 6.0
    standee_h_cm: float = 11.0
    crown_card_cm: float = 5.0
    blur_sigma: float = 0.6  # defocus, pixels
    # a touched standee's first swing, degrees (drawn in this range for each one the star touches)
    touch_min_deg: float = 4.0
    touch_max_deg: float = 14.0
    # where the standees stand: their bases this far (cm) inside the play area's long and short edges
    seat_inset_cm: tuple[float, float] = USUAL_INSET_CM
    # None: the camera frames the play area's corners (``fill``); else the upright standees' crown cards and
    # the corners with this many pixels to spare at the nearest image border (a fallen one may lie outside it)
    frame_margin_px: float | None = None


@dataclass(frozen=True)
class Truth:
    knocked: tuple[int, ...]
    touched: tuple[int, ...]

    def as_json(self) -> dict[str, list[int]]:
        return {"knocked": sorted(self.knocked), "touched": sorted(self.touched)}


# a rolling shutter reads a frame's rows over this share of the frame's time (a Raspberry Pi camera module at
# 30-60 frames a second: most of it)
ROW_READOUT_SHARE = 0.8
# a camera vibrating faster than this is a mount ringing (condition ``shake:ringing``; slower, ``shake:rolling``)
RINGING_HZ = 30.0
# what moves during the exposure (the star, a vibrating camera's picture) is drawn at this many moments of it (its smear)
EXPOSURE_SAMPLES = 6

# a standee at least this tall (cm), framed at the edge of the view, is in condition ``edge:tall``
EDGE_TALL_CM = 12.0

# a touch swinging its standee at most this much (degrees) is a light one; the usual range is 4-14
LIGHT_TOUCH_DEG = 9.0


def variation_tags(spec: ClipSpec) -> list[str]:
    """Labels used to report accuracy per variation."""
    tags = [f"scenario:{spec.scenario.value}", f"hand:{spec.hand.value}", f"seats:{spec.seats}",
            f"fps:{spec.fps}"]
    if spec.scenario is Scenario.MULTI and spec.hits[-1][1] == "touched" and spec.touch_max_deg <= LIGHT_TOUCH_DEG:
        tags.append("scenario:multi-light")
    tags.append("camera:high" if spec.camera_height_cm >= 80 else "camera:low")
    tags.append("tilt:strong" if abs(spec.tilt_deg) >= 15 else "tilt:mild")
    tags.append("lens:barrel" if spec.lens_k1 >= 0.08 else "lens:straight")
    tags.append("light:dim" if spec.light < 0.6 else "light:over" if spec.light > 1.2 else "light:normal")
    tags.append("gradient:strong" if spec.gradient >= 0.3 else "gradient:flat")
    tags.append("noise:high" if spec.noise_sigma >= 5 else "noise:low")
    tags.append("jpeg:low" if spec.jpeg_quality < 60 else "jpeg:high")
    tags.append("shake:strong" if spec.shake_px >= 1.0 else "shake:none" if spec.shake_px == 0 else "shake:mild")
    if spec.drift_px >= 1.0:
        tags.append("drift")
    if abs(spec.exposure_change - 1) >= 0.1:
        tags.append("exposure:changes")
    if spec.rolling_flicker >= 0.03:
        tags.append("flicker:rolling")
    if spec.wobble_px > 0:
        tags.append("shake:ringing" if spec.wobble_hz > RINGING_HZ else "shake:rolling")
    tags.append(f"rest:{spec.rest.value}")
    if spec.rest is StarRest.CROWN and not spec.hits:
        tags.append("rest:crown-miss")
    tags.append("print:faint" if spec.print_white - spec.print_black < 170 else "print:crisp")
    tags.append(f"table:{spec.table_kind}")
    tags.append("blur:strong" if spec.blur_sigma >= 1.0 else "blur:mild")
    if spec.frame_margin_px is not None and spec.standee_h_cm >= EDGE_TALL_CM:
        tags.append("edge:tall")
    if _all_hard_at_once(spec, tags):
        tags.append("hard:combined")
    return tags


# the hard conditions ``hard:combined`` puts together in one clip
COMBINED = ("scenario:multi", "light:dim", "exposure:changes", "blur:strong", "camera:high", "hand:thrower_arm",
            "print:faint", "drift")


def _all_hard_at_once(spec: ClipSpec, tags: list[str]) -> bool:
    return all(t in tags for t in COMBINED)


HARD_TAGS = ("light:dim", "light:over", "noise:high", "jpeg:low", "shake:strong", "tilt:strong", "lens:barrel",
             "exposure:changes", "flicker:rolling", "rest:crown", "rest:between", "hand:over", "print:faint",
             "blur:strong")


def is_hard(spec: ClipSpec) -> bool:
    """A clip in hard conditions (the kinds a different renderer's hard third has, and more)."""
    return bool(set(variation_tags(spec)) & set(HARD_TAGS))


# ----------------------------------------------------------------------------- scene layout

def seat_angle(seat: int, seats: int) -> float:
    """Angle (radians) of a seat around the table centre; seat 0 at the near edge, clockwise."""
    return -math.pi / 2 - 2 * math.pi * seat / seats


def standee_position(seat: int, seats: int, inset: tuple[float, float] = USUAL_INSET_CM) -> np.ndarray:
    """A standee's base centre: on an ellipse ``inset`` cm inside the play area's long and short edges."""
    a = seat_angle(seat, seats)
    return np.array([(PLAY_W / 2 - inset[0]) * math.cos(a), (PLAY_H / 2 - inset[1]) * math.sin(a)])


def corner_positions() -> list[np.ndarray]:
    """Centres of corner markers 0-3, clockwise from seat 0's left."""
    x, y = PLAY_W / 2 - 3.5, PLAY_H / 2 - 3.5
    return [np.array(p) for p in ((-x, -y), (-x, y), (x, y), (x, -y))]


def _dropping_onto(top: np.ndarray, height: float, t: float) -> list[tuple[float, ...]]:
    """The star's last knots dropping onto a crown: just above ``top`` at time ``t``, lying there at ``height`` (cm)
    0.08 s later."""
    return [(t, *top, height + 1.5), (t + 0.08, *top, height)]


def _segment_distance(p: np.ndarray, a: np.ndarray, b: np.ndarray) -> float:
    ab = b - a
    t = float(np.clip(np.dot(p - a, ab) / max(np.dot(ab, ab), 1e-9), 0, 1))
    return float(np.linalg.norm(p - (a + t * ab)))


# ----------------------------------------------------------------------------- spec drawing

def clear_targets(seats: int, thrower: int, inset: tuple[float, float] = USUAL_INSET_CM) -> list[int]:
    """Seats the thrower can hit in a straight line without another standee in the way."""
    pos = [standee_position(s, seats, inset) for s in range(seats)]
    start = pos[thrower] * 1.3
    return [s for s in range(seats) if s != thrower
            and all(_segment_distance(pos[b], start, pos[s]) >= 9.0 for b in range(seats) if b not in (s, thrower))]


def random_spec(seed: int, **overrides: Any) -> ClipSpec:
    """A clip spec drawn from ``seed``; keyword arguments fix chosen fields (e.g. scenario), and
    ``second_touched=True`` makes the standee a two-standee throw meets second only touched."""
    rng = np.random.default_rng(seed)
    seats = int(overrides.pop("seats", rng.integers(6, 10)))
    thrower = int(overrides.pop("thrower", rng.integers(0, seats)))
    scenario = overrides.pop("scenario", None) or Scenario(rng.choice(
        [s.value for s in Scenario], p=[0.2, 0.1, 0.25, 0.25, 0.2]))
    hand = overrides.pop("hand", None) or HandMove(rng.choice(
        [h.value for h in HandMove], p=[0.3, 0.15, 0.2, 0.15, 0.2]))
    others = clear_targets(seats, thrower, overrides.get("seat_inset_cm", USUAL_INSET_CM))
    hits: tuple[tuple[int, str], ...] = ()
    if scenario in (Scenario.TOUCH, Scenario.KNOCK):
        hits = ((int(rng.choice(others)), "touched" if scenario is Scenario.TOUCH else "knocked"),)
    elif scenario is Scenario.MULTI:
        first = int(rng.choice(others))
        nxt = [s for s in ((first + 1) % seats, (first - 1) % seats) if s != thrower]
        second = int(rng.choice(nxt))
        kinds = rng.choice(["knocked", "touched"], size=2)
        if overrides.pop("second_touched", False):  # the standee met second is only touched
            kinds[1] = "touched"
        hits = ((first, str(kinds[0])), (second, str(kinds[1])))
    if "rest" in overrides:
        rest = overrides.pop("rest")
    elif hits and hits[-1][1] == "touched" and rng.random() < 0.35:
        rest = StarRest.CROWN
    elif not hits and rng.random() < 0.35:
        rest = StarRest.BETWEEN
    else:
        rest = StarRest.TABLE
    hard = rng.random() < 0.5  # half the clips draw their camera and room from the hard ranges
    black = int(rng.integers(0, 90)) if rng.random() < 0.4 else int(rng.integers(0, 30))
    values = dict(
        seed=seed, seats=seats, thrower=thrower, scenario=scenario, hits=hits, hand=hand,
        fps=int(rng.choice([30, 60], p=[0.75, 0.25])),
        camera_height_cm=float(rng.uniform(60, 100)),
        tilt_deg=float(rng.choice([-1, 1]) * (rng.uniform(0, 25) if hard else rng.uniform(0, 12))),
        yaw_deg=float(rng.uniform(-15, 15) + rng.choice([0, 180])),
        fill=float(rng.uniform(0.86, 0.97)),
        lens_k1=float(rng.uniform(0.0, 0.15) if hard else rng.uniform(0.0, 0.06)),
        light=float(rng.choice([rng.uniform(0.35, 0.6), rng.uniform(1.2, 1.6), rng.uniform(0.6, 1.2)]) if hard
                    else rng.uniform(0.6, 1.2)),
        gradient=float(rng.uniform(0.0, 0.5)),
        noise_sigma=float(rng.uniform(1.0, 9.0) if hard else rng.uniform(1.0, 5.0)),
        jpeg_quality=int(rng.integers(40, 93) if hard else rng.integers(60, 93)),
        star_speed_cm_s=float(rng.uniform(250, 550)),
        exposure_s=float(rng.uniform(1 / 250, 1 / 50)),
        shake_px=float(rng.choice([0.0, rng.uniform(0.2, 1.0), rng.uniform(1.0, 2.0)], p=[0.3, 0.35, 0.35])),
        drift_px=float(rng.uniform(0, 4) if rng.random() < 0.4 else 0.0),
        exposure_change=float(rng.uniform(0.7, 1.35) if rng.random() < 0.3 else 1.0),
        rolling_flicker=float(rng.uniform(0.02, 0.08) if rng.random() < 0.3 else 0.0),
        rest=rest,
        print_black=black,
        print_white=int(rng.integers(185, 250)),
        table_kind=str(rng.choice(["felt", "wood", "cloth"])),
        standee_w_cm=float(rng.uniform(5.0, 7.0)),
        standee_h_cm=float(rng.uniform(9.0, 13.0)),
        crown_card_cm=float(rng.uniform(4.6, 5.8)),
        blur_sigma=float(rng.uniform(0.3, 1.4)),
    )
    values.update(overrides)
    return ClipSpec(**values)


def _condition(tag: str, rng: np.random.Generator) -> dict[str, Any]:
    """Spec fields that put a clip in the condition ``tag`` (one of ``CONDITIONS``)."""
    if tag == "scenario:multi-light":
        # a two-standee throw whose second contact is a light touch: a small swing of its crown
        low = float(rng.uniform(2.0, 4.0))
        return {"scenario": Scenario.MULTI, "second_touched": True,
                "touch_min_deg": low, "touch_max_deg": low + float(rng.uniform(2.0, 5.0))}
    if tag.startswith("scenario:"):
        return {"scenario": Scenario(tag.split(":", 1)[1])}
    if tag.startswith("hand:"):
        return {"hand": HandMove(tag.split(":", 1)[1])}
    if tag.startswith("table:"):
        return {"table_kind": tag.split(":", 1)[1]}
    draws: dict[str, Callable[[], dict[str, Any]]] = {
        "light:over": lambda: {"light": float(rng.uniform(1.2, 1.7))},
        "light:dim": lambda: {"light": float(rng.uniform(0.3, 0.6))},
        "noise:high": lambda: {"noise_sigma": float(rng.uniform(5.0, 10.0))},
        "blur:strong": lambda: {"blur_sigma": float(rng.uniform(1.0, 1.6))},
        "jpeg:low": lambda: {"jpeg_quality": int(rng.integers(35, 60))},
        "tilt:strong": lambda: {"tilt_deg": float(rng.choice([-1, 1]) * rng.uniform(15, 25))},
        "drift": lambda: {"drift_px": float(rng.uniform(1.0, 5.0))},
        "shake:strong": lambda: {"shake_px": float(rng.uniform(1.0, 2.0))},
        "shake:rolling": lambda: {"wobble_px": float(rng.uniform(0.8, 2.5)), "wobble_hz": float(rng.uniform(5.0, 30.0))},
        "shake:ringing": lambda: {"wobble_px": float(rng.uniform(0.8, 2.5)),
                                  "wobble_hz": float(rng.uniform(RINGING_HZ, 70.0))},
        "rest:crown": lambda: {"scenario": Scenario.TOUCH, "rest": StarRest.CROWN},
        "rest:crown-miss": lambda: {"scenario": Scenario.MISS, "rest": StarRest.CROWN},
        "hard:combined": lambda: _combined(rng),
        "edge:tall": lambda: _edge_tall(rng),
    }
    return draws[tag]()


def _combined(rng: np.random.Generator) -> dict[str, Any]:
    """Every hard condition of ``COMBINED`` in one clip: a two-standee throw in a dim room whose
    exposure changes mid-clip, strongly blurred, seen from high up, the thrower's arm following the
    star in, faint print, the camera drifting; half of them shaking strongly too, and half tilted
    strongly (the rest, noise and JPEG among them, drawn as usual)."""
    black = int(rng.integers(20, 90))
    values = {"scenario": Scenario.MULTI, "hand": HandMove.THROWER_ARM,
              "light": float(rng.uniform(0.3, 0.6)),
              "exposure_change": float(rng.choice([rng.uniform(0.6, 0.9), rng.uniform(1.1, 1.4)])),
              "blur_sigma": float(rng.uniform(1.0, 1.6)),
              "camera_height_cm": float(rng.uniform(80, 100)),
              "print_black": black, "print_white": min(250, black + int(rng.integers(110, 169))),
              "drift_px": float(rng.uniform(1.0, 5.0))}
    if rng.random() < 0.5:
        values["shake_px"] = float(rng.uniform(1.0, 2.0))
    if rng.random() < 0.5:
        values["tilt_deg"] = float(rng.choice([-1, 1]) * rng.uniform(15, 25))
    return values


def _edge_tall(rng: np.random.Generator) -> dict[str, Any]:
    """Tall, wide standees close to the play area's edges, the camera framing their upright crowns a few
    pixels inside the image border: a standee knocked outwards lies partly out of the picture."""
    return {"standee_h_cm": float(rng.uniform(EDGE_TALL_CM, 15.0)), "standee_w_cm": float(rng.uniform(5.0, 7.5)),
            "seat_inset_cm": (float(rng.uniform(5.0, 9.0)), float(rng.uniform(5.0, 9.0))),
            "frame_margin_px": float(rng.uniform(4.0, 30.0))}


CONDITIONS = ("light:over", "light:dim", "noise:high", "blur:strong", "jpeg:low", "tilt:strong", "drift",
              "shake:strong", "rest:crown", "scenario:multi", "scenario:touch", "table:felt", "hand:over",
              "hard:combined", "scenario:multi-light", "edge:tall", "shake:rolling", "shake:ringing", "rest:crown-miss")


def condition_set(count: int, tag: str, seed: int = 0) -> list[ClipSpec]:
    """``count`` specs all in condition ``tag`` (the rest drawn as usual, and the condition's own
    range a little wider than ``random_spec``'s), to measure one condition on a set of its own."""
    if tag not in CONDITIONS:
        raise ValueError(f"no way to draw condition {tag!r}")
    k = CONDITIONS.index(tag)
    rng = np.random.default_rng([seed, k])
    # clip seeds of their own, apart from every clip_set's (those stay below 10**12)
    return [random_spec(10**12 + seed * 10**6 + k * 10**4 + i, **_condition(tag, rng)) for i in range(count)]


def clip_set(count: int, seed: int = 0) -> list[ClipSpec]:
    """``count`` specs cycling through the scenarios so every kind of throw is covered."""
    kinds = list(Scenario)
    return [random_spec(seed * 100_003 + i, scenario=kinds[i % len(kinds)]) for i in range(count)]


# ----------------------------------------------------------------------------- camera

@dataclass
class Camera:
    rotation: np.ndarray  # world -> camera
    centre: np.ndarray  # camera position, world cm
    focal: float
    principal: np.ndarray  # in the padded ideal canvas

    def project(self, pts: np.ndarray) -> np.ndarray:
        """(N,3) world points -> (N,2) ideal canvas pixels."""
        cam = (np.asarray(pts, float) - self.centre) @ self.rotation.T
        z = np.maximum(cam[:, 2], 1e-3)
        return np.asarray(cam[:, :2] / z[:, None] * self.focal + self.principal)

    def depth(self, pts: np.ndarray) -> np.ndarray:
        return np.asarray(((np.asarray(pts, float) - self.centre) @ self.rotation.T)[:, 2])

    def faces(self, point: np.ndarray, normal: np.ndarray) -> bool:
        return float(np.dot(self.centre - point, normal)) > 0


def _rot_x(a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    return np.array([[1, 0, 0], [0, c, -s], [0, s, c]])


def _rot_z(a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])


def upright_crowns(spec: ClipSpec) -> np.ndarray:
    """(N,3) world corners of every standee's crown card while it stands (the card's diagonal reach)."""
    reach = spec.crown_card_cm / math.sqrt(2)
    pts = []
    for seat in range(spec.seats):
        pos = standee_position(seat, spec.seats, spec.seat_inset_cm)
        for k in range(8):
            a = k * math.pi / 4
            pts.append([pos[0] + reach * math.cos(a), pos[1] + reach * math.sin(a), spec.standee_h_cm + 0.1])
    return np.array(pts)


def make_camera(spec: ClipSpec) -> Camera:
    looking_down = np.array([[1.0, 0, 0], [0, -1, 0], [0, 0, -1]])
    rotation = _rot_z(math.radians(spec.yaw_deg)) @ _rot_x(math.radians(spec.tilt_deg)) @ looking_down
    axis = rotation[2]  # optical axis in world coordinates
    distance = spec.camera_height_cm / max(-axis[2], 0.5)
    centre = -axis * distance
    cam = Camera(rotation, centre, 1.0, np.zeros(2))
    corners = np.array([[sx * PLAY_W / 2, sy * PLAY_H / 2, 0] for sx in (-1, 1) for sy in (-1, 1)])
    if spec.frame_margin_px is None:
        n = cam.project(corners)
        focal = min(WIDTH * spec.fill / 2 / np.abs(n[:, 0]).max(), HEIGHT * 0.97 / 2 / np.abs(n[:, 1]).max())
    else:
        n = cam.project(np.vstack([corners, upright_crowns(spec)]))
        focal = min((WIDTH / 2 - spec.frame_margin_px) / np.abs(n[:, 0]).max(),
                    (HEIGHT / 2 - spec.frame_margin_px) / np.abs(n[:, 1]).max())
    return Camera(rotation, centre, float(focal), np.array([WIDTH / 2 + PAD, HEIGHT / 2 + PAD]))


# ----------------------------------------------------------------------------- textures

def _noise_field(rng: np.random.Generator, shape: tuple[int, int], scale: int) -> np.ndarray:
    small = rng.standard_normal((max(2, shape[0] // scale), max(2, shape[1] // scale))).astype(np.float32)
    return cv2.resize(small, (shape[1], shape[0]), interpolation=cv2.INTER_CUBIC)


def _card_texture(marker_id: int, card_cm: float, marker_cm: float, px_per_cm: float = TEX_PX_PER_CM * 1.5,
                  ink: tuple[int, int] = (0, 235)) -> np.ndarray:
    """A card with a marker printed on it: ``ink`` is the grey of the black cells and of the paper."""
    side = int(round(card_cm * px_per_cm))
    m = int(round(marker_cm * px_per_cm))
    tex = np.full((side, side, 3), ink[1], np.uint8)
    off = (side - m) // 2
    mark = markers.marker_image(marker_id, m).astype(np.float32) / 255.0
    mark = (ink[0] + (ink[1] - ink[0]) * mark).astype(np.uint8)
    tex[off:off + m, off:off + m] = cv2.cvtColor(mark, cv2.COLOR_GRAY2BGR)
    return cv2.GaussianBlur(tex, (0, 0), 0.8)


def _character_texture(rng: np.random.Generator, width_cm: float = STANDEE_W, height_cm: float = STANDEE_H) -> np.ndarray:
    w, h = int(width_cm * TEX_PX_PER_CM), int(height_cm * TEX_PX_PER_CM)
    colour = [int(c) for c in rng.integers(40, 220, 3)]
    tex = np.zeros((h, w, 3), np.uint8)
    tex[:] = colour
    dark = [int(c * 0.4) for c in colour]
    cv2.ellipse(tex, (w // 2, h // 4), (w // 5, h // 9), 0, 0, 360, dark, -1)
    cv2.rectangle(tex, (w // 4, h // 3), (3 * w // 4, h - 6), dark, -1)
    cv2.rectangle(tex, (0, 0), (w - 1, h - 1), (250, 250, 250), 2)
    return tex


def _table_texture(rng: np.random.Generator, kind: str = "felt") -> tuple[np.ndarray, float]:
    """The table's surface (felt, wood with its grain, or a patterned cloth, uneven), and how many cm
    it reaches beyond the play area."""
    extent = 30.0
    w = int((PLAY_W + 2 * extent) * TABLE_PX_PER_CM)
    h = int((PLAY_H + 2 * extent) * TABLE_PX_PER_CM)
    base = np.array(rng.choice([[50, 110, 50], [60, 95, 140], [110, 110, 110], [80, 80, 130], [120, 130, 140],
                                [40, 60, 90], [150, 160, 170]]), np.float32) * rng.uniform(0.85, 1.2)
    grain = _noise_field(rng, (h, w), 24) * 10 + _noise_field(rng, (h, w), 2) * 5
    if kind == "wood":  # long stripes of grain along the table
        yy = np.arange(h, dtype=np.float32)[:, None] + _noise_field(rng, (h, w), 40) * 12
        grain += 14 * np.sin(yy / rng.uniform(3, 8)) + 6 * np.sin(yy / rng.uniform(0.8, 1.6))
    elif kind == "cloth":  # a woven check
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        period = rng.uniform(8, 30)
        grain += 12 * (np.sign(np.sin(xx / period)) * np.sign(np.sin(yy / period)))
    return np.clip(base[None, None, :] + grain[..., None], 0, 255).astype(np.uint8), extent


def _flat_cards(seats: int, ink: tuple[int, int] = (0, 235),
                inset: tuple[float, float] = USUAL_INSET_CM) -> list[tuple[np.ndarray, np.ndarray]]:
    """Corner and base marker cards lying on the table: (texture, world corners TL TR BR BL)."""
    def quad(centre: np.ndarray, side_cm: float, angle: float) -> np.ndarray:
        half = side_cm / 2
        local = np.array([[-half, half], [half, half], [half, -half], [-half, -half]])
        c, s = math.cos(angle), math.sin(angle)
        return np.column_stack([local @ np.array([[c, s], [-s, c]]) + centre, np.zeros(4)])

    cards = [(_card_texture(i, 6.0, markers.CORNER_SIZE_CM, CARD_PX_PER_CM, ink), quad(centre, 6.0, 0.0))
             for i, centre in enumerate(corner_positions())]
    for seat in range(seats):
        pos = standee_position(seat, seats, inset)
        inward = -pos / np.linalg.norm(pos)
        angle = math.atan2(inward[1], inward[0]) - math.pi / 2
        cards.append((_card_texture(markers.base_id(seat), BASE_CARD, markers.BASE_SIZE_CM, CARD_PX_PER_CM, ink),
                      quad(pos + inward * BASE_MARKER_OFFSET, BASE_CARD, angle)))
    return cards


# ----------------------------------------------------------------------------- motion of things

Box = tuple[float, float, float, float]
"""An image box: left, top, right, bottom."""
DrawnQuad = tuple[float, np.ndarray, np.ndarray, float, Box]
"""A standee's part as drawn: its depth, image corners, texture, shade and box."""


def _boxes_meet(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@dataclass
class Standee:
    seat: int
    position: np.ndarray  # base centre on the table
    inward: np.ndarray  # unit vector towards the table centre (the way the picture faces)
    picture: np.ndarray
    crown: np.ndarray
    events: list[tuple[float, str, np.ndarray, dict[str, float]]] = field(default_factory=list)
    width: float = STANDEE_W
    height: float = STANDEE_H
    card: float = CROWN_CARD

    def tilt(self, t: float) -> tuple[float, np.ndarray]:
        """(angle, horizontal direction) of the standee at time t; angle 0 is upright."""
        for t0, kind, direction, p in self.events:
            if t < t0:
                continue
            dt = t - t0
            if kind == "touched":
                return p["amp"] * math.exp(-dt / p["tau"]) * math.sin(2 * math.pi * p["freq"] * dt), direction
            return _fall_angle(dt, p["omega0"]), direction
        return 0.0, self.inward

    def quads(self, t: float) -> list[tuple[str, np.ndarray]]:
        """World corners (TL, TR, BR, BL of each texture) of the base top, picture card and crown card."""
        angle, direction = self.tilt(t)
        side = np.array([-self.inward[1], self.inward[0]])  # along the card
        pivot = np.append(self.position + direction * 1.2 * (1 if angle >= 0 else -1), 0.0)
        axis = np.append(np.array([-direction[1], direction[0]]), 0.0)  # tipping towards `direction`
        rot = _axis_rotation(axis, angle)
        hw, up = self.width / 2, self.height
        p0 = np.append(self.position, 0.0)
        s3, i3, z = np.append(side, 0), np.append(self.inward, 0), np.array([0, 0, 1.0])
        body = [p0 - s3 * hw + z * up, p0 + s3 * hw + z * up, p0 + s3 * hw, p0 - s3 * hw]
        top = p0 + z * (up + 0.1)
        c = self.card / 2
        crown = [top + i3 * c + s3 * c, top + i3 * c - s3 * c, top - i3 * c - s3 * c, top - i3 * c + s3 * c]
        base = [p0 + z * 1.2 + i3 * 1.3 - s3 * 3.5, p0 + z * 1.2 + i3 * 1.3 + s3 * 3.5,
                p0 + z * 1.2 - i3 * 1.3 + s3 * 3.5, p0 + z * 1.2 - i3 * 1.3 - s3 * 3.5]

        def move(pts: list[np.ndarray]) -> np.ndarray:
            return np.asarray((np.array(pts) - pivot) @ rot.T + pivot)

        return [("base", move(base)), ("body", move(body)), ("crown", move(crown))]


def _axis_rotation(axis: np.ndarray, angle: float) -> np.ndarray:
    axis = axis / np.linalg.norm(axis)
    k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    return np.asarray(np.eye(3) + math.sin(angle) * k + (1 - math.cos(angle)) * k @ k)


def _fall_angle(dt: float, omega0: float) -> float:
    """A toppling card: an inverted pendulum from its impact spin until it lies flat, a small bounce."""
    theta, omega, step, t = 0.0, omega0, 0.002, 0.0
    while t < dt:
        if theta >= math.pi / 2:
            since = dt - t
            return math.pi / 2 - 0.08 * abs(math.sin(since * 25)) * math.exp(-since * 12)
        omega += 40.0 * math.sin(theta + 0.05) * step
        theta += omega * step
        t += step
    return min(theta, math.pi / 2)


@dataclass
class StarPath:
    """Piecewise-linear flight of the star: (time, x, y, z) knots, then it lies still."""

    knots: np.ndarray  # (N, 4)
    spin_rad_s: float
    points: int

    def at(self, t: float) -> np.ndarray | None:
        k = self.knots
        if t < k[0, 0]:
            return None
        if t >= k[-1, 0]:
            return k[-1, 1:]
        i = int(np.searchsorted(k[:, 0], t, side="right")) - 1
        f = (t - k[i, 0]) / max(k[i + 1, 0] - k[i, 0], 1e-9)
        return np.asarray(k[i, 1:] + f * (k[i + 1, 1:] - k[i, 1:]))

    def spin(self, t: float) -> float:
        moving_until = self.knots[-1, 0]
        return float(self.spin_rad_s * (min(t, moving_until) - self.knots[0, 0]))


@dataclass
class ArmMove:
    """An arm reaching from outside the table towards ``reach`` and back (table cm, at 20 cm high)."""

    start: np.ndarray
    reach: np.ndarray
    t0: float
    t1: float
    colour: tuple[int, int, int]
    hold: float = 0.0  # seconds the hand rests at ``reach`` before going back

    def hand_at(self, t: float) -> np.ndarray | None:
        if not self.t0 <= t <= self.t1:
            return None
        move = max(1e-3, (self.t1 - self.t0 - self.hold) / 2)
        since = t - self.t0
        if since < move:
            phase = math.sin(math.pi / 2 * since / move)
        elif since < move + self.hold:
            phase = 1.0
        else:
            phase = math.cos(math.pi / 2 * min(1.0, (since - move - self.hold) / move))
        return np.asarray(self.start + (self.reach - self.start) * phase)


# ----------------------------------------------------------------------------- the scene

class Scene:
    """One clip's world: built from a spec, renders frame ``i`` on demand."""

    def __init__(self, spec: ClipSpec) -> None:
        self.spec = spec
        rng = np.random.default_rng(spec.seed + 7)
        self.camera = make_camera(spec)
        self.standees = []
        ink = (spec.print_black, spec.print_white)
        for seat in range(spec.seats):
            pos = standee_position(seat, spec.seats, spec.seat_inset_cm)
            self.standees.append(Standee(
                seat, pos, -pos / np.linalg.norm(pos),
                _character_texture(rng, spec.standee_w_cm, spec.standee_h_cm),
                _card_texture(markers.crown_id(seat), spec.crown_card_cm, markers.CROWN_SIZE_CM, ink=ink),
                width=spec.standee_w_cm, height=spec.standee_h_cm, card=spec.crown_card_cm))
        self._card_back = np.full((8, 8, 3), 200, np.uint8)
        self._base_top = np.full((8, 8, 3), 35, np.uint8)
        self._layer_key: tuple[float, ...] | None = None
        self._layer: tuple[np.ndarray, list[DrawnQuad]] | None = None
        sun_dir = rng.uniform(0, 2 * math.pi)
        self._sun = np.array([math.cos(sun_dir), math.sin(sun_dir)]) * rng.uniform(0.1, 0.35)
        self._shadow_strength = float(rng.uniform(0.15, 0.4))
        self.background = self._background(rng)
        self.arms: list[ArmMove] = []
        self.lead = float(rng.uniform(0.35, 0.5))
        if spec.hand is HandMove.BEFORE:
            self.arms.append(self._arm(rng, int(rng.integers(0, spec.seats)), self.lead, self.lead + 0.6, 0.55))
            self.lead += float(rng.uniform(1.0, 1.2))
        self.star, self.end_of_action = self._throw(rng)
        if spec.hand is HandMove.THROWER_ARM:
            self.arms.append(self._arm(rng, spec.thrower, self.lead - 0.25, self.lead + 0.3, 0.25))
        if spec.hand is HandMove.AFTER:
            rest_t, rest = float(self.star.knots[-1, 0]), self.star.knots[-1, 1:3]
            if abs(rest[0]) > PLAY_W / 2 or abs(rest[1]) > PLAY_H / 2:
                rest = np.zeros(2)  # flew off the table: the player reaches towards the middle
            seat = int(rng.choice([s for s in range(spec.seats) if s != spec.thrower]))
            t0 = rest_t + float(rng.uniform(0.05, 0.3))
            self.arms.append(self._arm(rng, seat, t0, t0 + 0.7, 0.0, reach=rest))
            self.end_of_action = max(self.end_of_action, t0 + 0.8)
        if spec.hand is HandMove.OVER:  # over any seat, at any time around the throw, resting a while
            seat = int(rng.integers(0, spec.seats))
            t0 = float(rng.uniform(max(0.15, self.lead - 0.4), self.end_of_action - 0.2))
            hold = float(rng.uniform(0.3, 1.2))
            t1 = t0 + hold + 2 * float(rng.uniform(0.25, 0.45))
            self.arms.append(self._arm(rng, seat, t0, t1, 0.0, hold=hold))
            self.end_of_action = max(self.end_of_action, t1 + 0.1)
        self.duration = self.end_of_action + 0.9
        self.frame_count = int(math.ceil(self.duration * spec.fps))
        self._light = self._light_field(rng)
        # mains-powered lamps beat with the frame rate: a slow, slight brightness wobble
        self._flicker = (float(rng.uniform(0, 0.025)), float(rng.uniform(0.5, 8)), float(rng.uniform(0, 2 * math.pi)))
        self._lens_maps = self._lens()
        # the camera and the room: shake, drift, auto exposure, rolling flicker (their own generator)
        motion_rng = np.random.default_rng(spec.seed + 13)
        r = spec.shake_px * np.sqrt(motion_rng.uniform(0, 1, self.frame_count))
        a = motion_rng.uniform(0, 2 * math.pi, self.frame_count)
        drift = motion_rng.uniform(0, 2 * math.pi)
        ramp = np.arange(self.frame_count) / max(1, self.frame_count - 1)
        self._offsets = np.column_stack([r * np.cos(a) + spec.drift_px * ramp * math.cos(drift),
                                         r * np.sin(a) + spec.drift_px * ramp * math.sin(drift)])
        self._exposure_at = float(motion_rng.uniform(0.2, max(0.3, self.duration - 0.4)))
        self._rolling = (float(motion_rng.uniform(60, 240)), float(motion_rng.uniform(2, 12)),
                         float(motion_rng.uniform(0, 2 * math.pi)))
        self._wobble_phase = np.random.default_rng(spec.seed + 19).uniform(0, 2 * math.pi, 2)
        self._star_colour = self._pick_star_colour(rng)
        self._noise_rng = np.random.default_rng(spec.seed + 11)
        sigma = spec.noise_sigma / max(spec.light, 0.3) ** 0.5  # a dim scene needs more sensor gain
        self._noise_bank = np.round(self._noise_rng.standard_normal((HEIGHT + NOISE_MARGIN, WIDTH + NOISE_MARGIN, 3))
                                    * sigma).astype(np.int16)

    # -- set-up
    def _background(self, rng: np.random.Generator) -> np.ndarray:
        tex, extent = _table_texture(rng, self.spec.table_kind)
        src = np.array([[0, 0], [tex.shape[1], 0], [tex.shape[1], tex.shape[0]], [0, tex.shape[0]]], dtype=np.float32)
        world = np.array([[-PLAY_W / 2 - extent, PLAY_H / 2 + extent, 0], [PLAY_W / 2 + extent, PLAY_H / 2 + extent, 0],
                          [PLAY_W / 2 + extent, -PLAY_H / 2 - extent, 0], [-PLAY_W / 2 - extent, -PLAY_H / 2 - extent, 0]])
        dst = self.camera.project(world).astype(np.float32)
        hmat = cv2.getPerspectiveTransform(src, dst)
        img = cv2.warpPerspective(tex, hmat, (WIDTH + 2 * PAD, HEIGHT + 2 * PAD), flags=cv2.INTER_LINEAR,
                                  borderMode=cv2.BORDER_REFLECT)
        for card, quad in _flat_cards(self.spec.seats, (self.spec.print_black, self.spec.print_white),
                                      self.spec.seat_inset_cm):
            self._draw_quad(img, card, quad)
        return img

    def _arm(self, rng: np.random.Generator, seat: int, t0: float, t1: float, depth: float,
             reach: np.ndarray | None = None, hold: float = 0.0) -> ArmMove:
        """An arm from behind ``seat``, reaching ``depth`` of the way to the centre (or to ``reach``)."""
        pos = standee_position(seat, self.spec.seats, self.spec.seat_inset_cm)
        outward = pos / np.linalg.norm(pos)
        side = np.array([-outward[1], outward[0]]) * rng.uniform(-8, 8)
        start = pos + outward * 60 + side
        if reach is None:
            reach = pos * (1 - depth) + side - outward * rng.uniform(0, 8)
        tone = np.array([150, 175, 215]) * rng.uniform(0.55, 1.05)
        r, g, b = (int(c) for c in np.clip(tone, 0, 255))
        return ArmMove(start, reach, t0, t1, (r, g, b), hold)

    def _pick_star_colour(self, rng: np.random.Generator) -> tuple[int, int, int]:
        """Any colour that stands out from the table in brightness or in hue."""
        table = self.background.reshape(-1, 3).mean(axis=0)
        for _ in range(100):
            colour = rng.integers(0, 256, 3)
            if np.abs(colour - table).max() >= 60:
                r, g, b = (int(c) for c in colour)
                return (r, g, b)
        return (0, 200, 255)

    def _throw(self, rng: np.random.Generator) -> tuple[StarPath, float]:
        """The star's path for the spec's scenario; also arms the standees' falls and wobbles."""
        spec = self.spec
        seats = spec.seats
        thrower_pos = standee_position(spec.thrower, seats, spec.seat_inset_cm)
        out = thrower_pos / np.linalg.norm(thrower_pos)
        lateral = np.array([-out[1], out[0]])
        v = spec.star_speed_cm_s
        positions = {s.seat: s.position for s in self.standees}
        # a crowded table (tall standees near the edges) may leave few clear ways among random ends: a miss
        # not between two standees then tries 200 more ways, aimed past one standee at the miss's clearance
        tries = 400 if not spec.hits and spec.rest is not StarRest.BETWEEN else 200
        for attempt in range(tries):
            start = thrower_pos + out * rng.uniform(8, 14) + lateral * rng.uniform(-6, 6)
            knots = [(self.lead, *start, 16.0)]
            t, here = self.lead, start
            if not spec.hits:
                path_ok, knots_t = self._plan_miss(rng, start, positions, knots, v, aimed=attempt >= 200)
                if path_ok:
                    return StarPath(np.array(knots_t), float(rng.uniform(-40, 40)), int(rng.choice([4, 6]))), knots_t[-1][0]
                continue
            ok, speed, events = True, v, []
            for n, (seat, outcome) in enumerate(spec.hits):
                target = positions[seat]
                towards = (target - here) / np.linalg.norm(target - here)
                impact = target - towards * 1.5
                blockers = [s for s in positions if s not in (seat, spec.thrower) and s not in [h[0] for h in spec.hits[:n]]]
                if any(_segment_distance(positions[b], here, impact) < 8.0 for b in blockers):
                    ok = False
                    break
                t += float(np.linalg.norm(impact - here)) / speed
                z = float(rng.uniform(5, 9))
                knots.append((t, *impact, z))
                events.append((seat, outcome, t, towards))
                here, speed = impact, speed * 0.55
            if not ok:
                continue
            if spec.rest is StarRest.CROWN:  # the star drops onto the crown of the standee it touched
                top, height = self._on_crown(rng, spec.hits[-1][0])
                knots += _dropping_onto(top, height, t + 0.08)
            else:  # after the last hit the star bounces back and falls to the table
                back = -towards
                ang = rng.uniform(-0.9, 0.9)
                c, s = math.cos(ang), math.sin(ang)
                bounce = np.array([c * back[0] - s * back[1], s * back[0] + c * back[1]])
                land = here + bounce * rng.uniform(6, 14)
                if any(np.linalg.norm(land - p) < 7 for p in positions.values()):
                    continue
                knots.append((t + 0.15, *land, 0.0))
                knots.append((t + 0.3, *(land + bounce * 2), 0.0))
            for seat, outcome, t_hit, travel in events:
                st = self.standees[seat]
                # a card tips across its own plane: away from the star unless hit from behind
                direction = st.inward if float(np.dot(travel, st.inward)) > 0.3 else -st.inward
                if outcome == "touched":
                    params = dict(amp=math.radians(rng.uniform(spec.touch_min_deg, spec.touch_max_deg)),
                                  tau=float(rng.uniform(0.1, 0.18)), freq=float(rng.uniform(3, 5)))
                else:
                    params = dict(omega0=float(rng.uniform(3, 6)))
                st.events.append((t_hit, outcome, direction, params))
            end = max(t + 0.35, max(e[2] for e in events) + 0.7)
            path = StarPath(np.array(knots), float(rng.uniform(-40, 40)), int(rng.choice([4, 6])))
            return path, end
        raise RuntimeError(f"seed {spec.seed}: no clear path for scenario {spec.scenario.value}")

    def _on_crown(self, rng: np.random.Generator, seat: int) -> tuple[np.ndarray, float]:
        """Where the star lies on ``seat``'s crown: within a centimetre of its middle, and how high (cm)."""
        return self.standees[seat].position + rng.uniform(-1.0, 1.0, 2), self.standees[seat].height + 0.4

    def _plan_miss(self, rng: np.random.Generator, start: np.ndarray, positions: dict[int, np.ndarray],
                   knots: list[tuple[float, ...]], v: float, *,
                   aimed: bool = False) -> tuple[bool, list[tuple[float, ...]]]:
        """A star's way missing every standee by the scenario's clearance, ending off the table, on it,
        (``StarRest.BETWEEN``) between two standees, or (``StarRest.CROWN``) dropped onto a standee's crown without
        moving it (lobbed over the others); ``aimed``: past one standee, at that clearance."""
        spec = self.spec
        clearance = (7.5, 10.0) if spec.scenario is Scenario.NEAR_MISS else (10.0, 99.0)
        others = [p for s, p in positions.items() if s != spec.thrower]
        if spec.rest is StarRest.CROWN:
            seat = int(rng.choice([s for s in positions if s != spec.thrower]))
            top, height = self._on_crown(rng, seat)
            if any(_segment_distance(p, start, top) < 8.0 for s, p in positions.items() if s not in (seat, spec.thrower)):
                return False, knots
            return True, knots + _dropping_onto(top, height, knots[0][0] + float(np.linalg.norm(top - start)) / v)
        if aimed:
            passed = others[int(rng.integers(0, len(others)))]
            towards = (passed - start) / np.linalg.norm(passed - start)
            across = np.array([-towards[1], towards[0]]) * rng.choice([-1.0, 1.0])
            by = passed + across * rng.uniform(clearance[0], min(clearance[1], 20.0))
            way = (by - start) / np.linalg.norm(by - start)
            end = by + way * rng.uniform(10, 50)
            land_z = 3.0 if abs(end[0]) > PLAY_W / 2 or abs(end[1]) > PLAY_H / 2 else 0.0
        elif spec.rest is StarRest.BETWEEN:  # comes to rest on the table between two standees, by their bases
            a = int(rng.integers(0, spec.seats))
            pair = [positions[a], positions[(a + 1) % spec.seats]]
            mid = (pair[0] + pair[1]) / 2
            end = mid - mid / np.linalg.norm(mid) * rng.uniform(0, 4)
            if min(float(np.linalg.norm(end - p)) for p in positions.values()) < 7.5:
                return False, knots
            clearance = (7.0, 99.0)
            land_z = 0.0
        elif rng.random() < 0.5:  # between two standees and off the table
            angle = seat_angle(int(rng.integers(0, spec.seats)), spec.seats) - math.pi / spec.seats
            end = np.array([(PLAY_W / 2 + 40) * math.cos(angle), (PLAY_H / 2 + 40) * math.sin(angle)])
            land_z = 3.0
        else:  # short, onto the table
            end = rng.uniform([-18, -12], [18, 12])
            land_z = 0.0
        nearest = min(_segment_distance(p, start, end) for p in others)
        if not clearance[0] <= nearest <= clearance[1]:
            return False, knots
        t = knots[0][0] + float(np.linalg.norm(end - start)) / v
        knots = knots + [(t, *end, land_z)]
        if land_z == 0.0 and spec.rest is not StarRest.BETWEEN:
            knots.append((t + 0.2, *(end + (end - start) / np.linalg.norm(end - start) * 4), 0.0))
        return True, knots

    def _light_field(self, rng: np.random.Generator) -> np.ndarray:
        spec = self.spec
        yy, xx = np.mgrid[0:HEIGHT, 0:WIDTH].astype(np.float32)
        ang = rng.uniform(0, 2 * math.pi)
        ramp = ((xx - WIDTH / 2) * math.cos(ang) + (yy - HEIGHT / 2) * math.sin(ang)) / (WIDTH / 2)
        r2 = ((xx - WIDTH / 2) ** 2 + (yy - HEIGHT / 2) ** 2) / (WIDTH / 2) ** 2
        vignette = 1 - rng.uniform(0.0, 0.2) * r2
        gain = spec.light * (1 + spec.gradient * ramp) * vignette
        tint = rng.uniform(0.9, 1.1, 3).astype(np.float32)
        return np.asarray(gain[..., None] * tint[None, None, :], np.float32)

    def _lens(self) -> tuple[np.ndarray, np.ndarray]:
        return lens_maps(self.camera.focal, self.spec.lens_k1, pad=PAD)

    # -- truth
    def truth(self) -> Truth:
        knocked = tuple(sorted(s for s, o in self.spec.hits if o == "knocked"))
        touched = tuple(sorted(s for s, o in self.spec.hits if o == "touched"))
        return Truth(knocked, touched)

    # -- drawing
    def _draw_quad(self, img: np.ndarray, tex: np.ndarray, world: np.ndarray, shade: float = 1.0) -> None:
        pts = self.camera.project(world).astype(np.float32)
        if abs(cv2.contourArea(pts)) < 2.0:
            return
        h, w = img.shape[:2]
        x0, y0 = np.maximum(np.floor(pts.min(0)).astype(int), 0)
        x1, y1 = np.minimum(np.ceil(pts.max(0)).astype(int) + 1, [w, h])
        if x1 <= x0 or y1 <= y0:
            return
        src = np.array([[0, 0], [tex.shape[1], 0], [tex.shape[1], tex.shape[0]], [0, tex.shape[0]]], dtype=np.float32)
        local = (pts - np.array([x0, y0], dtype=np.float32)).astype(np.float32)
        hmat = cv2.getPerspectiveTransform(src, local)
        warped = cv2.warpPerspective(tex, hmat, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR)
        mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.fillConvexPoly(mask, np.round(local * 16).astype(np.int32), 255, cv2.LINE_AA, 4)
        alpha = (mask.astype(np.float32) / 255.0)[..., None]
        roi = img[y0:y1, x0:x1]
        roi[:] = (roi * (1 - alpha) + warped * (alpha * shade)).astype(np.uint8)

    def _standee_layer(self, t: float) -> tuple[np.ndarray, list[DrawnQuad]]:
        """The table with every standee drawn (far to near), and the drawn quads; reused while no
        standee moves."""
        key = tuple(round(st.tilt(t)[0], 4) for st in self.standees)
        if self._layer_key == key and self._layer is not None:
            return self._layer
        items = []
        for st in self.standees:
            for name, quad in st.quads(t):
                centre = quad.mean(0)
                normal = np.cross(quad[3] - quad[0], quad[1] - quad[0])
                if name == "crown":
                    tex = st.crown if self.camera.faces(centre, normal) else self._card_back
                    shade = 1.0
                elif name == "body":
                    tex, shade = st.picture, 0.85
                else:
                    tex, shade = self._base_top, 1.0
                pix = self.camera.project(quad)
                box = (*pix.min(0), *pix.max(0))
                items.append((float(self.camera.depth(centre[None])[0]), quad, tex, shade, box))
        items.sort(key=lambda it: -it[0])
        img = self.background.copy()
        for _, quad, tex, shade, _ in items:
            self._draw_quad(img, tex, quad, shade)
        self._layer_key, self._layer = key, (img, items)
        return self._layer

    def _draw_star(self, img: np.ndarray, t: float, shadow: bool = False) -> tuple[float, Box] | None:
        """Draws the star with motion blur over the exposure (or, ``shadow``, its shadow as 255 on a
        one-channel mask); returns its depth and image box, None before it is thrown."""
        if self.star.at(t) is None:
            return None
        h, w = img.shape[:2]
        polys = []
        for ts in self._exposure_moments(t):
            p = self.star.at(ts)
            if p is None:
                continue
            a0, n = self.star.spin(ts), self.star.points
            ring = [p + np.array([(STAR_RADIUS if j % 2 == 0 else STAR_RADIUS * 0.4) * math.cos(a0 + math.pi * j / n),
                                  (STAR_RADIUS if j % 2 == 0 else STAR_RADIUS * 0.4) * math.sin(a0 + math.pi * j / n),
                                  0.0]) for j in range(2 * n)]
            polys.append(self.camera.project(self._shadowed(np.array(ring)) if shadow else np.array(ring)))
        if not polys:
            return None
        allp = np.vstack(polys)
        x0, y0 = np.maximum(np.floor(allp.min(0)).astype(int) - 1, 0)
        x1, y1 = np.minimum(np.ceil(allp.max(0)).astype(int) + 2, [w, h])
        if x1 > x0 and y1 > y0:
            alpha = np.zeros((y1 - y0, x1 - x0), np.float32)
            layer = np.empty((y1 - y0, x1 - x0), np.uint8)
            for pix in polys:
                layer[:] = 0
                cv2.fillPoly(layer, [np.round((pix - [x0, y0]) * 16).astype(np.int32)], 255, cv2.LINE_AA, 4)
                alpha += layer.astype(np.float32) / (255.0 * len(polys))
            roi = img[y0:y1, x0:x1]
            if shadow:
                roi[:] = np.maximum(roi, (alpha * 255).astype(np.uint8))
            else:
                a = alpha[..., None]
                roi[:] = (roi * (1 - a) + np.array(self._star_colour, np.float32) * a).astype(np.uint8)
        at = self.star.at(t)
        assert at is not None  # drawn only while the star is in flight or at rest
        return float(self.camera.depth(at[None])[0]), (*allp.min(0), *allp.max(0))

    def _shadowed(self, pts: np.ndarray) -> np.ndarray:
        """Where points above the table cast their shadow on it (one lamp, a little off the vertical)."""
        pts = np.atleast_2d(np.asarray(pts, float))
        return np.column_stack([pts[:, :2] + pts[:, 2:3] * self._sun, np.zeros(len(pts))])

    def _draw_arms(self, img: np.ndarray, t: float, shadow: bool = False) -> None:
        """The arms in their colour, or (``shadow``) their shadows as 255 on a one-channel mask."""
        def project(pts: np.ndarray) -> np.ndarray:
            return self.camera.project(self._shadowed(pts) if shadow else pts)

        for arm in self.arms:
            hand = arm.hand_at(t)
            if hand is None:
                continue
            colour = 255 if shadow else arm.colour
            d = hand - arm.start
            d = d / np.linalg.norm(d)
            side = np.array([-d[1], d[0]])
            z = 20.0
            wrist = hand - d * 4
            shoulder = arm.start - d * 20
            poly = np.array([np.append(shoulder + side * 6, z), np.append(wrist + side * 3.5, z),
                             np.append(wrist - side * 3.5, z), np.append(shoulder - side * 6, z)])
            cv2.fillConvexPoly(img, np.round(project(poly)).astype(np.int32), colour, cv2.LINE_AA)
            palm = project(np.array([np.append(hand, z)]))[0]
            scale = float(np.linalg.norm(project(np.array([np.append(hand + side, z)]))[0] - palm))
            cv2.ellipse(img, (int(palm[0]), int(palm[1])), (int(5 * scale), int(4 * scale)),
                        math.degrees(math.atan2(d[1], d[0])), 0, 360, colour, -1, cv2.LINE_AA)
            for f in (-3, -1, 1, 3):
                tip = project(np.array([np.append(hand + d * 8 + side * f, z)]))[0]
                base = project(np.array([np.append(hand + d * 3 + side * f, z)]))[0]
                cv2.line(img, tuple(int(v) for v in base), tuple(int(v) for v in tip), colour,
                         max(2, int(1.6 * scale)), cv2.LINE_AA)

    def _redraw_over(self, img: np.ndarray, items: list[DrawnQuad], depth: float, region: Box) -> None:
        """Redraws the standee parts nearer the camera than ``depth`` that overlap ``region``,
        growing the region with what overlaps it so redrawn parts keep their order."""
        redraw: set[int] = set()
        while True:
            more = {i for i, (d, _, _, _, box) in enumerate(items)
                    if i not in redraw and d < depth and _boxes_meet(box, region)}
            if not more:
                break
            redraw |= more
            for i in more:
                box = items[i][4]
                region = (min(region[0], box[0]), min(region[1], box[1]), max(region[2], box[2]),
                          max(region[3], box[3]))
        for i in sorted(redraw):
            _, quad, tex, shade, _ = items[i]
            self._draw_quad(img, tex, quad, shade)

    def _cast_shadows(self, img: np.ndarray, t: float, items: list[DrawnQuad]) -> None:
        """Darkens the table under the star and the arms (soft shadows), then puts back the
        standees standing in them."""
        if not self.arms and self.star.at(t) is None:
            return
        mask = np.zeros(img.shape[:2], np.uint8)
        self._draw_arms(mask, t, shadow=True)
        self._draw_star(mask, t, shadow=True)
        ys, xs = np.nonzero(mask[::4, ::4])
        if ys.size == 0:
            return
        region = (xs.min() * 4 - 8, ys.min() * 4 - 8, xs.max() * 4 + 12, ys.max() * 4 + 12)
        x0, y0 = max(0, int(region[0])), max(0, int(region[1]))
        x1, y1 = min(img.shape[1], int(region[2])), min(img.shape[0], int(region[3]))
        soft = cv2.GaussianBlur(mask[y0:y1, x0:x1], (0, 0), 2.5).astype(np.float32) / 255.0
        roi = img[y0:y1, x0:x1]
        roi[:] = (roi * (1 - self._shadow_strength * soft[..., None])).astype(np.uint8)
        self._redraw_over(img, items, float("inf"), region)

    def _exposure_moments(self, t: float) -> list[float]:
        """``EXPOSURE_SAMPLES`` moments evenly over the exposure that ends at ``t``, the first at its start."""
        n = EXPOSURE_SAMPLES
        return [t - self.spec.exposure_s * (1 - k / (n - 1)) for k in range(n)]

    def row_shifts(self, t: float) -> tuple[np.ndarray, np.ndarray]:
        """Each row's shift (x, y columns, pixels) by a vibrating camera whose rolling shutter reads the rows
        top to bottom over most of a frame's time (``ROW_READOUT_SHARE``): zero without a wobble."""
        if self.spec.wobble_px <= 0:
            return np.zeros((1, 1), np.float32), np.zeros((1, 1), np.float32)
        rows = np.arange(HEIGHT, dtype=np.float64)[:, None] / HEIGHT
        phase = 2 * math.pi * self.spec.wobble_hz * (t + rows * ROW_READOUT_SHARE / self.spec.fps)
        return ((self.spec.wobble_px * np.sin(phase + self._wobble_phase[0])).astype(np.float32),
                (0.7 * self.spec.wobble_px * np.sin(phase + self._wobble_phase[1])).astype(np.float32))

    def render(self, index: int) -> np.ndarray:
        """Frame ``index`` as the camera delivers it: BGR uint8, WIDTH x HEIGHT."""
        t = index / self.spec.fps
        layer, items = self._standee_layer(t)
        img = layer.copy()
        self._cast_shadows(img, t, items)
        star = self._draw_star(img, t)
        if star is not None:  # standee parts nearer the camera than the star hide it
            self._redraw_over(img, items, *star)
        self._draw_arms(img, t)
        dx, dy = self._offsets[min(index, len(self._offsets) - 1)]
        map_x, map_y = self._lens_maps
        if self.spec.wobble_px > 0:  # the vibration moves the picture during each row's exposure: it smears
            filmed = np.zeros((*map_x.shape, 3), np.float32)
            for moment in self._exposure_moments(t):
                shift_x, shift_y = self.row_shifts(moment)
                filmed += cv2.remap(img, map_x + (shift_x + np.float32(dx)), map_y + (shift_y + np.float32(dy)),
                                    cv2.INTER_LINEAR)
            img = (filmed / EXPOSURE_SAMPLES + 0.5).astype(np.uint8)
        else:
            img = cv2.remap(img, map_x + np.float32(dx), map_y + np.float32(dy), cv2.INTER_LINEAR)
        img = cv2.GaussianBlur(img, (0, 0), self.spec.blur_sigma)
        flicker = 1.0 + self._flicker[0] * math.sin(2 * math.pi * self._flicker[1] * t + self._flicker[2])
        ae = min(1.0, max(0.0, (t - self._exposure_at) / 0.4))
        flicker *= 1.0 + (self.spec.exposure_change - 1.0) * ae * ae * (3 - 2 * ae)
        light = self._light
        if self.spec.rolling_flicker > 0:
            period, freq, phase = self._rolling
            rows = np.arange(HEIGHT, dtype=np.float32)
            band = 1.0 + self.spec.rolling_flicker * np.sin(2 * math.pi * (rows / period - freq * t) + phase)
            light = light * band[:, None, None].astype(np.float32)
        img = cv2.multiply(img, light, scale=flicker, dtype=cv2.CV_8U)
        ox, oy = self._noise_rng.integers(0, NOISE_MARGIN, 2)
        img = cv2.add(img, self._noise_bank[oy:oy + HEIGHT, ox:ox + WIDTH], dtype=cv2.CV_8U)
        ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, self.spec.jpeg_quality])
        decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else None
        if decoded is None:
            raise RuntimeError("OpenCV could not encode and decode a rendered frame as JPEG")
        return np.asarray(decoded)


# ----------------------------------------------------------------------------- clips

@dataclass
class Clip:
    """A rendered clip: what the judge may read (``info`` and ``frames``) and the ground truth."""

    spec: ClipSpec
    scene: Scene

    @property
    def info(self) -> dict[str, int]:
        return {"fps": self.spec.fps, "seats": self.spec.seats, "thrower": self.spec.thrower}

    @property
    def truth(self) -> Truth:
        return self.scene.truth()

    def frames(self) -> Iterator[np.ndarray]:
        for i in range(self.scene.frame_count):
            yield self.scene.render(i)


def render_clip(spec: ClipSpec) -> Clip:
    return Clip(spec, Scene(spec))


def write_clip(clip: Clip, folder: Path, video: bool = False) -> Path:
    """Writes ``clip.json``, the frames (``frames/NNNNNN.png`` or ``video.avi``) and ``truth.json``."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "clip.json").write_text(json.dumps(clip.info) + "\n")
    spec = asdict(clip.spec)
    spec["scenario"] = clip.spec.scenario.value
    spec["hand"] = clip.spec.hand.value
    spec["rest"] = clip.spec.rest.value
    (folder / "truth.json").write_text(json.dumps({**clip.truth.as_json(), "spec": spec}, indent=1) + "\n")
    write_frames(folder, clip.frames(), fps=clip.spec.fps, size=(WIDTH, HEIGHT), video=video)
    return folder


def still_scene(spec: ClipSpec) -> np.ndarray:
    """The first frame of a clip: the table at rest, for calibration."""
    return Scene(spec).render(0)


__all__ = [
    "CONDITIONS",
    "EDGE_TALL_CM",
    "HARD_TAGS",
    "Clip",
    "ClipSpec",
    "HandMove",
    "Scenario",
    "Scene",
    "StarRest",
    "Truth",
    "clip_set",
    "condition_set",
    "is_hard",
    "standee_position",
    "upright_crowns",
    "random_spec",
    "render_clip",
    "still_scene",
    "variation_tags",
    "write_clip",
]
