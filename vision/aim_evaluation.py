"""Reading labelled synthetic aim clips and counting what the reader got right, per condition.

An aim is right when the reader's target and its "late" both match the truth. An unsure aim asks
the Godfather for that seat; the one fault that must never happen is a wrong aim that does not ask.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from vision import aim_synth
from vision.aims import AimConfig, read_frames
from vision.errors import AimError


@dataclass
class Tally:
    aims: int = 0
    right: int = 0  # target and late both right (sure or not)
    right_sure: int = 0  # right without asking the Godfather
    asked: int = 0
    wrong_unasked: int = 0
    late: int = 0  # truly late
    late_right: int = 0
    false_late: int = 0  # read late but was not, without asking
    clips: int = 0
    clips_unread: int = 0
    hidden_at_rest: int = 0  # not right, its marker never clear of what the frame drew over it while at rest

    def add(self, other: Tally) -> None:
        for name in self.__dataclass_fields__:
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def as_json(self) -> dict[str, Any]:
        n = max(self.aims, 1)
        return {"clips": self.clips, "clips_unread": self.clips_unread, "aims": self.aims,
                "right_pct": round(100 * self.right / n, 2), "right_without_asking_pct": round(100 * self.right_sure / n, 2),
                "asked_pct": round(100 * self.asked / n, 2), "wrong_unasked": self.wrong_unasked,
                "late": self.late, "late_right": self.late_right, "false_late": self.false_late,
                "hidden_at_rest": self.hidden_at_rest}


@dataclass
class Report:
    total: Tally = field(default_factory=Tally)
    by_tag: dict[str, Tally] = field(default_factory=lambda: defaultdict(Tally))
    by_behaviour: dict[str, Tally] = field(default_factory=lambda: defaultdict(Tally))
    failures: list[str] = field(default_factory=list)  # wrong aims that did not ask, described

    def as_json(self) -> dict[str, Any]:
        return {"total": self.total.as_json(),
                "by_tag": {k: v.as_json() for k, v in sorted(self.by_tag.items())},
                "by_behaviour": {k: v.as_json() for k, v in sorted(self.by_behaviour.items())},
                "failures": self.failures}


def evaluate(specs: Iterable[aim_synth.AimSpec], config: AimConfig | None = None, progress: Any = None) -> Report:
    config = config or AimConfig()
    report = Report()
    specs = list(specs)
    for n, spec in enumerate(specs):
        if progress is not None:
            progress(n, len(specs))
        scene = aim_synth.AimScene(spec)
        clip = Tally(clips=1)
        per_seat: list[tuple[str, Tally]] = []
        try:
            reading = read_frames(scene.frames(), seats=spec.seats, fps=spec.fps, three_at=spec.three_at,
                                  config=config)
        except AimError as exc:
            reading = None
            clip.clips_unread = 1
            report.failures.append(f"seed {spec.seed}: unread ({exc}); the Godfather enters every aim")
        for plan in spec.weapons:
            t = Tally(aims=1, late=int(plan.behaviour == "late"))
            if reading is None:
                t.asked = 1
            else:
                got = reading.seats[plan.seat]
                right = got.target == plan.target and got.late == (plan.behaviour == "late")
                t.right = int(right)
                t.right_sure = int(right and got.sure)
                t.asked = int(not got.sure)
                t.wrong_unasked = int(got.sure and not right)
                t.late_right = int(plan.behaviour == "late" and got.late and got.target == plan.target)
                t.false_late = int(got.sure and got.late and plan.behaviour != "late")
                t.hidden_at_rest = int(not right and hidden_at_rest(scene, plan))
                if t.wrong_unasked:
                    report.failures.append(
                        f"seed {spec.seed} seat {plan.seat} ({plan.behaviour}, true target {plan.target}, "
                        f"comes to rest {plan.arrive_at:+.2f} s): read {got.target}, late {got.late} "
                        f"({got.reason}, margin {got.margin_deg})")
            per_seat.append((plan.behaviour, t))
            clip.add(t)
        clip.clips = 1
        report.total.add(clip)
        for tag in aim_synth.variation_tags(spec):
            report.by_tag[tag].add(clip)
        for behaviour, t in per_seat:
            report.by_behaviour[behaviour].add(t)
    return report


# a card this much covered in a frame does not show its marker whole (its border and every cell): not decodable
# (a twentieth of the card is a corner 0.9 cm square, past the card's 0.5 cm white margin into the marker)
HIDDEN_SHARE = 0.05


def hidden_at_rest(scene: aim_synth.AimScene, plan: aim_synth.WeaponPlan) -> bool:
    """Whether the clip never shows ``plan``'s marker whole while it rests on its target (from its arrival to the
    end of the clip, every frame): another weapon held higher or an arm drawn over a part of it all along. No
    reader could see where it points then; the Godfather must be asked."""
    if plan.target is None:
        return False
    spec = scene.spec
    first = max(0, math.ceil((spec.three_at + plan.arrive_at) * spec.fps))
    for index in range(first, scene.frame_count):
        share = scene.card_hidden(plan, index / spec.fps - spec.three_at)
        if share is not None and share < HIDDEN_SHARE:
            return False
    return True


__all__ = ["HIDDEN_SHARE", "Report", "Tally", "evaluate", "hidden_at_rest"]
