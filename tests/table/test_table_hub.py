"""A round at a table whose standees go through the USB sensor hub's simulator (the real firmware code)."""

from __future__ import annotations

from controller.table import config as table_config
from controller.table.referee import Referee, Step
from controller.table.runner import Setup, new_record, open_table

NAMES = ["Aiko", "Bo", "Cy", "Dee", "Eli", "Fay"]


def test_the_withdrawal_count_through_the_sensor_hub():
    config = table_config.from_dict({"game": {"ruleset": "yakuzas", "players": NAMES, "seed": 6}})
    setup = Setup(config, 6, simulate=True, camera=False, hub=True)
    referee = Referee(new_record(config, 6))
    lines = []
    session, closers = open_table(setup, referee, game_log=None, say=lines.append, progress=None, pace=0.0)
    try:
        assert session.devices.config.backend == "hub"
        while referee.step is not Step.WITHDRAW:
            session.play_step()
        prompt = referee.prompt()
        window = session.devices.config.timing.window_end(0.0)
        expected = {m.player for m in session.bots.lay_downs(prompt, window=window, settle=0.06)
                    if m.at <= window and m.stands_again is None}
        assert expected, "choose a seed where someone lies down"
        session.play_step()  # the count: real time, lay-downs through the hub's firmware and the USB link
        assert {referee.game.players[s].name for s in referee.round.withdrew} == expected
        assert any("lie down to withdraw" in line for line in lines)
    finally:
        for close in reversed(closers):
            close()
