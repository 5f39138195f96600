"""What the places where a weapon rests showed at the deadline, against the first frame (the table before
the count): the bare table (nothing there), the table's own texture under where its marker later rests (the
marker was not there), something over it (covered), or the marker itself. The two frames are compared at the
camera's gain and shifted by its shake (``vision.aim_cells``)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import NamedTuple

import numpy as np

from vision import aim_cells, aim_partial, markers
from vision.aim_reading import AimConfig, Rest, Sight

_SLOPES = np.column_stack([np.ones(36), np.tile(np.arange(6.0), 6), np.repeat(np.arange(6.0), 6)])


def _texture(cells: np.ndarray) -> np.ndarray:
    """A marker place's 36 cells less the plane of light that fits them best (a lamp's slope across the place)."""
    fit, *_ = np.linalg.lstsq(_SLOPES, cells.astype(np.float64), rcond=None)
    out: np.ndarray = cells - _SLOPES @ fit
    return out


def _light_ratio(first: np.ndarray, later: np.ndarray, dark: float, least: float) -> float | None:
    """How much lighter ``later`` shows what ``first`` shows (pixels or cells alike): the median ratio over those
    lighter than ``dark`` in ``first``; None when fewer than ``least`` are, or the ratio is not positive."""
    lit = first > dark
    if int(lit.sum()) < least:
        return None
    ratio = float(np.median(later[lit] / first[lit]))
    return ratio if ratio > 0.0 else None


class _PlaceCells(NamedTuple):
    """A weapon's marker place at its pose at rest, as the first frame and the frame at the deadline show it (see
    ``DeadlinePlaces._deadline_cells``)."""

    before: np.ndarray  # its 36 cells' grey in the first frame
    at: np.ndarray  # ... and at the deadline, brought to the first frame's gain
    tolerance: float  # the difference a cell may show without change (the frame's noise, JPEG and shake)
    contrast: float  # the marker's, as read at rest
    quad: np.ndarray  # the marker's corners at rest (image px)
    moved: np.ndarray  # ... and where that place lies in the frame at the deadline (the camera's shake)


class _ColourCells(NamedTuple):
    """The same place's cells in each colour channel (see ``DeadlinePlaces._colour_cells``)."""

    was: np.ndarray  # cells x channels, in the first frame
    now: np.ndarray  # ... and at the deadline, brought to the first frame's gain
    tolerance: float  # the change a cell's channel may show without a change there (noise, JPEG's colour, shake)
    # the cells that showed at the deadline a colour the first frame did not show there, in any channel, beyond that
    changed: np.ndarray


@dataclass
class DeadlinePlaces:
    """The first frame analysed and the frame at the deadline (``deadline`` seconds after the "3"), with every
    pose of each weapon's marker read (seat -> (t, corners, contrast)), each weapon's marker pattern (seat -> its
    cells) and a few frames kept around it (``later_frames``: one ``AimConfig.later_places_s`` before the
    deadline, then that far apart after it)."""

    config: AimConfig
    first_frame: np.ndarray | None
    deadline_frame: np.ndarray | None
    deadline: float
    read_quads: dict[int, list[tuple[float, np.ndarray, float]]]
    patterns: dict[int, np.ndarray]
    later_frames: list[tuple[float, np.ndarray]] = field(default_factory=list)  # (t, frame) kept around the deadline
    first_grey: np.ndarray | None = field(default=None, repr=False)  # the first frame in grey levels (float)
    _deadline_gain: float | None = field(default=None, init=False, repr=False)  # see _gain_at_deadline
    _deadline_grey: np.ndarray | None = field(default=None, init=False, repr=False)  # see _grey_frames
    _shadowed: dict[tuple[int, Rest], bool] = field(default_factory=dict, init=False, repr=False)  # see table_in_shadow

    def __post_init__(self) -> None:
        if self.first_grey is None and self.first_frame is not None:  # converted once, shared by the copies of
            self.first_grey = markers.to_gray(self.first_frame).astype(np.float32)  # ``table_later``

    def _bare(self, box: tuple[float, float, float, float]) -> bool:
        """Whether the image ``box`` (x0, y0, x1, y1) at the deadline shows what the first frame showed
        (see ``empty_at_deadline``)."""
        first, last = self.first_frame, self.deadline_frame
        if first is None or last is None or first.shape != last.shape:
            return False
        h, w = first.shape[:2]
        x0, y0 = max(0, int(box[0])), max(0, int(box[1]))
        x1, y1 = min(w, int(box[2]) + 1), min(h, int(box[3]) + 1)
        if x1 - x0 < 8 or y1 - y0 < 8:
            return False
        a = first.astype(np.float32)
        b = last.astype(np.float32) / self._gain_at_deadline()
        diff = np.abs(a - b)
        if diff.ndim == 3:
            diff = diff.max(axis=2)
        change = aim_cells.least_change(diff, max(8, min(x1 - x0, y1 - y0)))
        if change is None:
            return False
        limit = change * self.config.bare_ratio + self.config.bare_slack
        dx, dy = aim_cells.shake(a, b, (x0, y0, x1, y1), self.config.shake_px)
        here = np.abs(a[y0:y1, x0:x1] - np.roll(b, (-dy, -dx), axis=(0, 1))[y0:y1, x0:x1])
        return float((here.max(axis=2) if here.ndim == 3 else here).mean()) <= limit

    def _gain_at_deadline(self) -> float:
        """How much brighter the camera shows the table at the deadline than in the first frame (see ``aim_cells.gain``)."""
        if self._deadline_gain is None:
            greys = self._grey_frames()
            self._deadline_gain = 1.0 if greys is None else aim_cells.gain(*greys)
        return self._deadline_gain

    def _grey_frames(self) -> tuple[np.ndarray, np.ndarray] | None:
        """The first frame and the frame at the deadline in grey levels (float), converted once; None unless both
        are there, of one size."""
        first, last = self.first_grey, self.deadline_frame
        if first is None or last is None or first.shape != last.shape[:2]:
            return None
        if self._deadline_grey is None:
            self._deadline_grey = markers.to_gray(last).astype(np.float32)
        return first, self._deadline_grey

    def empty_at_deadline(self, sights: list[Sight], run: Rest) -> bool:
        """Whether the place where the weapon later rests showed, at the deadline, what it showed before
        the count (the bare table, as in the first frame analysed): then nothing was there at the
        deadline, neither this weapon nor an arm over it. The comparison allows for a change of the
        camera's gain (whole frames) and for the noise, shake and JPEG of this clip (the same
        difference measured over the whole frame)."""
        at_rest = [s for s in sights if run.start <= s.t <= run.end and s.side_px > 0]
        if not at_rest:
            return False
        cx = float(np.median([s.image_centre[0] for s in at_rest]))
        cy = float(np.median([s.image_centre[1] for s in at_rest]))
        half = max(8.0, float(np.median([s.side_px for s in at_rest])) * self.config.bare_box)
        return self._bare((cx - half, cy - half, cx + half, cy + half))

    def _rest_quad(self, seat: int, run: Rest, least: int = 3) -> tuple[np.ndarray, float] | None:
        """The marker's corners in the image during ``run`` (the reading nearest their median place) and its
        contrast then; None when it was read fewer than ``least`` times in it."""
        read = [(q, c) for t, q, c in self.read_quads.get(seat, []) if run.start <= t <= run.end]
        if not read or len(read) < least:
            return None
        centres = np.array([q.mean(axis=0) for q, _ in read])
        return read[int(np.argmin(np.linalg.norm(centres - np.median(centres, axis=0), axis=1)))]

    def _marker_shows(self, seat: int, cells: np.ndarray, contrast: float) -> bool:
        """Whether the cells read at a marker's place show that marker's light/dark order (see
        ``_still_there``)."""
        cfg = self.config
        pairs, lighter_first = aim_partial.pairs_of(self.patterns[seat])
        diff = cells[pairs[:, 0]] - cells[pairs[:, 1]]
        diff = np.where(lighter_first, diff, -diff)
        margin = cfg.still_contrast * max(contrast, 1.0)
        agree, against = int(np.sum(diff > margin)), int(np.sum(diff < -margin))
        return agree >= cfg.still_pairs and 3 * against <= agree

    def there_before(self, seat: int, run: Rest) -> bool:
        """Whether the weapon's marker already showed in the first frame (before the count) where it rests
        in ``run``: then the place's look at the deadline says nothing of when it came to rest."""
        rest, first = self._rest_quad(seat, run), self.first_grey
        if rest is None or first is None:
            return False
        cells = markers.cell_means(first, rest[0])
        return cells is not None and self._marker_shows(seat, cells, rest[1])

    def _read_there_before(self, seat: int, run: Rest) -> bool:
        """Whether the weapon was read before the deadline where its marker lies in ``run`` (its centre within one
        side of the marker's there): a weapon in view at that place from before the count is read there many
        times over."""
        rest = self._rest_quad(seat, run)
        if rest is None:
            return False
        centre, side = rest[0].mean(axis=0), markers.quad_side(rest[0])
        return any(t < self.deadline and float(np.linalg.norm(quad.mean(axis=0) - centre)) <= side
                   for t, quad, _ in self.read_quads.get(seat, []))

    @cached_property
    def _grey_change(self) -> float | None:
        """The frame's own change from the first frame to the one at the deadline (noise, JPEG, shake: the quarter
        of the frame that changed least, ``aim_cells.least_change``), in grey at the first frame's gain; once."""
        greys = self._grey_frames()
        if greys is None:
            return None
        return aim_cells.least_change(np.abs(greys[0] - greys[1] / self._gain_at_deadline()), 32)

    @cached_property
    def _colour_frames(self) -> tuple[np.ndarray, np.ndarray, float] | None:
        """The first frame and the frame at the deadline in colour (float, the latter at the first frame's gain)
        and their own change in the channel that changed most; once. None for grey frames or when unknown."""
        first, last = self.first_frame, self.deadline_frame
        if first is None or last is None or first.ndim != 3 or first.shape != last.shape:
            return None
        a, b = first.astype(np.float32), last.astype(np.float32) / self._gain_at_deadline()
        noise = aim_cells.least_change(np.abs(a - b).max(axis=2), 32)
        return None if noise is None else (a, b, noise)

    def _deadline_cells(self, seat: int, run: Rest, least: int = 3, shaded: bool = False) -> _PlaceCells | None:
        """The cells of the weapon's marker at its pose at rest in ``run``, as the first frame (the table before
        the count) and the frame at the deadline show them (the latter brought to the former's gain), the
        difference a cell may show without change (the frame's noise, JPEG and shake) and the marker's
        contrast; None when unknown. ``shaded``: the camera's shake between the two is found with the place's
        own light change taken out (a shadow over it), not only the whole frame's."""
        greys = self._grey_frames()
        rest = self._rest_quad(seat, run, least)
        noise = self._grey_change
        if greys is None or rest is None or noise is None:
            return None
        quad, contrast = rest
        a, b = greys[0], greys[1] / self._gain_at_deadline()
        moved = self._shaken(quad, a, b, shaded)
        before, at = markers.cell_means(a, quad), markers.cell_means(b, moved)
        if before is None or at is None:
            return None
        return _PlaceCells(before, at, self.config.table_cell_noise * noise + self.config.bare_slack, contrast, quad,
                           moved)

    def _shaken(self, quad: np.ndarray, a: np.ndarray, b: np.ndarray, shaded: bool = False) -> np.ndarray:
        """Where a marker's place at ``quad`` in the grey first frame ``a`` lies in ``b`` (the grey frame at the
        deadline at the first frame's gain): moved by the camera's shake, the shift that matches the place and
        its surroundings best. ``shaded``: found with the place's own light change taken out (a shadow over it),
        not only the whole frame's."""
        side = float(np.max(np.ptp(quad, axis=0)))
        (cx0, cy0), (cx1, cy1) = quad.min(axis=0) - side, quad.max(axis=0) + side
        box = (int(cx0), int(cy0), int(cx1) + 1, int(cy1) + 1)
        seen = b
        if shaded:  # the place's own light change taken out, in the box the shake is looked for in
            x0, y0 = max(0, box[0]), max(0, box[1])
            light = _light_ratio(a[y0:box[3], x0:box[2]], b[y0:box[3], x0:box[2]], self.config.shade_dark, 16)
            seen = b / (light or 1.0)
        dx, dy = aim_cells.shake(a, seen, box, self.config.shake_px)
        return np.asarray(quad + np.array([dx, dy], np.float64))

    def _colour_cells(self, place: _PlaceCells) -> _ColourCells | None:
        """The cells of a weapon's marker ``place`` (as ``_deadline_cells`` found it) in each colour channel, in the
        first frame and at the deadline, and those whose colour changed; None for grey frames or when unknown."""
        frames = self._colour_frames
        if frames is None:
            return None
        a, b, noise = frames
        before = [markers.cell_means(np.ascontiguousarray(a[..., c]), place.quad) for c in range(a.shape[2])]
        at = [markers.cell_means(np.ascontiguousarray(b[..., c]), place.moved) for c in range(b.shape[2])]
        was, now = [x for x in before if x is not None], [y for y in at if y is not None]
        if len(was) < len(before) or len(now) < len(at):
            return None
        was_cells, now_cells = np.stack(was, axis=1), np.stack(now, axis=1)
        tolerance = self.config.table_cell_noise * noise + self.config.bare_slack
        return _ColourCells(was_cells, now_cells, tolerance, np.abs(now_cells - was_cells).max(axis=1) > tolerance)

    def _shadow_only(self, colour: _ColourCells) -> bool:
        """Whether every cell of a weapon's marker place (``_colour_cells``) that changed showed at the deadline the
        colour it showed in the first frame, only darker: the shadow of an arm or a weapon held between the lamp and
        the table, over a table too plain for its texture to show (``table_in_shadow``). A shadow dims the three
        channels of a cell by one factor; an arm, a sleeve or a weapon over the place shows its own colour. False
        when no cell changed."""
        if not colour.changed.any():
            return False
        was, now = colour.was[colour.changed], colour.now[colour.changed]
        dim = now.sum(axis=1) / np.maximum(was.sum(axis=1), 1.0)  # each cell's darkening
        if float(dim.max()) >= 1.0 or float(dim.min()) < self.config.shade_least:
            return False  # lighter, or darker than a shadow leaves the table
        return bool(np.all(np.abs(now - dim[:, None] * was) <= colour.tolerance))

    def table_under_marker(self, seat: int, run: Rest) -> bool:
        """Whether, at the deadline, the table showed through where the weapon's marker lies at rest after it:
        most of the marker's cells there showed the deadline frame what the first frame showed (the table
        before the count, its texture cell by cell, a gain change of the camera allowed for), so the marker
        was not there. A weapon at rest at that pose at the deadline puts its marker over those cells; an arm
        or another weapon over it hides the table as well: neither shows the table's own texture. The place
        must have texture enough (its cells differing from one another well beyond the frame's noise) for
        the table to be told from a plain arm or sleeve of the same colour."""
        cfg = self.config
        got = self._deadline_cells(seat, run)
        if got is None:
            return False
        before, at, tolerance, contrast = got.before, got.at, got.tolerance, got.contrast
        spread = float(np.std(before))
        if spread < cfg.table_texture * tolerance:
            return False
        if self._marker_shows(seat, before, contrast):
            return False  # the weapon was there before the count (and not read until after the deadline)
        if not self._unchanged(before, at, tolerance):
            return False
        shown = before[np.abs(at - before) <= tolerance]
        return float(np.std(shown)) >= cfg.table_texture * tolerance

    def _unchanged(self, before: np.ndarray, at: np.ndarray, tolerance: float) -> bool:
        """Whether a place's cells at the deadline show what they showed before the count (``table_cells`` of
        them within ``tolerance``)."""
        return int(np.sum(np.abs(at - before) <= tolerance)) >= self.config.table_cells * len(before)

    def table_in_shadow(self, seat: int, run: Rest) -> bool:
        """Whether, at the deadline, the place where the weapon's marker lies at rest after it showed the table's
        own texture under a shadow (or too faint for ``table_under_marker``): an arm or a weapon held between the
        lamp and the table dims the place, every cell by about one factor, and leaves its texture, as a marker
        there would show through a shadow too. The cells' texture (what is left of them past a smooth slope of
        light across the place) must follow the first frame's cell by cell (``shade_match`` correlation), at the
        contrast the dimming leaves (``shade_least`` to 1 of it, or more where the first frame lay in shadow): a
        plain arm or sleeve shows only noise past its slope, and the first frame's texture followed that closely
        cannot be noise either. Judged once for each rest."""
        if (seat, run) not in self._shadowed:
            self._shadowed[seat, run] = self._in_shadow(seat, run)
        return self._shadowed[seat, run]

    def _in_shadow(self, seat: int, run: Rest) -> bool:
        cfg = self.config
        got = self._deadline_cells(seat, run, shaded=True)
        if got is None:
            return False
        before, at, contrast = got.before, got.at, got.contrast
        if self._marker_shows(seat, before, contrast):
            return False
        light = _light_ratio(before, at, cfg.shade_dark, cfg.table_cells * len(before))
        if light is None or not cfg.shade_least <= light <= 1.0 / cfg.shade_least:
            return False
        b, a = _texture(before), _texture(at)
        spread = float(np.std(b))
        if min(spread, float(np.std(a))) < cfg.shade_texture:
            return False  # no texture to follow: a plain table, a plain sleeve
        match = float(np.corrcoef(b, a)[0, 1])
        slope = match * float(np.std(a)) / spread  # the texture's contrast at the deadline against the first frame's
        return match >= cfg.shade_match and cfg.shade_least * light <= slope <= light / cfg.shade_least

    def hidden_there_at_deadline(self, seat: int, run: Rest, least: int = 3) -> bool:
        """Whether, at the deadline, the place where the weapon's marker lies at rest after it was covered
        (most of the marker's cells then showed neither what they showed before the count nor, within the
        frame's noise, the same grey or the same colour: an arm or another weapon over it, not only its shadow,
        which dims a plain table's cells keeping their colour: ``_shadow_only``), or showed the marker
        itself (its look, where the weapon was read before the deadline or the place changed since before the
        count). A weapon first seen at rest after the deadline and not seen moving before may then have been at
        rest there, unseen, since before the deadline: the likelier reading for the Godfather to check is in
        time. Where the table showed (the cells unchanged), the marker was not there: late is the likelier.
        ``least``: the readings of the marker in ``run`` its pose is taken from."""
        got = self._deadline_cells(seat, run, least)
        if got is None:
            return False
        before, at, tolerance, contrast = got.before, got.at, got.tolerance, got.contrast
        if self._marker_shows(seat, at, contrast) and (self._read_there_before(seat, run)
                                                       or not self._unchanged(before, at, tolerance)):
            return True
        # a look of its marker there, unchanged since before the count, where the weapon was never read then, is
        # what lay there before the count: another marker (a standee's card, another weapon's) under the place
        # in the image can show as many of the pattern's light/dark pairs
        if self.table_in_shadow(seat, run):
            return False  # the table under a shadow: not covered
        colour = self._colour_cells(got)  # None for grey frames or when unknown
        if colour is not None and self._shadow_only(colour):
            return False  # a plain table under a shadow, its colour kept: not covered
        covered = self.config.covered_cells * len(before)
        if int(np.sum(np.abs(at - before) > tolerance)) > covered:
            return True
        # as grey as the table there, but not of its colour: an arm or a sleeve as grey as the table there (skin over
        # a pink cloth) changes the place's colour, not its grey
        return colour is not None and int(colour.changed.sum()) > covered

    def table_later(self, seat: int, sights: list[Sight], run: Rest, before: float) -> float | None:
        """The first time, from ``later_places_s`` before the deadline on and before ``before``, at which a frame
        kept then showed the table where the weapon's marker lies at rest in ``run``: the bare table (as before the
        count) or the table's own texture under the marker (as ``empty_at_deadline`` and ``table_under_marker`` read
        the frame at the deadline). A weapon at rest there, covered or not, hides the table: at that time it was not
        there yet (and one that came to rest there after it and before the deadline was covered before it was ever
        read at rest). None when no frame kept showed it."""
        for t, frame in self.later_frames:
            if t >= before:
                break
            later = replace(self, deadline_frame=frame, later_frames=[])
            if (later.empty_at_deadline(sights, run) and not later.there_before(seat, run)) \
                    or later.table_under_marker(seat, run) or later.table_in_shadow(seat, run):
                return t
        return None
