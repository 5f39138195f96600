"""A second, independent renderer of camera clips, written from table-conventions.md and the clip format alone.

It shares no code with `vision/`: the scene is built in 3-D (centimetres, table plane z = 0) and filmed by a
pinhole camera with lens distortion (cv2.projectPoints for every point the ground truth and the checks need).
Frames are formed as the ideal pinhole image, supersampled twice, then bent by the lens (a remap computed from
cv2.undistortPoints), shaken, lit, blurred by motion over the exposure, given sensor noise and JPEG-compressed.
Hard clips add what changes while a clip runs: the auto-exposure reacting and settling, a lamp's flicker read by a
rolling shutter (bands moving down the frame), a camera vibrating at 5-60 Hz while that shutter reads its rows (each
row shifted by where the camera was then, and smeared over its exposure), a slow drift of the camera on a shake up to 2 px, a camera tilted up
to 25 degrees, and over-bright light whose highlights clip and bleed. Options draw what a table and a webcam give
beside: frames of any size from 320x240 to 1920x1080 (`size`), throws filmed at 15-120 frames a second (`fps`),
loot cards and banknotes lying on the table (`things`), and the clip written as a motion-JPEG or MPEG-4 video.

Two kinds of clip:

- throws (`throw_scene`): a foam star flies in 3-D from the thrower's hand toward a target; it knocks a standee
  (the standee topples about an edge of its base and lies flat in about 0.2 s), touches it (the standee rocks a
  few degrees and back, sometimes slides a little), or misses and comes to rest on the table, between standees or
  on a crown. `truth.json`: `{"knocked": [...], "touched": [...], "conditions": [...]}`.
- aims (`aim_scene`): every player raises a foam gun (or a tanto) carrying marker 30 + seat on a card on top, its
  top edge towards the muzzle, and comes to rest on a target around the count's "3"; some are late, some never
  point (and with `turn_after`, some turn onto another seat after the deadline: their aim is the first).
  `truth.json`: `{"aims": {"0": 3, "1": null}, "late": [...], "conditions": [...]}`; the target is the seat whose
  standee lies closest to the line of fire on the table plane, checked on the rendered pose.

Run by hand: `python bench/independent_clips.py OUT --throws 6 --aims 4 --seed 1 [--video MJPG|XVID]`.
"""

from __future__ import annotations

import argparse
import json
import math
import shutil
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

DICT = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
SUPER = 1  # supersampling of the ideal image (textures are mipmapped and edges antialiased without it)
G = 981.0  # cm/s^2
Vec = np.ndarray
Colour = tuple[float, float, float]  # BGR, 0-255


def colour_of(bgr: Vec) -> Colour:
    return float(bgr[0]), float(bgr[1]), float(bgr[2])


# ----------------------------------------------------------------------------------------------- geometry


def cross(a: Vec, b: Vec) -> Vec:
    return np.array([a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]])


def unit(v: Vec) -> Vec:
    return np.asarray(v, float) / float(np.linalg.norm(v))


def rot_axis(axis: Vec, angle: float) -> Vec:
    """Rotation matrix about a unit axis (radians)."""
    r, _ = cv2.Rodrigues(unit(axis) * angle)
    return np.asarray(r)


def rot_z(angle: float) -> Vec:
    return rot_axis(np.array([0.0, 0.0, 1.0]), angle)


@dataclass
class Camera:
    width: int
    height: int
    K: Vec
    dist: Vec
    rvec: Vec
    tvec: Vec
    centre: Vec  # camera position in the world

    @property
    def R(self) -> Vec:
        return np.asarray(cv2.Rodrigues(self.rvec)[0])

    def project(self, pts: Vec, distorted: bool = True) -> Vec:
        """World points (N, 3) to pixels (N, 2), through the lens when `distorted`."""
        pts = np.asarray(pts, float).reshape(-1, 1, 3)
        d = self.dist if distorted else np.zeros(5)
        out, _ = cv2.projectPoints(pts, self.rvec, self.tvec, self.K, d)
        return out.reshape(-1, 2)

    def depth(self, pts: Vec) -> Vec:
        p = np.asarray(pts, float).reshape(-1, 3)
        return np.asarray((p @ self.R.T + self.tvec.reshape(1, 3))[:, 2])


def make_camera(rng: np.random.Generator, width: int, height: int, height_cm: float, tilt_deg: float,
                hfov_deg: float, k1: float, look_at: Vec) -> Camera:
    tilt = math.radians(tilt_deg)
    phi = rng.uniform(0, 2 * math.pi)
    offset = np.array([math.cos(phi), math.sin(phi), 0.0]) * height_cm * math.tan(tilt)
    centre = look_at + offset + np.array([0.0, 0.0, height_cm])
    f = unit(look_at - centre)
    yaw = rng.uniform(0, 2 * math.pi)
    up = np.array([math.cos(yaw), math.sin(yaw), 0.0])
    up = unit(up - up.dot(f) * f)
    y_cam = -up
    x_cam = cross(y_cam, f)
    R = np.vstack([x_cam, y_cam, f])
    rvec = cv2.Rodrigues(R)[0].reshape(3)
    tvec = -R @ centre
    fx = (width / 2) / math.tan(math.radians(hfov_deg) / 2)
    K = np.array([[fx, 0, width / 2 + rng.uniform(-6, 6)], [0, fx * rng.uniform(0.995, 1.005),
                                                            height / 2 + rng.uniform(-6, 6)], [0, 0, 1]])
    dist = np.array([k1, -0.3 * k1 * rng.uniform(0, 1), rng.uniform(-5e-4, 5e-4), rng.uniform(-5e-4, 5e-4), 0.0])
    return Camera(width, height, K, dist, rvec, tvec, centre)


# ----------------------------------------------------------------------------------------------- textures


def marker_card(marker_id: int, marker_cm: float, card_cm: float, px_per_cm: float = 30.0,
                paper: int = 242, ink: int = 28, back: bool = False) -> Vec:
    """A printed marker card: the black-bordered marker of `marker_cm` centred on white paper of `card_cm`."""
    side = round(card_cm * px_per_cm)
    card = np.full((side, side, 3), paper, np.uint8)
    if back:
        return card
    m = round(marker_cm * px_per_cm)
    img = cv2.aruco.generateImageMarker(DICT, marker_id, m)
    img = np.where(img > 127, paper, ink).astype(np.uint8)
    o = (side - m) // 2
    card[o:o + m, o:o + m] = img[:, :, None]
    return card


def noise_texture(rng: np.random.Generator, h: int, w: int, base: Vec, amp: float, grain: bool) -> Vec:
    small = rng.normal(0, 1, (max(2, h // 16), max(2, w // 16), 1)).astype(np.float32)
    low = cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)[..., None]
    fine = rng.normal(0, 0.35, (h, w, 1)).astype(np.float32)
    tex = low * 0.6 + fine
    if grain:  # wood: streaks along x
        streak = rng.normal(0, 1, (h, 1, 1)).astype(np.float32)
        streak = np.asarray(cv2.GaussianBlur(streak, (1, 5), 0), np.float32).reshape(h, 1, 1)
        tex = tex + np.float32(1.4) * np.repeat(streak, w, axis=1)
    out = np.asarray(base, np.float32).reshape(1, 1, 3) + amp * tex
    return np.clip(out, 0, 255).astype(np.uint8)


def character_art(rng: np.random.Generator, w: int = 140, h: int = 280) -> Vec:
    """The printed front of a standee: a figure on a coloured background."""
    bg = rng.uniform(60, 220, 3)
    img = np.empty((h, w, 3), np.uint8)
    img[:] = bg.astype(np.uint8)
    cv2.ellipse(img, (w // 2, int(h * 0.25)), (w // 6, h // 11), 0, 0, 360, tuple(int(c) for c in rng.uniform(90, 230, 3)), -1)
    body = np.array([[w * 0.25, h * 0.37], [w * 0.75, h * 0.37], [w * 0.85, h * 0.98], [w * 0.15, h * 0.98]], np.int32)
    cv2.fillPoly(img, [body], tuple(int(c) for c in rng.uniform(10, 120, 3)))
    cv2.rectangle(img, (0, 0), (w - 1, h - 1), (20, 20, 20), 4)
    return img


# ----------------------------------------------------------------------------------------------- scene parts


@dataclass
class Quad:
    """A flat textured rectangle: corners in texture order top-left, top-right, bottom-right, bottom-left."""
    corners: Vec  # (4, 3)
    front: Vec
    back: Vec | None = None  # None: same texture seen from behind (mirrored, as paper printed through)
    shade_ok: bool = True
    outward: bool = False  # a face of a closed box: not drawn when it faces away from the camera
    nearer: float = 0.0  # drawn as if this much nearer (cm): a card lying on top of the part it is fixed to


@dataclass
class Poly:
    """A flat filled polygon (arms, hands, weapons, the star)."""
    points: Vec  # (N, 3)
    colour: tuple[float, float, float]
    blur_samples: list[Vec] | None = None  # positions over the exposure, for the star
    nearer: float = 0.0  # drawn as if this much nearer (cm)


def flat_card(centre: Vec, up: Vec, size: float, tex: Vec, back: Vec | None = None, normal: Vec | None = None) -> Quad:
    """A square card centred at `centre`, its printed top towards `up`, readable from the `normal` side."""
    n = unit(normal if normal is not None else np.array([0.0, 0.0, 1.0]))
    u = unit(up - up.dot(n) * n)
    right = cross(u, n)  # seen from the normal side, image right
    h = size / 2
    c = np.array([centre + u * h - right * h, centre + u * h + right * h,
                  centre - u * h + right * h, centre - u * h - right * h])
    return Quad(c, tex, back)


def box_quads(centre: Vec, axes: Vec, half: Vec, tex: Vec) -> list[Quad]:
    """The six faces of a box (axes: rows are unit x, y, z of the box)."""
    out = []
    for i in range(3):
        for s in (-1, 1):
            n = axes[i] * s
            a, b = [axes[j] * half[j] for j in range(3) if j != i]
            c = centre + n * half[i]
            q = np.array([c - a + b, c + a + b, c + a - b, c - a - b])
            if cross(q[3] - q[0], q[1] - q[0]).dot(n) < 0:
                q = q[[1, 0, 3, 2]]
            out.append(Quad(q, tex, tex, outward=True))
    return out


@dataclass
class Standee:
    seat: int
    pos: Vec  # base centre on the table
    inward: Vec  # unit, horizontal, towards the play area's centre
    height: float
    width: float
    crown_up: Vec
    base_up: Vec
    art: Vec
    back_tex: Vec
    base_tex: Vec
    crown_tex: Vec
    crown_back: Vec
    base_card: Vec
    base_h: float = 1.6
    base_depth: float = 3.2
    base_width: float = 8.0
    # motion: a function of time giving (hinge sign, angle rad, slide vector, twist rad)
    motion: Callable[[float], tuple[int, float, Vec, float]] | None = None

    @property
    def right(self) -> Vec:
        return cross(self.inward, np.array([0.0, 0.0, 1.0]))

    def base_marker_centre(self) -> Vec:
        return self.pos + self.inward * (self.base_depth / 2 + 0.6 + 1.95)

    def pose(self, t: float) -> tuple[Vec, Vec]:
        """Rotation and translation taking the upright standee's points to where they are at `t`."""
        if self.motion is None:
            return np.eye(3), np.zeros(3)
        sign, angle, slide, twist = self.motion(t)
        Rt = rot_axis(np.array([0.0, 0.0, 1.0]), twist)
        # hinge: the base's back (sign +1, falling outwards) or front (sign -1, falling inwards) bottom edge
        hinge = self.pos - sign * self.inward * self.base_depth / 2
        Rh = rot_axis(self.right, sign * angle)
        # p' = Rt (Rh (p - hinge) + hinge - pos) + pos + slide
        R = Rt @ Rh
        tr = Rt @ (hinge - Rh @ hinge - self.pos) + self.pos + slide
        return R, tr

    def parts(self, t: float) -> list[Quad]:
        R, tr = self.pose(t)
        z = np.array([0.0, 0.0, 1.0])
        n, r = self.inward, self.right
        top = self.base_h + self.height
        card_corners = np.array([self.pos - r * self.width / 2 + z * top, self.pos + r * self.width / 2 + z * top,
                                 self.pos + r * self.width / 2 + z * self.base_h,
                                 self.pos - r * self.width / 2 + z * self.base_h])
        # seen from the centre the art reads left to right: its texture right is -r
        card_corners = card_corners[[1, 0, 3, 2]]
        quads = [Quad(card_corners, self.art, self.back_tex)]
        quads += box_quads(self.pos + z * self.base_h / 2, np.array([r, n, z]),
                           np.array([self.base_width / 2, self.base_depth / 2, self.base_h / 2]), self.base_tex)
        crown = flat_card(self.pos + z * (top + 0.15), self.crown_up, 5.2, self.crown_tex, self.crown_back)
        quads.append(crown)
        out = []
        for q in quads:
            out.append(Quad(q.corners @ R.T + tr, q.front, q.back, q.shade_ok, q.outward))
        return out

    def crown_normal(self, t: float) -> Vec:
        R, _ = self.pose(t)
        return np.asarray(R @ np.array([0.0, 0.0, 1.0]))

    def crown_centre(self, t: float) -> Vec:
        R, tr = self.pose(t)
        return np.asarray(R @ (self.pos + np.array([0, 0, self.base_h + self.height + 0.15])) + tr)

    def card_rect(self) -> tuple[Vec, Vec, Vec, float, float]:
        """Upright card as centre, in-plane unit axes and half sizes (for collisions)."""
        z = np.array([0.0, 0.0, 1.0])
        c = self.pos + z * (self.base_h + self.height / 2)
        return c, self.right, z, self.width / 2, self.height / 2 + self.base_h / 2


def dist_to_rect(p: Vec, c: Vec, a: Vec, b: Vec, ha: float, hb: float) -> float:
    d = p - c
    u = float(np.clip(d.dot(a), -ha, ha))
    v = float(np.clip(d.dot(b), -hb, hb))
    return float(np.linalg.norm(d - a * u - b * v))


# ----------------------------------------------------------------------------------------------- rendering


@dataclass
class Look:
    """How the clip is filmed (light, sensor, compression)."""
    brightness: float = 1.0
    gradient: float = 0.1
    gradient_dir: float = 0.0
    vignette: float = 0.2
    tint: tuple[float, float, float] = (1.0, 1.0, 1.0)
    noise: float = 2.0
    jpeg: int = 85
    exposure: float = 1 / 120
    shake_px: float = 0.0
    flicker: float = 0.0
    lamp: Vec = field(default_factory=lambda: np.array([20.0, 30.0, 180.0]))
    shadow: float = 0.35
    defocus: float = 0.0
    # auto-exposure reacting mid-clip: the gain moves by `ae_step` (a fraction, either way) over `ae_rise` s from
    # `ae_at` s, then settles over `ae_settle` s to `ae_keep` of that step
    ae_step: float = 0.0
    ae_at: float = 0.0
    ae_rise: float = 0.3
    ae_settle: float = 0.6
    ae_keep: float = 0.5
    # rolling flicker: a lamp at `lamp_hz` (twice the mains) read by a rolling shutter of `readout` s per frame:
    # horizontal bands of +-`bands` of the light, moving from frame to frame
    bands: float = 0.0
    lamp_hz: float = 100.0
    readout: float = 0.025
    band_phase: float = 0.0
    # slow drift of the whole view (the table bumped, a clamp settling): the image moves by `drift` px (x, y)
    # along a smooth step from `drift_at` s over `drift_for` s
    drift: tuple[float, float] = (0.0, 0.0)
    drift_at: float = 0.0
    drift_for: float = 1.0
    # over-bright: the highlights clip and bleed into what is next to them (sensor bloom)
    bloom: float = 0.0
    # a camera vibrating (a lamp arm, a bumped table) by `vibration_px` at `vibration_hz` while the rolling shutter
    # reads its rows over `readout` s: each row shifted by where the camera was when it was read (x, and 0.7 of it
    # along y, each with its own phase)
    vibration_px: float = 0.0
    vibration_hz: float = 0.0
    vibration_phase: tuple[float, float] = (0.0, 0.0)


class Renderer:
    def __init__(self, cam: Camera, look: Look, rng: np.random.Generator) -> None:
        self.cam, self.look, self.rng = cam, look, rng
        w, h = cam.width, cam.height
        # the ideal (undistorted) image each output pixel looks at
        ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
        pts = np.stack([xs.ravel(), ys.ravel()], axis=1).reshape(-1, 1, 2)
        und = cv2.undistortPoints(pts, cam.K, cam.dist).reshape(-1, 2)
        K = cam.K
        ix = und[:, 0] * K[0, 0] + K[0, 2]
        iy = und[:, 1] * K[1, 1] + K[1, 2]
        self.mx = math.ceil(max(0.0, -ix.min(), ix.max() - w)) + 4
        self.my = math.ceil(max(0.0, -iy.min(), iy.max() - h)) + 4
        self.map_x = (ix + self.mx).reshape(h, w).astype(np.float32)
        self.map_y = (iy + self.my).reshape(h, w).astype(np.float32)
        self.iw, self.ih = w + 2 * self.mx, h + 2 * self.my
        Ks = K.copy()
        Ks[0, 2] += self.mx
        Ks[1, 2] += self.my
        Ks[:2] *= SUPER
        Ks[0, 2] += (SUPER - 1) / 2
        Ks[1, 2] += (SUPER - 1) / 2
        self.Ks = Ks
        self.sw, self.sh = self.iw * SUPER, self.ih * SUPER
        # light field (gradient, vignette, tint)
        gx = (xs - w / 2) / w
        gy = (ys - h / 2) / h
        d = look.gradient_dir
        field_ = 1 + look.gradient * (gx * math.cos(d) + gy * math.sin(d)) * 2
        field_ *= 1 - look.vignette * (gx ** 2 + gy ** 2) * 2
        self.light = (field_[..., None] * np.array(look.tint, np.float32).reshape(1, 1, 3)).astype(np.float32)
        self.static: Vec | None = None
        self.shake = np.zeros(2)
        self.rows = ys[:, :1, None]  # the row of each pixel, for the rolling shutter
        self.mips: dict[int, list[Vec]] = {}
        self.keep: list[Vec] = []
        self.noise_bank = [rng.normal(0, 1, (h + 40, w + 40, 3)).astype(np.float32) for _ in range(3)]

    def mip(self, tex: Vec, side_px: float) -> Vec:
        """The texture shrunk (by halves) to no less than the size it is drawn at, so warping does not alias."""
        levels = self.mips.get(id(tex))
        if levels is None:
            levels = [tex]
            while min(levels[-1].shape[:2]) > 8:
                levels.append(cv2.pyrDown(levels[-1]))
            self.mips[id(tex)] = levels
            self.keep.append(tex)
        best = levels[0]
        for lv in levels:
            if max(lv.shape[:2]) >= side_px * 1.2:
                best = lv
        return best

    # -- projection into the supersampled ideal canvas
    def to_canvas(self, pts: Vec) -> Vec:
        p = np.asarray(pts, float).reshape(-1, 1, 3)
        out, _ = cv2.projectPoints(p, self.cam.rvec, self.cam.tvec, self.Ks, np.zeros(5))
        return out.reshape(-1, 2)

    def shade(self, q: Quad) -> tuple[Vec, float]:
        c = q.corners
        n = unit(cross(c[3] - c[0], c[1] - c[0]))  # front normal (texture seen non-mirrored)
        centre = c.mean(axis=0)
        to_cam = self.cam.centre - centre
        front = n.dot(to_cam) > 0
        tex = q.front if front or q.back is None else q.back
        nn = n if front else -n
        to_lamp = unit(self.look.lamp - centre)
        lam = 0.55 + 0.5 * max(0.0, float(nn.dot(to_lamp)))
        return tex, lam if q.shade_ok else 1.0

    def draw_quad(self, img: Vec, q: Quad) -> None:
        if (self.cam.depth(q.corners) < 1).any():
            return
        tex, lam = self.shade(q)
        c = q.corners
        n = cross(c[3] - c[0], c[1] - c[0])
        front = n.dot(self.cam.centre - c.mean(axis=0)) > 0
        if q.outward and not front:
            return
        dst = self.to_canvas(c).astype(np.float32)
        if not front:
            dst = dst[[1, 0, 3, 2]]  # seen from behind: the back, or the print seen through
        side = max(float(np.linalg.norm(dst[1] - dst[0])), float(np.linalg.norm(dst[3] - dst[0])), 1.0)
        tex = self.mip(tex, side)
        th, tw = tex.shape[:2]
        src = np.array([[0, 0], [tw - 1, 0], [tw - 1, th - 1], [0, th - 1]], np.float32)
        x0, y0 = np.floor(dst.min(axis=0)).astype(int) - 1
        x1, y1 = np.ceil(dst.max(axis=0)).astype(int) + 2
        x0, y0 = max(x0, 0), max(y0, 0)
        x1, y1 = min(x1, img.shape[1]), min(y1, img.shape[0])
        if x1 <= x0 or y1 <= y0:
            return
        H = cv2.getPerspectiveTransform(src, dst - np.array([x0, y0], np.float32))
        size = (x1 - x0, y1 - y0)
        warped = cv2.warpPerspective(tex, H, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        mask = np.zeros((size[1], size[0]), np.uint8)
        cv2.fillConvexPoly(mask, np.round((dst - [x0, y0]) * 16).astype(np.int32), 255, cv2.LINE_AA, 4)
        roi = img[y0:y1, x0:x1]
        a = (mask.astype(np.float32) / 255.0)[..., None]
        roi[:] = (roi * (1 - a) + warped.astype(np.float32) * lam * a)

    def draw_poly(self, img: Vec, p: Poly) -> None:
        samples = p.blur_samples if p.blur_samples else [p.points]
        if any((self.cam.depth(s) < 1).any() for s in samples):
            return
        pts2 = [self.to_canvas(s) for s in samples]
        allp = np.concatenate(pts2)
        x0, y0 = np.floor(allp.min(axis=0)).astype(int) - 2
        x1, y1 = np.ceil(allp.max(axis=0)).astype(int) + 3
        x0, y0 = max(x0, 0), max(y0, 0)
        x1, y1 = min(x1, img.shape[1]), min(y1, img.shape[0])
        if x1 <= x0 or y1 <= y0:
            return
        acc = np.zeros((y1 - y0, x1 - x0), np.float32)
        for q in pts2:
            m = np.zeros_like(acc, dtype=np.uint8)
            cv2.fillPoly(m, [np.round((q - [x0, y0]) * 16).astype(np.int32)], 255, cv2.LINE_AA, 4)
            acc += m
        a = (acc / (255.0 * len(pts2)))[..., None]
        roi = img[y0:y1, x0:x1]
        roi[:] = roi * (1 - a) + np.array(p.colour, np.float32).reshape(1, 1, 3) * a

    def shadow_mask(self, polys: list[Vec]) -> Vec:
        """Soft shadows on the table (z = 0) of the given 3-D outlines, cast by the lamp, at 1/4 canvas size."""
        sc = 4
        mask = np.zeros((self.sh // sc, self.sw // sc), np.float32)
        L = self.look.lamp
        for pts in polys:
            pts = np.asarray(pts, float)
            z = np.clip(pts[:, 2], 0, L[2] - 1)
            s = L + (pts - L) * (L[2] / (L[2] - z))[:, None]
            s[:, 2] = 0.0
            if (self.cam.depth(s) < 1).any():
                continue
            q = self.to_canvas(s) / sc
            hull = cv2.convexHull(np.round(q * 16).astype(np.int32))
            cv2.fillConvexPoly(mask, hull, 1.0, cv2.LINE_AA, 4)
        return mask

    def bbox(self, pts: Vec) -> tuple[float, float, float, float]:
        q = self.to_canvas(pts)
        return float(q[:, 0].min()), float(q[:, 1].min()), float(q[:, 0].max()), float(q[:, 1].max())

    def bake_static(self, flats: list[Quad], table: Quad, floor_colour: Vec, shadows: list[Vec],
                    still: list[list[Quad]]) -> None:
        """The layer that does not change: floor, table, flat cards, the shadows and the parts of still standees."""
        img = np.empty((self.sh, self.sw, 3), np.float32)
        img[:] = floor_colour
        self.draw_quad(img, table)
        for q in flats:
            self.draw_quad(img, q)
        self.apply_shadows(img, shadows)
        parts = [q for g in still for q in g]
        for q in sorted(parts, key=self.depth_of, reverse=True):
            self.draw_quad(img, q)
        self.static = img
        self.still = [(self.bbox(np.concatenate([q.corners for q in g])), g) for g in still]

    def depth_of(self, it: Quad | Poly) -> float:
        """Painter's order: depth along the optical axis of the part's centre."""
        pts = it.corners if isinstance(it, Quad) else it.points
        return float(self.cam.depth(pts.mean(axis=0)[None])[0]) - it.nearer

    def apply_shadows(self, img: Vec, polys: list[Vec]) -> None:
        if not polys:
            return
        m = self.shadow_mask(polys)
        ys, xs = np.nonzero(m)
        if len(xs) == 0:
            return
        k = 9
        x0, y0 = max(xs.min() - 2 * k, 0), max(ys.min() - 2 * k, 0)
        x1, y1 = min(xs.max() + 2 * k, m.shape[1]), min(ys.max() + 2 * k, m.shape[0])
        sub = cv2.GaussianBlur(m[y0:y1, x0:x1], (0, 0), 2.5)
        big = cv2.resize(sub, ((x1 - x0) * 4, (y1 - y0) * 4), interpolation=cv2.INTER_LINEAR)
        roi = img[y0 * 4:y0 * 4 + big.shape[0], x0 * 4:x0 * 4 + big.shape[1]]
        big = big[:roi.shape[0], :roi.shape[1]]
        roi *= (1 - self.look.shadow * np.clip(big, 0, 1))[..., None]

    def ideal(self, shadows: list[Vec], items: list[Quad | Poly]) -> Vec:
        """The ideal pinhole image: the static layer, the moving shadows, then every moving thing far to near
        (with the still standees they overlap drawn again, so that nearer still things stay in front)."""
        assert self.static is not None
        img = self.static.copy()
        self.apply_shadows(img, shadows)
        boxes = []
        for it in items:
            pts = it.corners if isinstance(it, Quad) else np.concatenate(it.blur_samples or [it.points])
            if (self.cam.depth(pts) > 1).all():
                boxes.append(self.bbox(pts))
        for sh in shadows:
            boxes.append((0, 0, 0, 0) if len(sh) == 0 else self.bbox(np.c_[sh[:, :2], np.zeros(len(sh))]))
        todo = list(items)
        for (x0, y0, x1, y1), group in self.still:
            if any(x0 < b[2] + 30 and b[0] - 30 < x1 and y0 < b[3] + 30 and b[1] - 30 < y1 for b in boxes):
                todo += group
        for it in sorted(todo, key=self.depth_of, reverse=True):
            if isinstance(it, Quad):
                self.draw_quad(img, it)
            else:
                self.draw_poly(img, it)
        return img

    def drift_at(self, t: float) -> Vec:
        """How far the slow drift has moved the image at time t (pixels, x and y)."""
        lk = self.look
        k = min(1.0, max(0.0, (t - lk.drift_at) / max(1e-6, lk.drift_for)))
        return np.array(lk.drift, float) * (k * k * (3 - 2 * k))

    def exposure_gain(self, t: float) -> float:
        """The auto-exposure's gain at time t (1 before it reacts)."""
        lk = self.look
        if lk.ae_step == 0 or t <= lk.ae_at:
            return 1.0
        if t < lk.ae_at + lk.ae_rise:
            k = (t - lk.ae_at) / lk.ae_rise
            return 1 + lk.ae_step * (0.5 - 0.5 * math.cos(math.pi * k))
        k = min(1.0, (t - lk.ae_at - lk.ae_rise) / lk.ae_settle)
        return 1 + lk.ae_step * (1 - (1 - lk.ae_keep) * (0.5 - 0.5 * math.cos(math.pi * k)))

    def band_gain(self, t: float) -> Vec:
        """The rolling flicker's light on each row at time t (rows x 1 x 1): each row is read `readout / height`
        later than the one above it, under a lamp whose light swings at `lamp_hz`."""
        lk = self.look
        row_t = t + self.rows * (lk.readout / self.cam.height)
        return np.asarray((1 + lk.bands * np.sin(2 * math.pi * lk.lamp_hz * row_t + lk.band_phase)).astype(np.float32))

    def row_shift(self, t: float, axis: int) -> Vec:
        """Each row's shift along x (``axis`` 0) or y (1) by the camera's vibration as the rolling shutter reads
        it, px, (height, 1); zero without a vibration."""
        lk = self.look
        if lk.vibration_px <= 0:
            return np.zeros((1, 1), np.float32)
        row_t = t + self.rows[:, :, 0] * (lk.readout / self.cam.height)
        share = 1.0 if axis == 0 else 0.7
        phase = 2 * math.pi * lk.vibration_hz * row_t + lk.vibration_phase[axis]
        return np.asarray((share * lk.vibration_px * np.sin(phase)).astype(np.float32))

    def finish(self, ideal: Vec, t: float) -> Vec:
        """Lens, shake and drift, light (flicker, bands, auto-exposure), bloom, noise and JPEG: the ideal
        supersampled image to the camera's frame."""
        lk = self.look
        small = cv2.resize(ideal, (self.iw, self.ih), interpolation=cv2.INTER_AREA)
        if lk.defocus > 0:
            small = cv2.GaussianBlur(small, (0, 0), lk.defocus)
        if lk.shake_px > 0:
            self.shake = 0.6 * self.shake + self.rng.normal(0, lk.shake_px * 0.8, 2)
            self.shake = np.clip(self.shake, -lk.shake_px, lk.shake_px)
        move = self.drift_at(t)  # the image moves by +move: each pixel looks at what was -move away
        # a vibrating camera moves during each row's exposure: its picture there is the mean of four moments of it
        moments = [t - lk.exposure * k / 3 for k in range(4)] if lk.vibration_px > 0 else [t]
        img = sum(cv2.remap(small, self.map_x + (self.row_shift(m, 0) + np.float32(self.shake[0] - move[0])),
                            self.map_y + (self.row_shift(m, 1) + np.float32(self.shake[1] - move[1])),
                            cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
                  for m in moments) / len(moments)
        flick = 1 + lk.flicker * math.sin(2 * math.pi * 10 * t)  # 50 Hz lamp beating with the frame rate
        img = img * self.light * (lk.brightness * flick * self.exposure_gain(t))
        if lk.bands > 0:
            img = img * self.band_gain(t)
        if lk.bloom > 0:  # light past the sensor's full well spills into the pixels around it
            over = cv2.GaussianBlur(np.maximum(img - 255, 0).max(axis=2), (0, 0), 2.5)
            img = img + lk.bloom * over[..., None]
        gain = min(4.0, max(1.0, 0.85 / lk.brightness))
        shot = np.sqrt(np.clip(img, 0, 255) * 0.08 + lk.noise ** 2)
        bank = self.noise_bank[int(self.rng.integers(len(self.noise_bank)))]
        ox, oy = self.rng.integers(0, 40, 2)
        img = (img + bank[oy:oy + img.shape[0], ox:ox + img.shape[1]] * shot) * gain
        out = np.clip(img, 0, 255).astype(np.uint8)
        _, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(lk.jpeg)])
        frame = cv2.imdecode(buf, cv2.IMREAD_COLOR)
        assert frame is not None
        return frame


# ----------------------------------------------------------------------------------------------- the table


@dataclass
class Table:
    width: float
    depth: float
    standees: list[Standee]
    corner_cards: list[Quad]
    base_cards: list[Quad]
    table_quad: Quad
    floor: Vec
    things: list[Quad] = field(default_factory=list)  # loot cards and banknotes lying on the table


def seat_positions(rng: np.random.Generator, seats: int, W: float, D: float, inset: float) -> list[tuple[Vec, Vec]]:
    """Base centres clockwise (seen from above) starting with seat 0 on the near long edge, and inward normals."""
    hw, hd = W / 2 - inset, D / 2 - inset
    keep = 8.0  # away from the corner markers
    # clockwise from above: near edge (y = -hd) right to left, left edge upwards, far edge left to right, right edge down
    edges = [(np.array([hw - keep, -hd]), np.array([-hw + keep, -hd]), np.array([0, 1.0])),
             (np.array([-hw, -hd + keep]), np.array([-hw, hd - keep]), np.array([1.0, 0])),
             (np.array([-hw + keep, hd]), np.array([hw - keep, hd]), np.array([0, -1.0])),
             (np.array([hw, hd - keep]), np.array([hw, -hd + keep]), np.array([-1.0, 0]))]
    lengths = [float(np.linalg.norm(b - a)) for a, b, _ in edges]
    total = sum(lengths)
    start = lengths[0] / 2 + rng.uniform(-0.15, 0.15) * lengths[0]
    out = []
    step = total / seats
    for i in range(seats):
        s = (start + i * step + rng.uniform(-0.08, 0.08) * step) % total
        for (a, b, n), ln in zip(edges, lengths):
            if s <= ln:
                p = a + (b - a) * (s / ln)
                inward = np.array([n[0], n[1], 0.0])
                ang = rng.uniform(-0.25, 0.25)
                inward = rot_z(ang) @ inward
                out.append((np.array([p[0], p[1], 0.0]), inward))
                break
            s -= ln
    return out


def build_table(rng: np.random.Generator, seats: int, cam_height: float, hard: bool = False,
                tilt: float | None = None, size: tuple[int, int] = (640, 480)) -> tuple[Table, Camera, float]:
    """A table, its standees and a camera that sees all of it, set up as calibration asks: every base marker at
    least 15 px across (else the player would bring the camera closer). Returns the table, camera and HFOV.
    Hard clips may tilt the camera up to 25 degrees; `tilt` sets it. `size`: the frames' width and height (px)."""
    narrow = 0.0
    if tilt is None and hard and rng.random() < 0.35:
        tilt = float(rng.uniform(20, 25))
    for n in range(60):
        table, cam, hfov = _build_table(rng, seats, cam_height, narrow, tilt, size)
        smallest = min(_projected_side(cam, q) for q in table.base_cards)
        hidden = _hidden_flat_markers(cam, table)
        if tilt is not None and tilt > 20:  # so steep a view hides some base markers behind the near standees
            hidden = [i for i in hidden if i < 4]
        if smallest >= 15.0 and not hidden:
            return table, cam, hfov
        if smallest < 15.0:  # the player brings the camera closer, or zooms in
            cam_height = max(60.0, cam_height - 4)
            narrow = min(24.0, narrow + 3)
        if tilt is not None and n >= 8:  # and, that not being enough, tilts it less
            tilt = max(0.0, tilt - 1.0)
    raise RuntimeError("no camera set-up shows every base marker large enough")


def camera_tilt(cam: Camera) -> float:
    """Degrees between the camera's axis and straight down."""
    return math.degrees(math.acos(min(1.0, -float(cam.R[2, 2]))))


def _hidden_flat_markers(cam: Camera, table: Table) -> list[int]:
    """Flat cards (corner, base) that an upright standee hides from this camera (index in corners + bases)."""
    hidden = []
    solids = [cam.project(q.corners).astype(np.float32) for st in table.standees for q in st.parts(0)
              if not np.allclose(q.corners[:, 2], 0)]
    for i, q in enumerate(table.corner_cards + table.base_cards):
        card = cam.project(q.corners).astype(np.float32)
        for sol in solids:
            hull = cv2.convexHull(sol)
            area, _ = cv2.intersectConvexConvex(card, hull)
            if area > 1.0:
                hidden.append(i)
                break
    return hidden


def _projected_side(cam: Camera, q: Quad) -> float:
    c = q.corners
    centre = c.mean(axis=0)
    # the printed marker is 3/3.9 of its card
    px = cam.project(centre + (c - centre) * (3.0 / 3.9))
    return float(min(np.linalg.norm(px[(i + 1) % 4] - px[i]) for i in range(4)))


def _build_table(rng: np.random.Generator, seats: int, cam_height: float,
                 narrow: float = 0.0, tilt_deg: float | None = None,
                 size: tuple[int, int] = (640, 480)) -> tuple[Table, Camera, float]:
    aspect = rng.uniform(1.15, 1.6)
    tilt = rng.uniform(0, 20) if rng.random() < 0.8 else rng.uniform(0, 5)
    if tilt_deg is not None:
        tilt = tilt_deg
    k1 = -rng.uniform(0, 0.15) if rng.random() < 0.85 else rng.uniform(0, 0.06)
    hfov = max(50.0, rng.uniform(56, 80) - narrow)  # webcams: about 50-80 degrees across
    look_at = np.array([rng.uniform(-3, 3), rng.uniform(-3, 3), 0.0])
    margin = rng.uniform(8, 35)  # pixels between the outermost standee or corner and the image border
    cam_seed = int(rng.integers(1 << 30))
    inset = rng.uniform(6, 9)
    while True:
        cam = make_camera(np.random.default_rng(cam_seed), size[0], size[1], cam_height, tilt, hfov, k1, look_at)

        def fits(W: float, cam: Camera = cam, margin: float = margin) -> bool:
            D = W / aspect
            pts = []
            for sx in (-1, 1):
                for sy in (-1, 1):
                    pts.append([sx * W / 2, sy * D / 2, 0])
                    pts.append([sx * (W / 2 - 6), sy * (D / 2 - 6), 17])
            for x in np.linspace(-1, 1, 5):
                pts.append([x * (W / 2 - inset), D / 2 - inset, 17])
                pts.append([x * (W / 2 - inset), -D / 2 + inset, 17])
            for y in np.linspace(-1, 1, 5):
                pts.append([W / 2 - inset, y * (D / 2 - inset), 17])
                pts.append([-W / 2 + inset, y * (D / 2 - inset), 17])
            if (cam.depth(np.array(pts, float)) < 5).any():
                return False
            px = cam.project(np.array(pts, float))
            return bool((px[:, 0] > margin).all() and (px[:, 0] < size[0] - margin).all()
                        and (px[:, 1] > margin).all() and (px[:, 1] < size[1] - margin).all())
        lo, hi = 20.0, 300.0  # the largest play area the camera sees whole (a player sets the camera up so)
        for _ in range(30):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if fits(mid) else (lo, mid)
        W = lo
        D = W / aspect
        # room for every seat along the edges (a player with a small view raises the camera or widens it)
        usable = 2 * (W - 2 * inset - 16) + 2 * (D - 2 * inset - 16)
        if min(W, D) - 2 * inset - 16 > 4 and usable / seats >= 12:
            break
        if hfov < 80:
            hfov = min(80.0, hfov + 3)
        elif cam_height < 100:
            cam_height = min(100.0, cam_height + 5)
        elif margin > 8:  # a wide frame's narrow height: the player frames the table closer to its borders
            margin = max(8.0, margin - 6)
        elif tilt > 10:  # and points the camera more nearly straight down
            tilt -= 3
        else:
            raise RuntimeError("the table does not fit the camera's view")
    paper = int(rng.integers(225, 252))
    ink = int(rng.integers(15, 45))
    corners = [np.array([-W / 2, -D / 2, 0]), np.array([-W / 2, D / 2, 0]), np.array([W / 2, D / 2, 0]),
               np.array([W / 2, -D / 2, 0])]
    corner_cards = []
    for i, c in enumerate(corners):
        inside = -unit(c) * 3.5 * math.sqrt(2)
        up = rot_z(rng.uniform(-0.3, 0.3)) @ unit(-c)
        corner_cards.append(flat_card(c + inside + np.array([0, 0, 0.03]), up, 6.4,
                                      marker_card(i, 5.0, 6.4, paper=paper, ink=ink)))
    standees = []
    base_cards = []
    for seat, (pos, inward) in enumerate(seat_positions(rng, seats, W, D, inset)):
        crown_up = rot_z(rng.uniform(-0.3, 0.3)) @ inward
        base_up = rot_z(rng.uniform(-0.3, 0.3)) @ inward
        st = Standee(seat=seat, pos=pos, inward=inward, height=rng.uniform(12, 15), width=rng.uniform(6.5, 7.5),
                     crown_up=crown_up, base_up=base_up, art=character_art(rng),
                     back_tex=noise_texture(rng, 60, 30, rng.uniform(70, 160, 3), 6, False),
                     base_tex=noise_texture(rng, 20, 40, rng.uniform(20, 90, 3), 5, False),
                     crown_tex=marker_card(10 + seat, 4.0, 5.2, paper=paper, ink=ink),
                     crown_back=noise_texture(rng, 30, 30, np.array([paper] * 3, float), 3, False),
                     base_card=marker_card(20 + seat, 3.0, 3.9, paper=paper, ink=ink))
        standees.append(st)
        base_cards.append(flat_card(st.base_marker_centre() + np.array([0, 0, 0.03]), base_up, 3.9, st.base_card))
    kind = rng.integers(3)
    colour = [np.array([40, 80, 130]), np.array([50, 110, 40]), np.array([120, 120, 125])][int(kind)]
    colour = colour + rng.uniform(-25, 25, 3)
    tw, td = W + rng.uniform(12, 40), D + rng.uniform(12, 40)
    tex = noise_texture(rng, int(td * 5), int(tw * 5), colour, 9 if kind == 0 else 5, kind == 0)
    tq = Quad(np.array([[-tw / 2, td / 2, 0], [tw / 2, td / 2, 0], [tw / 2, -td / 2, 0], [-tw / 2, -td / 2, 0]]), tex)
    floor = rng.uniform(15, 60, 3).astype(np.float32)
    return Table(W, D, standees, corner_cards, base_cards, tq, floor), cam, float(hfov)


def loot_card_texture(rng: np.random.Generator) -> Vec:
    """A loot card's printed face (63 x 88 mm at 2 px a mm): art framed in white, a value in a corner."""
    card = np.full((176, 126, 3), int(rng.integers(225, 250)), np.uint8)
    card[8:-8, 8:-8] = character_art(rng, 110, 160)
    value = str(int(rng.choice([5, 10, 20])) * 1000)
    cv2.putText(card, value, (12, 166), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (20, 20, 20), 2, cv2.LINE_AA)
    return card


def banknote_texture(rng: np.random.Generator) -> Vec:
    """A banknote's face (140 x 66 mm at 2 px a mm): a tinted, printed paper with its value."""
    base = rng.choice([[150, 190, 160], [170, 200, 220], [200, 180, 200], [150, 170, 200]]) + rng.uniform(-15, 15, 3)
    note = noise_texture(rng, 132, 280, base, 8, False)
    ink = tuple(int(c) for c in rng.uniform(20, 90, 3))
    cv2.rectangle(note, (8, 8), (271, 123), ink, 2)
    cv2.ellipse(note, (200, 66), (40, 44), 0, 0, 360, ink, 2)
    cv2.putText(note, str(int(rng.choice([5, 10, 20])) * 1000), (20, 80), cv2.FONT_HERSHEY_SIMPLEX, 1.3, ink, 3,
                cv2.LINE_AA)
    return note


def flat_rect(centre: Vec, angle: float, w: float, h: float, tex: Vec) -> Quad:
    """A w x h cm card lying flat at `centre`, turned by `angle` (radians) on the table."""
    c, s = math.cos(angle), math.sin(angle)
    right, up = np.array([c, s, 0.0]), np.array([-s, c, 0.0])
    return Quad(np.array([centre + up * h / 2 - right * w / 2, centre + up * h / 2 + right * w / 2,
                          centre - up * h / 2 + right * w / 2, centre - up * h / 2 - right * w / 2]), tex)


def lay_things(rng: np.random.Generator, table: Table) -> list[Quad]:
    """Loot cards face up in the middle of the table and banknotes before the seats, as at a game in play: never
    over a marker card, a standee's base or another thing (each a player tidies so)."""
    def footprint(q: Quad, margin: float) -> Vec:
        c = q.corners[:, :2]
        centre = c.mean(axis=0)
        grown = centre + (c - centre) * (1 + margin / max(1e-3, float(np.linalg.norm(c[0] - centre))))
        return np.asarray(grown * 10, np.float32)

    taken = [footprint(q, 1.5) for q in table.corner_cards + table.base_cards]
    for st in table.standees:
        base = flat_rect(st.pos, math.atan2(st.inward[1], st.inward[0]) - math.pi / 2, st.width + 3, 6.0,
                         np.zeros((2, 2, 3), np.uint8))
        taken.append(footprint(base, 1.5))
    things: list[Quad] = []

    def lay(place: Callable[[], Vec], w: float, h: float, tex: Vec) -> None:
        for _ in range(12):  # a few places tried, the first clear one taken
            centre = place()
            q = flat_rect(np.array([centre[0], centre[1], 0.02 + 0.01 * len(things)]),
                          float(rng.uniform(-math.pi, math.pi)), w, h, tex)
            fp = footprint(q, 0.5)
            if all(cv2.intersectConvexConvex(fp, t)[0] <= 0 for t in taken):
                things.append(q)
                taken.append(fp)
                return

    W, D = table.width, table.depth
    for _ in range(int(rng.integers(4, 9))):  # the round's loot, face up in the middle
        lay(lambda: np.array([rng.uniform(-0.32, 0.32) * W, rng.uniform(-0.32, 0.32) * D]), 6.3, 8.8,
            loot_card_texture(rng))
    for st in table.standees:  # a player's winnings before the seat
        def before(st: Standee = st) -> Vec:
            return np.asarray((st.pos + st.inward * rng.uniform(9, 18) + st.right * rng.uniform(-8, 8))[:2])
        for _ in range(int(rng.integers(0, 3))):
            lay(before, 14.0, 6.6, banknote_texture(rng))
    return things


# ----------------------------------------------------------------------------------------------- people


def arm_polys(shoulder: Vec, hand: Vec, skin: tuple[float, float, float], sleeve: tuple[float, float, float],
              cam_centre: Vec, hand_len: float = 10.0) -> list[Poly]:
    """An arm as a sleeve, a forearm and a hand, each a flat strip turned towards the camera."""
    out: list[Poly] = []
    d = hand - shoulder
    L = float(np.linalg.norm(d))
    if L < 1e-6:
        return out
    a = d / L
    view = unit(cam_centre - (shoulder + hand) / 2)
    side = cross(a, view)
    side = unit(side) if np.linalg.norm(side) > 1e-6 else np.array([1.0, 0, 0])
    elbow = shoulder + d * 0.55
    elbow[2] = max(elbow[2], min(shoulder[2], 22.0))  # over the standees (crowns up to 17 cm), not through them
    for p, q, wp, wq, col in ((shoulder, elbow, 10, 8, sleeve), (elbow, hand - a * 3, 7, 6, skin)):
        # in short pieces, so that each is put in depth order where it passes (over or under a crown)
        for k in range(3):
            p1, q1 = p + (q - p) * (k / 3), p + (q - p) * ((k + 1) / 3)
            w1, w2 = wp + (wq - wp) * (k / 3), wp + (wq - wp) * ((k + 1) / 3)
            out.append(Poly(np.array([p1 - side * w1 / 2, p1 + side * w1 / 2, q1 + side * w2 / 2,
                                      q1 - side * w2 / 2]), col, nearer=3.0))
    # the hand: an octagon, longer along the arm
    ang = np.linspace(0, 2 * math.pi, 10, endpoint=False)
    hc = hand
    pts = np.array([hc + a * math.cos(t) * hand_len / 2 + side * math.sin(t) * 4.0 for t in ang])
    out.append(Poly(pts, skin, nearer=3.0))
    return out


def blurred(make: Callable[[float], list[Poly]], t: float, exposure: float) -> list[Poly]:
    """Polygons smeared over the exposure: the same outlines at three instants."""
    at = [make(t + d) for d in (-exposure / 2, 0.0, exposure / 2)]
    if not all(len(a) == len(at[1]) for a in at):
        return at[1]
    return [Poly(p.points, p.colour, [a[i].points for a in at], p.nearer) for i, p in enumerate(at[1])]


SKINS = [(170, 200, 235), (130, 165, 210), (90, 125, 175), (60, 85, 125), (45, 60, 90)]


# ----------------------------------------------------------------------------------------------- throws


OUTCOMES = ("knock", "touch", "miss_table", "miss_between", "miss_crown", "knock_ricochet")


@dataclass
class ThrowPlan:
    seats: int
    thrower: int
    outcome: str  # one of OUTCOMES
    hard: bool
    seed: int


def star_outline(points: int, r_out: float, r_in: float) -> Vec:
    ang = np.arange(points * 2) * math.pi / points
    rad = np.where(np.arange(points * 2) % 2 == 0, r_out, r_in)
    return np.stack([np.cos(ang) * rad, np.sin(ang) * rad, np.zeros_like(ang)], axis=1)


@dataclass
class Flight:
    """The star's centre as a function of time, and what it hits."""
    times: list[float]
    fn: Callable[[float], Vec]
    rest_t: float
    hits: list[tuple[int, float, Vec]]  # (seat, time, velocity)


def ballistic(p0: Vec, p1: Vec, T: float) -> Callable[[float], Vec]:
    g = np.array([0, 0, -G])
    v0 = (p1 - p0 - 0.5 * g * T * T) / T

    def f(t: float) -> Vec:
        return np.asarray(p0 + v0 * t + 0.5 * g * t * t)
    return f


def ballistic_v(p0: Vec, p1: Vec, T: float, t: float) -> Vec:
    g = np.array([0, 0, -G])
    v0 = (p1 - p0 - 0.5 * g * T * T) / T
    return np.asarray(v0 + g * t)


def plan_flight(rng: np.random.Generator, table: Table, thrower: int, outcome: str, t_rel: float,
                release: Vec, target: int | None = None,
                crown_offset: float = 0.0) -> tuple[Flight, list[int], list[int]] | None:
    """A physically consistent flight for the planned outcome, or None if this draw collides where it must not.
    `target` sets the seat aimed at; `crown_offset` (cm) lands a star on a crown that far from its centre, in a
    direction drawn at random (its centre still over the card, so it rests there)."""
    sts = table.standees
    n = len(sts)
    others = [s for s in range(n) if s != thrower]
    drawn = int(rng.choice(others))
    target = drawn if target is None else target
    st = sts[target]
    segs: list[tuple[float, float, Callable[[float], Vec]]] = []  # (t0, t1, f(local t))
    hits: list[tuple[int, float, Vec]] = []
    knocked: list[int] = []
    touched: list[int] = []
    speed = rng.uniform(300, 750)
    on_crown = False
    if outcome in ("knock", "touch", "knock_ricochet"):
        # a point on the card face the star comes from
        c, a, b, ha, hb = st.card_rect()
        side = 1 if (release - c).dot(st.inward) > 0 else -1
        u = rng.uniform(-0.6, 0.6) * ha
        v = (rng.uniform(0.0, 0.7) if outcome != "touch" else rng.uniform(-0.75, 0.1)) * hb
        impact = c + a * u + b * v + st.inward * side * 1.5
    elif outcome == "miss_crown":
        impact = st.crown_centre(0) + np.array([0, 0, 0.7])
        if crown_offset > 0:
            ang = rng.uniform(0, 2 * math.pi)
            impact = impact + np.array([math.cos(ang), math.sin(ang), 0.0]) * crown_offset
        on_crown = True
    elif outcome == "miss_between":
        j = (target + 1) % n if (target + 1) % n != thrower else (target - 1) % n
        mid = (sts[target].pos + sts[j].pos) / 2
        mid = mid + rng.uniform(-3, 3) * unit(sts[target].pos - sts[j].pos)
        impact = mid + np.array([0, 0, 0.9])
    else:  # miss_table: somewhere on the open table
        ang = rng.uniform(0, 2 * math.pi)
        impact = np.array([math.cos(ang) * table.width * 0.25, math.sin(ang) * table.depth * 0.25, 0.9])
    dist = float(np.linalg.norm(impact - release))
    T1 = dist / speed
    if outcome.startswith("miss") and not on_crown:
        T1 *= 1.1
    f1 = ballistic(release, impact, T1)
    segs.append((t_rel, t_rel + T1, f1))
    t = t_rel + T1
    vin = ballistic_v(release, impact, T1, T1)
    pos = impact
    if outcome in ("knock", "touch", "knock_ricochet"):
        hits.append((target, t, vin))
        (knocked if outcome != "touch" else touched).append(target)
        vn = vin.dot(st.inward) * st.inward
        vout = (vin - vn) * rng.uniform(0.2, 0.5) - vn * rng.uniform(0.15, 0.35)
        if outcome == "knock_ricochet":
            # on to a neighbour of the target, which it touches
            nb = [s for s in ((target + 1) % n, (target - 1) % n) if s != thrower]
            if not nb:
                return None
            j = int(rng.choice(nb))
            c2, a2, b2, ha2, hb2 = sts[j].card_rect()
            side2 = 1 if (pos - c2).dot(sts[j].inward) > 0 else -1
            imp2 = c2 + a2 * rng.uniform(-0.4, 0.4) * ha2 + b2 * rng.uniform(-0.5, 0.2) * hb2 + sts[j].inward * side2 * 1.5
            T2 = float(np.linalg.norm(imp2 - pos)) / max(120.0, float(np.linalg.norm(vout)) + 100)
            segs.append((t, t + T2, ballistic(pos, imp2, T2)))
            t += T2
            vin2 = ballistic_v(pos, imp2, T2, T2)
            hits.append((j, t, vin2))
            touched.append(j)
            pos = imp2
            vn = vin2.dot(sts[j].inward) * sts[j].inward
            vout = (vin2 - vn) * 0.3 - vn * 0.2
        # drop to the table
        z0 = pos[2] - 0.9
        vz = vout[2]
        Td = (vz + math.sqrt(vz * vz + 2 * G * z0)) / G
        land = pos + vout * Td
        land[2] = 0.9
        segs.append((t, t + Td, ballistic(pos, land, Td)))
        t += Td
        pos = land
        vslide = np.array([vout[0], vout[1], 0.0]) * 0.4
    elif on_crown:
        vslide = np.zeros(3)
    else:
        vslide = np.array([vin[0], vin[1], 0.0]) * rng.uniform(0.15, 0.35)
    # slide to rest with friction
    sp = float(np.linalg.norm(vslide))
    if sp > 1e-3:
        mu_g = rng.uniform(250, 500)
        Ts = sp / mu_g
        d = vslide / sp
        p0 = pos.copy()

        def slide(tl: float, p0: Vec = p0, d: Vec = d, sp: float = sp, mu_g: float = mu_g) -> Vec:
            tl = min(tl, sp / mu_g)
            return p0 + d * (sp * tl - 0.5 * mu_g * tl * tl)
        # stop short of any standee's base (a bump there would be a touch)
        end = slide(Ts)
        for s2 in sts:
            if float(np.linalg.norm((end - s2.pos)[:2])) < 7.5:
                Ts *= 0.4
                break
        segs.append((t, t + Ts, slide))
        t += Ts
    rest_t = t
    # hold before the release: in the hand
    def fn(tt: float) -> Vec:
        if tt <= segs[0][0]:
            return release
        for t0, t1, f in segs:
            if tt <= t1:
                return f(tt - t0)
        t0, t1, f = segs[-1]
        return f(t1 - t0)
    # check: the flight must not pass through standees it does not hit (nor their crowns), clearance 3.5 cm
    hit_seats = {h[0] for h in hits}
    if on_crown:
        hit_seats.add(target)
    for tt in np.linspace(t_rel, rest_t, 140):
        p = fn(tt)
        for s2 in sts:
            if s2.seat in hit_seats:
                continue
            if s2.seat == thrower and tt < t_rel + 0.12:
                continue
            c, a, b, ha, hb = s2.card_rect()
            if dist_to_rect(p, c, a, b, ha, hb) < 3.5:
                return None
            cc = s2.crown_centre(0)
            if float(np.linalg.norm(p - cc)) < 5.0:
                return None
    # before hitting, the star must not pass through the hit standee elsewhere
    return Flight([t_rel, rest_t], fn, rest_t, hits), knocked, touched


def standee_motion(rng: np.random.Generator, st: Standee, t_hit: float, v: Vec, knock: bool,
                   hard: bool) -> Callable[[float], tuple[int, float, Vec, float]]:
    push = float(v.dot(st.inward))
    sign = 1 if push < 0 else -1  # pushed outwards: falls over its back edge
    if abs(push) < 0.25 * float(np.linalg.norm(v[:2])) and rng.random() < 0.5:
        sign = -sign
    if knock:
        T = rng.uniform(0.15, 0.3)
        delay = rng.uniform(0.0, 0.03)
        twist_end = rng.uniform(-0.25, 0.25)
        bounce = rng.uniform(0.03, 0.1)

        def m(t: float) -> tuple[int, float, Vec, float]:
            tl = t - t_hit - delay
            if tl <= 0:
                return sign, 0.0, np.zeros(3), 0.0
            x = min(1.0, tl / T)
            ang = (math.pi / 2) * x * x
            if tl > T:  # a small bounce on landing
                ang = math.pi / 2 - bounce * abs(math.sin((tl - T) * 25)) * math.exp(-(tl - T) * 12)
            return sign, ang, np.zeros(3), twist_end * x
        return m
    amp = math.radians(rng.uniform(1.5, 3.0) if hard else rng.uniform(3.0, 10.0))
    freq = rng.uniform(2.5, 5.0)
    tau = rng.uniform(0.12, 0.3)
    slide = np.zeros(3)
    twist = 0.0
    if rng.random() < 0.35:  # pushed a little on the table as well
        d = unit(np.array([v[0], v[1], 0.0]))
        slide = d * rng.uniform(0.5, 2.0)
        twist = rng.uniform(-0.08, 0.08)

    def m2(t: float) -> tuple[int, float, Vec, float]:
        tl = t - t_hit
        if tl <= 0:
            return sign, 0.0, np.zeros(3), 0.0
        osc = amp * math.exp(-tl / tau) * math.sin(2 * math.pi * freq * tl)
        s = sign if osc >= 0 else -sign
        k = min(1.0, tl / 0.06)
        return s, abs(osc), slide * k, twist * k
    return m2


LOOK_KINDS = ("dim", "bright", "over-bright", "jpeg", "blur", "mixed")


def vibrate(look: Look, tags: list[str], rng: np.random.Generator) -> None:
    """A hard clip's camera, a third of the time, vibrating while its rolling shutter reads the rows (drawn from a
    generator of its own: the clips drawn before it came stay as they were)."""
    if rng.random() >= 1 / 3:
        return
    look.vibration_px = rng.uniform(0.5, 2.0)
    look.vibration_hz = rng.uniform(5.0, 60.0)  # a lamp arm's sway to a mount ringing after the throw's bump
    look.vibration_phase = (rng.uniform(0, 2 * math.pi), rng.uniform(0, 2 * math.pi))
    if look.bands == 0:
        look.readout = rng.uniform(0.015, 0.032)
    tags.append("rolling-shake")


def random_look(rng: np.random.Generator, hard: bool, kind: str | None = None) -> tuple[Look, list[str]]:
    """The light and the camera's flaws; a hard clip draws one of LOOK_KINDS unless `kind` sets it."""
    tags = []
    lk = Look()
    if hard:
        drawn = str(rng.choice(list(LOOK_KINDS)))
        kind = drawn if kind is None else kind
    else:
        kind = "clean"
    lk.brightness = rng.uniform(0.75, 1.1)
    lk.gradient = rng.uniform(0, 0.15)
    lk.gradient_dir = rng.uniform(0, 2 * math.pi)
    lk.vignette = rng.uniform(0.05, 0.25)
    lk.tint = tuple(rng.uniform(0.9, 1.08, 3))
    lk.noise = rng.uniform(1, 3)
    lk.jpeg = int(rng.integers(70, 91))
    lk.exposure = rng.uniform(1 / 250, 1 / 100)
    lk.shake_px = rng.uniform(0, 0.5)
    lk.lamp = np.array([rng.uniform(-60, 60), rng.uniform(-60, 60), rng.uniform(130, 220)])
    lk.shadow = rng.uniform(0.15, 0.4)
    if kind in ("dim", "mixed"):
        lk.brightness = rng.uniform(0.3, 0.5)
        lk.noise = rng.uniform(3, 6)
        lk.exposure = rng.uniform(1 / 60, 1 / 40)
        lk.flicker = rng.uniform(0.01, 0.04)
        tags.append("dim")
    if kind == "bright":
        lk.brightness = rng.uniform(1.25, 1.45)
        lk.gradient = rng.uniform(0.2, 0.35)
        tags.append("bright+gradient")
    if kind == "over-bright":  # paper and lit standees clip, and bleed into the print next to them
        lk.brightness = rng.uniform(1.5, 1.8)
        lk.gradient = rng.uniform(0.1, 0.25)
        lk.bloom = rng.uniform(0.15, 0.35)
        tags.append("over-bright")
    if kind in ("jpeg", "mixed"):
        lk.jpeg = int(rng.integers(40, 55))
        tags.append("jpeg40-55")
    if kind in ("blur", "mixed"):
        lk.exposure = max(lk.exposure, rng.uniform(1 / 50, 1 / 35))
        lk.defocus = rng.uniform(0.6, 1.1)
        lk.shake_px = rng.uniform(0.8, 1.5)
        tags.append("blur+shake")
    if hard:  # what changes while the clip runs, mixed with the kinds above
        if rng.random() < 0.4:  # the camera's gain reacting (an arm entering the view), then settling
            lk.ae_step = rng.uniform(0.1, 0.3) * rng.choice([-1, 1])
            lk.ae_at = rng.uniform(0.2, 1.6)
            lk.ae_rise = rng.uniform(0.2, 0.5)
            lk.ae_settle = rng.uniform(0.4, 1.0)
            lk.ae_keep = rng.uniform(0.2, 0.8)
            tags.append("auto-exposure")
        if rng.random() < 0.4:  # a 50 or 60 Hz lamp under a rolling shutter
            lk.bands = rng.uniform(0.02, 0.08)
            mains = 50.0 if rng.random() < 0.7 else 60.0
            lk.lamp_hz = 2 * mains * (1 + rng.uniform(-0.003, 0.003))  # the camera's clock is not the mains'
            lk.readout = rng.uniform(0.015, 0.032)
            lk.band_phase = rng.uniform(0, 2 * math.pi)
            tags.append("rolling-flicker")
        if rng.random() < 0.4:  # the table bumped or a clamp settling, on top of a shake up to 2 px
            ang = rng.uniform(0, 2 * math.pi)
            size = rng.uniform(1, 4)
            lk.drift = (size * math.cos(ang), size * math.sin(ang))
            lk.drift_at = rng.uniform(0.0, 1.5)
            lk.drift_for = rng.uniform(0.3, 2.0)
            lk.shake_px = max(lk.shake_px, rng.uniform(1.0, 2.0))
            tags.append("drift+shake2px")
    if not tags:
        tags.append("clean")
    return lk, tags


@dataclass
class Scene:
    """A renderable clip: times, a function giving the items at a time, the truth."""
    fps: int
    duration: float
    meta: dict[str, Any]
    truth: dict[str, Any]
    renderer: Renderer
    table: Table
    frame_items: Callable[[float], tuple[list[Vec], list[Quad | Poly]]]
    probes: dict[str, Any] = field(default_factory=dict)  # for the self-checks: star position, weapon poses
    start: float = 0.0  # the scene's time of the clip's first frame (a clip cut to start late)

    def frame(self, i: int) -> Vec:
        t = self.start + i / self.fps
        sh, items = self.frame_items(t)
        return self.renderer.finish(self.renderer.ideal(sh, items), t)

    @property
    def n_frames(self) -> int:
        return round((self.duration - self.start) * self.fps)


def edge_seat(cam: Camera, table: Table, thrower: int) -> int:
    """The seat (not the thrower's) whose standing crown the camera sees nearest its image's border."""
    def margin(st: Standee) -> float:
        x, y = cam.project(st.crown_centre(0)[None, :])[0]
        return float(min(x, cam.width - x, y, cam.height - y))
    return min((st for st in table.standees if st.seat != thrower), key=margin).seat


def throw_scene(seed: int, hard: bool, outcome: str | None = None, look: str | None = None,
                tilt: float | None = None, target: str | None = None, crown_offset: float = 0.0,
                fps: int = 60, size: tuple[int, int] = (640, 480), things: bool = False) -> Scene:
    """A throw clip drawn from `seed`. The options force what is drawn otherwise, to stress one case: the
    `outcome` (one of OUTCOMES), the `look` of a hard clip (one of LOOK_KINDS), the camera's `tilt` (degrees from
    straight down; lowered, as `build_table` does, when so steep a view hides base markers), `target="edge"`: the
    seat aimed at is the one whose crown is seen nearest the image's border, and `crown_offset`: a star on a crown
    lands that many cm off its centre (at most 2.4: its centre stays over the 5.2 cm card). `fps`: the camera's frame
    rate (the scene is drawn from `seed` the same at any rate, only sampled at another; a webcam gives 15-60);
    `size`: the frames' width and height (px; the camera set up for them as calibration asks); `things`: loot cards
    and banknotes lie on the table (drawn from `seed` apart: the clip is otherwise the one drawn without them)."""
    if outcome is not None and outcome not in OUTCOMES:
        raise ValueError(f"outcome {outcome!r}: not one of {', '.join(OUTCOMES)}")
    if look is not None and look not in LOOK_KINDS:
        raise ValueError(f"look {look!r}: not one of {', '.join(LOOK_KINDS)}")
    if target not in (None, "edge"):
        raise ValueError(f"target {target!r}: only 'edge' is known")
    if not 0.0 <= crown_offset <= 2.4:
        raise ValueError(f"crown_offset {crown_offset} cm: a star's centre off the crown card does not rest there")
    if not 15 <= fps <= 120:
        raise ValueError(f"fps {fps}: a webcam films a throw at 15-120 frames a second")
    rng = np.random.default_rng(seed)
    seats = int(rng.integers(6, 10))  # throws belong to the Yakuzas expansion: 6-9 players
    cam_h = rng.uniform(60, 100)
    table, cam, hfov = build_table(rng, seats, cam_h, hard, tilt, size)
    lk, tags = random_look(rng, hard, look)
    if hard:
        vibrate(lk, tags, np.random.default_rng([seed, 11]))
    if camera_tilt(cam) > 20:
        tags.append("tilt20-25")
    if things:
        table.things = lay_things(np.random.default_rng([seed, 7]), table)
        tags.append("things")
    renderer = Renderer(cam, lk, rng)
    thrower = int(rng.integers(seats))
    drawn = str(rng.choice(["knock", "knock", "touch", "touch", "knock_ricochet", "miss_table", "miss_between",
                            "miss_crown"], p=[0.2, 0.1, 0.2, 0.05, 0.1, 0.15, 0.12, 0.08]))
    outcome = drawn if outcome is None else outcome
    aimed = edge_seat(cam, table, thrower) if target == "edge" else None
    t_rel = rng.uniform(0.5, 0.9)
    ts = table.standees[thrower]
    for _ in range(60):
        release = ts.pos - ts.inward * rng.uniform(-2, 12) + ts.right * rng.uniform(-8, 8)
        release = release + np.array([0, 0, rng.uniform(20, 34)])
        planned = plan_flight(rng, table, thrower, outcome, t_rel, release, aimed, crown_offset)
        if planned is not None:
            break
    else:
        raise RuntimeError(f"seed {seed}: no clear flight for {outcome}")
    flight, knocked, touched = planned
    for seat, th, v in flight.hits:
        table.standees[seat].motion = standee_motion(rng, table.standees[seat], th, v, seat in knocked, hard)
    moving = {h[0] for h in flight.hits}
    end = max(flight.rest_t, max((h[1] for h in flight.hits), default=0) + 0.5) + rng.uniform(0.8, 1.1)
    # the thrower's arm: wind-up, release, follow-through, out of the view again
    shoulder = ts.pos - ts.inward * rng.uniform(30, 40) + ts.right * rng.uniform(-12, 12) + np.array([0, 0, 38.0])
    skin = SKINS[int(rng.integers(len(SKINS)))]
    sleeve = colour_of(rng.uniform(20, 200, 3))
    aim_dir = unit(flight.fn(t_rel + 0.05) - release)

    def thrower_hand(t: float) -> Vec | None:
        t_in, t_out = t_rel - rng_arm[0], t_rel + rng_arm[1]
        if t < t_in or t > t_out:
            return None
        back = release - aim_dir * 14 + np.array([0, 0, 3])
        follow = release + aim_dir * 12 - np.array([0, 0, 6])
        if t < t_rel - 0.12:
            k = (t - t_in) / max(1e-3, (t_rel - 0.12 - t_in))
            return np.asarray(shoulder + (back - shoulder) * (0.5 - 0.5 * math.cos(math.pi * k)))
        if t < t_rel:
            k = (t - (t_rel - 0.12)) / 0.12
            return np.asarray(back + (release - back) * k * k)
        k = (t - t_rel) / (t_out - t_rel)
        if k < 0.4:
            return np.asarray(release + (follow - release) * (k / 0.4))
        return np.asarray(follow + (shoulder - follow) * ((k - 0.4) / 0.6))
    rng_arm = (min(rng.uniform(0.35, 0.6), t_rel - 0.2), rng.uniform(0.35, 0.7))  # the table alone at first
    # other hands over seats (hard clips, sometimes): a player reaching in before the throw or after it settled
    extra: list[tuple[float, float, Vec, Vec, Colour, Colour]] = []
    if rng.random() < (0.5 if hard else 0.12):
        who = int(rng.integers(seats))
        st = table.standees[who]
        sh2 = st.pos - st.inward * 35 + np.array([0, 0, 40.0])
        reach = st.pos + st.inward * rng.uniform(0, 12) + st.right * rng.uniform(-6, 6) + np.array([0, 0, rng.uniform(22, 30)])
        if rng.random() < 0.5:
            t0 = rng.uniform(0.1, max(0.15, t_rel - 0.5))
        else:
            t0 = flight.rest_t + rng.uniform(0.4, 0.7)
        extra.append((t0, t0 + rng.uniform(0.4, 0.8), sh2, reach, SKINS[int(rng.integers(len(SKINS)))],
                      colour_of(rng.uniform(20, 200, 3))))
        tags.append("hand-over-seat")
        end = max(end, t0 + 1.5)
    points = int(rng.choice([4, 4, 4, 6, 8]))
    outline = star_outline(points, rng.uniform(2.8, 3.2), rng.uniform(0.9, 1.3))
    colour = tuple(float(c) for c in [[40, 40, 220], [30, 200, 230], [40, 170, 40], [220, 120, 30], [180, 60, 200],
                                      [30, 130, 250], [30, 30, 30]][int(rng.integers(7))])
    spin = rng.uniform(15, 40) * rng.choice([-1, 1])
    tilt_axis = unit(rng.normal(0, 1, 3))
    tilt_ang = rng.uniform(0, 0.5)

    def star_pts(t: float) -> Vec:
        p = flight.fn(t)
        if t < t_rel:  # still in the thrower's hand (out of the view before the hand comes in)
            h = thrower_hand(t)
            p = h if h is not None else shoulder
        tf = min(max(t - t_rel, 0.0), flight.rest_t - t_rel)
        ang = spin * tf * (1 - 0.5 * tf / max(1e-3, flight.rest_t - t_rel))
        flying = t_rel < t < flight.rest_t and p[2] > 1.5
        R = rot_z(ang) @ (rot_axis(tilt_axis, tilt_ang) if flying else np.eye(3))
        return np.asarray(outline @ R.T + p)

    static_seats = [s for s in table.standees if s.seat not in moving]

    def items(t: float) -> tuple[list[Vec], list[Quad | Poly]]:
        its: list[Quad | Poly] = []
        shadows: list[Vec] = []
        for st in table.standees:
            if st.seat in moving:
                parts = st.parts(t)
                its += parts
                shadows.append(parts[0].corners)

        def arms(tt: float) -> list[Poly]:
            out: list[Poly] = []
            h = thrower_hand(tt)
            if h is not None:
                out += arm_polys(shoulder, h, skin, sleeve, cam.centre)
            for t0, t1, sh2, reach, sk, sl in extra:
                if t0 <= tt <= t1:
                    k = math.sin(math.pi * (tt - t0) / (t1 - t0))
                    out += arm_polys(sh2, sh2 + (reach - sh2) * min(1.0, 1.6 * k), sk, sl, cam.centre)
            return out
        arm = blurred(arms, t, lk.exposure)
        its += arm
        shadows += [p.points for p in arm]
        # the star, blurred over the exposure
        e = lk.exposure
        samples = [star_pts(t + d) for d in np.linspace(-e / 2, e / 2, 6)]
        its.append(Poly(samples[0], colour, samples))  # type: ignore[arg-type]
        shadows.append(samples[len(samples) // 2])
        return shadows, its

    # bake the flats, the still standees and their shadows into the static layer
    renderer.bake_static(table.things + table.corner_cards + table.base_cards, table.table_quad, table.floor,
                         [s.parts(0)[0].corners for s in static_seats], [s.parts(0) for s in static_seats])

    if outcome == "miss_crown":
        tags.append("star-on-crown")
    if outcome == "knock_ricochet":
        tags.append("two-hit")
    if any(table.standees[s].motion is not None for s in touched) and hard:
        tags.append("light-touch")
    if fps != 60:
        tags.append(f"{fps}fps")
    if size != (640, 480):
        tags.append(f"{size[0]}x{size[1]}")
    tags.append(f"{seats}-seats")
    truth = {"knocked": sorted(knocked), "touched": sorted(touched), "outcome": outcome, "conditions": tags,
             "hard": hard, "thrower": thrower, "camera_cm": round(float(cam.centre[2]), 1), "hfov_deg": hfov,
             "tilt_deg": round(camera_tilt(cam), 1),
             "table_cm": [round(table.width, 1), round(table.depth, 1)], "seed": seed}
    meta = {"fps": fps, "seats": seats, "thrower": thrower}
    return Scene(fps, end, meta, truth, renderer, table, items, {"star": flight.fn, "rest_t": flight.rest_t})


# ----------------------------------------------------------------------------------------------- aims


def gun_parts(pos: Vec, yaw: float, pitch: float, seat: int, tanto: bool, body: Colour, paper: int, ink: int,
              card_tex: Vec, roll: float = 0.0) -> tuple[list[Quad | Poly], Vec]:
    """A foam gun (or a tanto) at `pos` (the marker card's centre), pointing along yaw/pitch, canted by `roll`
    (radians, about its own axis, clockwise seen from behind); returns parts and muzzle."""
    f = np.array([math.cos(yaw) * math.cos(pitch), math.sin(yaw) * math.cos(pitch), -math.sin(pitch)])
    rt0 = unit(cross(f, np.array([0.0, 0.0, 1.0])))  # to the right seen from above
    up0 = cross(rt0, f)
    rt = rt0 * math.cos(roll) - up0 * math.sin(roll)
    up = up0 * math.cos(roll) + rt0 * math.sin(roll)
    parts: list[Quad | Poly] = []
    dark = colour_of(np.array(body) * 0.7)
    if tanto:
        blade = [pos + f * 3, pos + f * 22 + rt * 0.0, pos + f * 19 + rt * 1.5, pos + f * 3 + rt * 1.5]
        blade = [p - rt * 0.75 - up * 0.5 for p in blade]
        parts.append(Poly(np.array(blade), (200, 200, 205)))
        parts.append(Poly(np.array([pos - f * 9 - rt * 2 - up * 0.6, pos + f * 3 - rt * 2 - up * 0.6,
                                    pos + f * 3 + rt * 2 - up * 0.6, pos - f * 9 + rt * 2 - up * 0.6]), dark))
        muzzle = pos + f * 22
    else:
        # barrel and body (top face just under the card), grip hanging down at the back
        parts.append(Poly(np.array([pos - f * 6 - rt * 1.8 - up * 0.4, pos + f * 13 - rt * 1.5 - up * 0.4,
                                    pos + f * 13 + rt * 1.5 - up * 0.4, pos - f * 6 + rt * 1.8 - up * 0.4]), body))
        parts.append(Poly(np.array([pos - f * 6 - rt * 1.6 - up * 6, pos - f * 2 - rt * 1.6 - up * 6,
                                    pos - f * 1 - rt * 1.6 - up * 1, pos - f * 5 - rt * 1.6 - up * 1]), dark))
        muzzle = pos + f * 13
    card = flat_card(pos, f, 3.7, card_tex, None, up)
    card.nearer = 4.0  # fixed on top of the weapon: never under its own body
    parts.append(card)
    return parts, muzzle


@dataclass
class AimPlan:
    seat: int
    kind: str  # on-time, late, hidden, waving, turned-after (on-time, then onto another seat)
    target: int | None
    t_arrive: float
    pose: tuple[Vec, float, float] | None  # position, yaw, pitch at rest
    turn: tuple[float, float, float, float] | None = None  # after the deadline: (start, seconds, yaw, pitch)


def line_of_fire_target(pos: Vec, yaw: float, table: Table, seat: int) -> tuple[int | None, float, float]:
    """The seat whose standee lies closest to the line of fire on the table plane; and the two nearest distances."""
    o = pos[:2]
    d = np.array([math.cos(yaw), math.sin(yaw)])
    best: list[tuple[float, int]] = []
    for st in table.standees:
        if st.seat == seat:
            continue
        v = st.pos[:2] - o
        along = float(v.dot(d))
        if along <= 0:
            continue
        best.append((abs(float(v[0] * d[1] - v[1] * d[0])), st.seat))
    best.sort()
    if not best:
        return None, math.inf, math.inf
    return best[0][1], best[0][0], best[1][0] if len(best) > 1 else math.inf


MAX_AIM_LEAD_S = 3.0  # an aim clip cut to start late starts at most this long before the "3"


def aim_scene(seed: int, hard: bool, size: tuple[int, int] = (640, 480), things: bool = False,
              lead: float | None = None, fps: int | None = None, cant: bool = False,
              turn_after: bool = False) -> Scene:
    """An aim count drawn from `seed`; `size` and `things` as for a throw. `lead`: the clip starts that many seconds
    before the "3" (cut from the scene drawn, its arms perhaps already raised; `three_at` then says so), instead
    of with the table clear. `fps`: the camera's frame rate (15-120) instead of the 30 or 60 drawn; the scene's
    movements are the same, sampled at other moments. `cant`: every weapon is held canted in the hand, rolled
    15-35 degrees either way about its own axis (the scene otherwise the same). `turn_after`: about half the weapons
    at rest on their target before the deadline are turned onto another seat 0.2-0.8 s after it and held there (kind
    `turned-after`): the aim is the one at the deadline, in time (the scene before then the same)."""
    if lead is not None and not 0.0 <= lead <= MAX_AIM_LEAD_S:
        raise ValueError(f"lead {lead} s: a clip starts 0-{MAX_AIM_LEAD_S:g} s before the \"3\"")
    if fps is not None and not 15 <= fps <= 120:
        raise ValueError(f"fps {fps}: a webcam films the count at 15-120 frames a second")
    rng = np.random.default_rng(seed + 500_000)
    cants = np.random.default_rng(seed + 700_000)  # drawn apart: a canted scene is the same scene
    rolls = {s: (float(cants.choice([-1.0, 1.0]) * math.radians(cants.uniform(15, 35))) if cant else 0.0)
             for s in range(9)}
    seats = int(rng.integers(3, 10))
    cam_h = rng.uniform(60, 100)
    table, cam, hfov = build_table(rng, seats, cam_h, hard, size=size)
    look, tags = random_look(rng, hard)
    if hard:
        vibrate(look, tags, np.random.default_rng([seed, 11]))
    if camera_tilt(cam) > 20:
        tags.append("tilt20-25")
    if things:
        table.things = lay_things(np.random.default_rng([seed, 7]), table)
        tags.append("things")
    renderer = Renderer(cam, look, rng)
    drawn_fps = int(rng.choice([30, 60]))
    fps = drawn_fps if fps is None else fps
    three_at = round(float(rng.uniform(1.0, 2.0)), 3)
    deadline = three_at + 0.5
    paper, ink = 240, 25
    plans: list[AimPlan] = []
    tantos = [bool(rng.random() < 0.2) for _ in range(seats)]
    shoulders: dict[int, Vec] = {}
    placed: list[Vec] = []  # image outlines of the weapons already at rest, and of every crown
    own: dict[int, list[Vec]] = {}  # each weapon's outlines at rest among them
    placed += [cam.project(q.corners).astype(np.float32) for s in table.standees for q in s.parts(0)[-1:]]

    def aimed(pos: Vec, tgt: int, yaw_off_deg: float, pitch_off_deg: float) -> tuple[float, float] | None:
        """Yaw and pitch of a weapon at `pos` aimed at seat `tgt`'s standee (8 cm up), off by that much; None when
        steeply down: nobody aims a gun steeply down at a standee (a high hand is farther back)."""
        d = table.standees[tgt].pos + np.array([0, 0, 8.0]) - pos
        yaw = math.atan2(d[1], d[0]) + math.radians(yaw_off_deg)
        pitch = math.atan2(-d[2], math.hypot(d[0], d[1])) + math.radians(pitch_off_deg)
        return None if abs(pitch) > math.radians(32) else (yaw, pitch)

    def through_standees(path: list[Vec]) -> bool:
        """Whether the weapon, the hand behind it and the arm (points along them) pass through a standee, not over it."""
        return any(q[2] < 20 and float(np.linalg.norm((q - o.pos)[:2])) < 8 for q in path for o in table.standees)

    def clear_outlines(pos: Vec, yaw: float, pitch: float, seat: int, tgt: int, others: list[Vec]) -> list[Vec] | None:
        """The image outlines of `seat`'s weapon at that pose (held upright: a canted scene is the same), when its
        line of fire points at `tgt`, more than 4 cm nearer it than any other seat, and none lies over `others` (one
        weapon over another's marker: players keep their weapons apart); else None."""
        got, d1, d2 = line_of_fire_target(pos, yaw, table, seat)
        if got != tgt or d2 - d1 <= 4.0:
            return None
        parts, _ = gun_parts(pos, yaw, pitch, seat, tantos[seat], (0, 0, 0), 0, 0, np.zeros((4, 4, 3), np.uint8))
        outlines = [cam.project(q.corners if isinstance(q, Quad) else q.points).astype(np.float32) for q in parts]
        if any(cv2.intersectConvexConvex(o, cv2.convexHull(x))[0] > 0.5 for o in outlines for x in others):
            return None
        return outlines

    for st in table.standees:
        r = rng.random()
        kind = "on-time"
        if r < (0.2 if hard else 0.12):
            kind = "late"
        elif r < (0.3 if hard else 0.2):
            kind = "hidden" if rng.random() < 0.5 else "waving"
        target = None
        pose = None
        if kind in ("on-time", "late"):
            for _ in range(80):
                tgt = int(rng.choice([s for s in range(seats) if s != st.seat]))
                # held near the player's own seat, 0-40 cm over the table (the card is 3 cm over the weapon's
                # lowest point); over a standee only higher than its crown
                z = rng.uniform(1, 37) if rng.random() < 0.8 else rng.uniform(0.5, 3)
                pos = st.pos + st.inward * rng.uniform(5, 13) + st.right * rng.uniform(-8, 8) + np.array([0, 0, z + 3])
                aim = aimed(pos, tgt, rng.uniform(-3, 3), rng.uniform(-4, 4))
                if aim is None:
                    continue
                yaw, pitch = aim
                shoulder = st.pos - st.inward * rng.uniform(28, 38) + st.right * rng.uniform(-10, 10) \
                    + np.array([0, 0, rng.uniform(30, 40)])
                back = np.array([math.cos(yaw), math.sin(yaw), 0.0])
                hand = pos - back * 6.5 - np.array([0, 0, 3.0])
                elbow = shoulder + (hand - shoulder) * 0.55
                elbow[2] = max(elbow[2], min(shoulder[2], 22.0))
                path = [pos - back * k for k in (0.0, 3.0)] + [hand + (elbow - hand) * k for k in np.linspace(0, 1, 8)]
                if through_standees(path):
                    continue
                px = cam.project(pos[None])[0]
                inside = 25 < px[0] < cam.width - 25 and 25 < px[1] < cam.height - 25
                outlines = clear_outlines(pos, yaw, pitch, st.seat, tgt, placed) if inside else None
                if outlines is not None:
                    placed.extend(outlines)
                    own[st.seat] = outlines
                    target, pose = tgt, (pos, yaw, pitch)
                    shoulders[st.seat] = shoulder
                    break
            else:
                kind = "waving"
        if kind == "on-time":
            t_arrive = max(three_at + rng.uniform(-0.7, 0.15), 1.0)
        elif kind == "late":
            t_arrive = deadline + rng.uniform(0.3, 1.0)
        else:
            t_arrive = math.inf
        plans.append(AimPlan(st.seat, kind, target, t_arrive, pose))
    finite = [p.t_arrive for p in plans if math.isfinite(p.t_arrive)]
    duration = max([deadline + 1.0] + [t + 0.9 for t in finite])
    if turn_after:
        turns = np.random.default_rng(seed + 800_000)  # drawn apart: the count up to the deadline is the same
        for p in plans:
            if p.kind != "on-time" or p.pose is None or turns.random() >= 0.5:
                continue
            pos = p.pose[0]
            others = [o for o in placed if not any(o is mine for mine in own[p.seat])]
            for _ in range(40):
                tgt = int(turns.choice([s for s in range(seats) if s not in (p.seat, p.target)]))
                aim = aimed(pos, tgt, turns.uniform(-3, 3), turns.uniform(-4, 4))
                if aim is None:
                    continue
                yaw, pitch = aim
                back = np.array([math.cos(yaw), math.sin(yaw), 0.0])
                if through_standees([pos, pos - back * 3.0, pos - back * 6.5 - np.array([0, 0, 3.0])]) or \
                        clear_outlines(pos, yaw, pitch, p.seat, tgt, others) is None:
                    continue
                p.turn = (deadline + float(turns.uniform(0.2, 0.8)), float(turns.uniform(0.3, 0.5)), yaw, pitch)
                p.kind = "turned-after"
                duration = max(duration, p.turn[0] + p.turn[1] + 0.9)
                break
    guns = []
    for p in plans:
        st = table.standees[p.seat]
        tanto = tantos[p.seat]
        body = colour_of(rng.uniform(20, 230, 3))
        card = marker_card(30 + p.seat, 3.0, 3.7, paper=paper, ink=ink)
        shoulder = shoulders.get(p.seat, st.pos - st.inward * rng.uniform(28, 38) + st.right * rng.uniform(-10, 10)
                                 + np.array([0, 0, rng.uniform(30, 40)]))
        start = st.pos - st.inward * rng.uniform(25, 40) + st.right * rng.uniform(-10, 10) + np.array([0, 0, 5.0])
        move = rng.uniform(0.3, 0.7)
        tremor = (rng.uniform(0.05, 0.2), rng.uniform(0.2, 0.8))  # cm, degrees
        phase = rng.uniform(0, 10, 6)
        skin = SKINS[int(rng.integers(len(SKINS)))]
        sleeve = colour_of(rng.uniform(20, 200, 3))
        guns.append({"tanto": tanto, "body": body, "card": card, "shoulder": shoulder, "start": start,
                     "move": move, "tremor": tremor, "phase": phase, "skin": skin, "sleeve": sleeve,
                     "start_yaw": math.atan2(st.inward[1], st.inward[0]) + rng.uniform(-1, 1),
                     "enter": rng.uniform(0.2, 0.6)})
    # occluding hands (sometimes): another arm passing over a resting gun
    occl: list[tuple[float, float, Vec, Vec, Colour, Colour]] = []
    if rng.random() < (0.5 if hard else 0.15):
        cands = [p for p in plans if p.pose is not None]
        if cands:
            p = cands[int(rng.integers(len(cands)))]
            st = table.standees[(p.seat + 1) % seats]
            sh2 = st.pos - st.inward * 35 + np.array([0, 0, 45.0])
            over = p.pose[0] + np.array([0, 0, 6.0])  # type: ignore[index]
            t0 = max(p.t_arrive + 0.1, rng.uniform(three_at - 0.2, deadline + 0.3))
            occl.append((t0, t0 + rng.uniform(0.3, 0.7), sh2, over, SKINS[int(rng.integers(len(SKINS)))],
                         colour_of(rng.uniform(20, 200, 3))))
            tags.append("hand-over-weapon")
            duration = max(duration, t0 + 1.5)

    def gun_pose(p: AimPlan, g: dict[str, Any], t: float) -> tuple[Vec, float, float] | None:
        st = table.standees[p.seat]
        ph = g["phase"]
        if p.kind == "hidden":
            return None
        if p.kind == "waving":
            # in view after the first moments, never still: sweeping across the table the whole time
            if t < g["enter"]:
                return None
            # the hand circles (never slower than about 20 cm/s) while the muzzle swings from side to side
            centre = st.pos + st.inward * 12 + np.array([0, 0, 22.0])
            w = 3.0 + ph[5] * 0.2  # rad/s
            a = w * t + ph[0]
            pos = centre + st.right * 8 * math.cos(a) + st.inward * 5 * math.sin(a) \
                + np.array([0, 0, 3 * math.sin(2 * a + ph[2])])
            yaw = math.atan2(st.inward[1], st.inward[0]) + 0.8 * math.sin(1.7 * w * t + ph[3])
            return pos, yaw, 0.25 + 0.15 * math.sin(2.3 * t + ph[4])
        assert p.pose is not None
        rest_pos, rest_yaw, rest_pitch = p.pose
        t0 = p.t_arrive - g["move"]
        if t < t0:
            return None if t < t0 - 0.05 else (g["start"], g["start_yaw"], 0.6)
        tr_cm, tr_deg = g["tremor"]
        if t >= p.t_arrive:
            if p.turn is not None and t > p.turn[0]:  # turned in the hand onto another seat after the deadline
                k = min(1.0, (t - p.turn[0]) / p.turn[1])
                s = k * k * (3 - 2 * k)
                rest_yaw += ((p.turn[2] - rest_yaw + math.pi) % (2 * math.pi) - math.pi) * s
                rest_pitch += (p.turn[3] - rest_pitch) * s
            jit = np.array([math.sin(7.1 * t + ph[0]), math.sin(8.3 * t + ph[1]), math.sin(6.7 * t + ph[2])]) * tr_cm
            return (rest_pos + jit, rest_yaw + math.radians(tr_deg) * math.sin(5.3 * t + ph[3]),
                    rest_pitch + math.radians(tr_deg) * math.sin(4.9 * t + ph[4]))
        k = (t - t0) / g["move"]
        s = k * k * (3 - 2 * k)  # smooth start and stop
        lift = np.array([0, 0, 8 * math.sin(math.pi * k)])
        pos = g["start"] + (rest_pos - g["start"]) * s + lift
        dyaw = (rest_yaw - g["start_yaw"] + math.pi) % (2 * math.pi) - math.pi
        return pos, g["start_yaw"] + dyaw * s, 0.6 + (rest_pitch - 0.6) * s

    def items(t: float) -> tuple[list[Vec], list[Quad | Poly]]:
        its: list[Quad | Poly] = []
        shadows: list[Vec] = []
        for p, g in zip(plans, guns):
            pose = gun_pose(p, g, t)
            if pose is None:
                continue
            pos, yaw, pitch = pose
            parts, _ = gun_parts(pos, yaw, pitch, p.seat, g["tanto"], g["body"], paper, ink, g["card"], rolls[p.seat])
            its += parts
            shadows += [x.corners if isinstance(x, Quad) else x.points for x in parts[:1]]

        def arms(tt: float) -> list[Poly]:
            out: list[Poly] = []
            for p, g in zip(plans, guns):
                pose = gun_pose(p, g, tt)
                if pose is None:
                    continue
                pos, yaw, _ = pose
                f = np.array([math.cos(yaw), math.sin(yaw), 0.0])
                hand = pos - f * 6.5 - np.array([0, 0, 3.0])
                out += arm_polys(g["shoulder"], hand, g["skin"], g["sleeve"], cam.centre, hand_len=7)
            for t0, t1, sh2, over, sk, sl in occl:
                if t0 <= tt <= t1:
                    k = math.sin(math.pi * (tt - t0) / (t1 - t0))
                    out += arm_polys(sh2, sh2 + (over - sh2) * min(1.0, 1.5 * k), sk, sl, cam.centre)
            return out
        arm = blurred(arms, t, look.exposure)
        its += arm
        shadows += [a.points for a in arm]
        return shadows, its

    renderer.bake_static(table.things + table.corner_cards + table.base_cards, table.table_quad, table.floor,
                         [s.parts(0)[0].corners for s in table.standees], [s.parts(0) for s in table.standees])

    # weapons whose marker something nearer covers at the end (another weapon, an arm): still aiming, but unseen
    hidden_at_end = []
    t_end = (round(duration * fps) - 1) / fps
    end_items: list[Quad | Poly] = items(t_end)[1]
    end_items = end_items + [q for st in table.standees for q in st.parts(0)]
    order = sorted(end_items, key=renderer.depth_of, reverse=True)
    for p in plans:
        if p.pose is None:
            continue
        held: Quad | None = next((q for q in end_items if isinstance(q, Quad) and q.front is guns[p.seat]["card"]),
                                 None)
        if held is None:
            continue
        outline = cam.project(held.corners).astype(np.float32)
        area = abs(cv2.contourArea(outline))
        covered = 0.0
        at = next(i for i, it in enumerate(order) if it is held)
        for it in order[at + 1:]:
            pts = it.corners if isinstance(it, Quad) else it.points
            other = cv2.convexHull(cam.project(pts).astype(np.float32))
            covered = max(covered, cv2.intersectConvexConvex(outline, other)[0])
        if covered > 0.1 * area:
            hidden_at_end.append(p.seat)
    if hidden_at_end:
        tags.append("weapon-covered")
    if any(p.kind == "late" for p in plans):
        tags.append("late")
    if any(p.kind in ("hidden", "waving") for p in plans):
        tags.append("no-aim")
    if size != (640, 480):
        tags.append(f"{size[0]}x{size[1]}")
    if fps != drawn_fps:
        tags.append(f"{fps}fps")
    if cant:
        tags.append("canted")
    if any(p.kind == "turned-after" for p in plans):
        tags.append("turned-after")
    tags.append(f"{seats}-seats")
    truth = {"aims": {str(p.seat): p.target for p in plans}, "late": sorted(p.seat for p in plans if p.kind == "late"),
             "kinds": {str(p.seat): p.kind for p in plans}, "covered_at_end": hidden_at_end, "conditions": tags, "hard": hard, "seed": seed,
             "three_at": three_at, "camera_cm": round(float(cam.centre[2]), 1), "hfov_deg": hfov,
             "tilt_deg": round(camera_tilt(cam), 1),
             "table_cm": [round(table.width, 1), round(table.depth, 1)]}
    start = 0.0
    if lead is not None and lead < three_at:
        start = round((three_at - lead) * fps) / fps
        three_at = round(three_at - start, 4)
        tags.insert(-1, f"lead{lead:g}s")
    truth["three_at"] = three_at
    meta = {"fps": fps, "seats": seats, "three_at": three_at}
    return Scene(fps, duration, meta, truth, renderer, table, items,
                 {"weapon": lambda seat, t: gun_pose(plans[seat], guns[seat], t)}, start)


# ----------------------------------------------------------------------------------------------- writing


VIDEO_CODECS = ("MJPG", "XVID")
"""What a webcam's recording is written with: motion JPEG (each frame on its own), or MPEG-4 part 2 (frames
predicted from the ones before, a key frame every dozen or so: the still table shimmers a little between them)."""


def write_clip(scene: Scene, out: Path, video: bool | str = False) -> Path:
    """Write clip.json, the frames (PNG of the JPEG-compressed frame) or a video.avi, and truth.json last (a clip
    with its truth is whole): `video` True or "MJPG" for motion JPEG, "XVID" for MPEG-4 part 2."""
    out.mkdir(parents=True, exist_ok=True)
    (out / "truth.json").unlink(missing_ok=True)
    (out / "clip.json").write_text(json.dumps(scene.meta))
    if video:
        codec = "MJPG" if video is True else str(video)
        if codec not in VIDEO_CODECS:
            raise ValueError(f"video codec {codec!r}: not one of {', '.join(VIDEO_CODECS)}")
        w = cv2.VideoWriter(str(out / "video.avi"), cv2.VideoWriter.fourcc(*codec), scene.fps,
                            (scene.renderer.cam.width, scene.renderer.cam.height))
        if not w.isOpened():
            raise RuntimeError(f"OpenCV cannot write {codec} here")
        for i in range(scene.n_frames):
            w.write(scene.frame(i))
        w.release()
    else:
        frames = out / "frames"
        if frames.exists():
            shutil.rmtree(frames)
        frames.mkdir()
        for i in range(scene.n_frames):
            cv2.imwrite(str(frames / f"{i:06d}.png"), scene.frame(i), [cv2.IMWRITE_PNG_COMPRESSION, 1])
    (out / "truth.json").write_text(json.dumps(scene.truth, indent=1))
    return out


def clip_plan(throws: int, aims: int, seed: int) -> list[tuple[str, int, bool]]:
    """The seeded set: (kind, seed, hard); a third of each kind in hard conditions."""
    out = []
    for i in range(throws):
        out.append(("throw", seed * 10_000 + i, i % 3 == 2))
    for i in range(aims):
        out.append(("aim", seed * 10_000 + i, i % 3 == 2))
    return out


def make_scene(kind: str, seed: int, hard: bool, throw_fps: int = 60, size: tuple[int, int] = (640, 480),
               things: bool = False, aim_lead: float | None = None, aim_fps: int | None = None,
               aim_cant: bool = False, aim_turn: bool = False) -> Scene:
    """The clip of `kind` ("throw" or "aim") drawn from `seed`; throws filmed at `throw_fps`; frames of `size`;
    loot cards and banknotes on the table if `things`; aim clips starting `aim_lead` s before the "3" if given,
    filmed at `aim_fps` if given (else 30 or 60, drawn), every weapon canted in the hand if `aim_cant`, weapons
    turned onto another seat after the deadline if `aim_turn`."""
    if kind == "throw":
        return throw_scene(seed, hard, fps=throw_fps, size=size, things=things)
    return aim_scene(seed, hard, size, things, aim_lead, aim_fps, aim_cant, aim_turn)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--throws", type=int, default=6)
    ap.add_argument("--aims", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--video", choices=VIDEO_CODECS, help="write video.avi in this codec instead of PNG frames")
    args = ap.parse_args(argv)
    for kind, s, hard in clip_plan(args.throws, args.aims, args.seed):
        path = write_clip(make_scene(kind, s, hard), Path(args.out) / f"{kind}-{s}", video=args.video or False)
        print(path, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
