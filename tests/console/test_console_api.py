"""The console's API: every input and every refusal, tokens, secrets, live updates."""

from __future__ import annotations

import json
import socket

import pytest
from console_kit import console_table
from starlette.testclient import TestClient

from controller.console.server import create_app
from controller.rules.advanced import CATALOG


@pytest.fixture
def console():
    session, hub = console_table()
    with TestClient(create_app(hub)) as client:
        yield session, hub, client


def post(client, token, data):
    return client.post(f"/api/input?token={token}", json=data)


def gf(hub):
    return hub.tokens.godfather


def test_pages_need_their_token(console):
    _session, hub, client = console
    assert client.get("/").status_code == 200
    assert client.get("/godfather").status_code == 403
    assert client.get(f"/godfather?token={hub.tokens.teams['purple']}").status_code == 403
    assert client.get(f"/godfather?token={gf(hub)}").status_code == 200
    assert client.get(f"/team/purple?token={hub.tokens.teams['purple']}").status_code == 200
    assert client.get(f"/team/purple?token={hub.tokens.teams['red']}").status_code == 403
    assert client.get(f"/api/qr?team=purple&token={gf(hub)}").headers["content-type"].startswith("image/svg")
    assert client.get(f"/api/qr?team=purple&token={hub.tokens.teams['purple']}").status_code == 403
    assert client.get(f"/api/frame?token={gf(hub)}").status_code == 404  # no verdict waiting


def test_views_hold_only_what_each_page_may_see(console):
    session, hub, client = console
    table = client.get("/api/state").json()
    godfather = client.get(f"/api/state?token={gf(hub)}").json()
    assert table["role"] == "table" and "options" not in table and "secrets" not in table and "teams" not in table
    assert godfather["role"] == "godfather" and godfather["expects"] == ["cards"] and len(godfather["teams"]) == 3
    players = session.referee.game.players
    for team, token in hub.tokens.teams.items():
        view = client.get(f"/api/state?token={token}").json()
        assert {s["player"] for s in view["secrets"]} == {p.name for p in players if str(p.gang) == team}
        text = json.dumps(view)
        for p in players:
            if str(p.gang) != team:
                for card in (p.power, p.object):
                    if card:
                        assert f'"{card}"' not in text, (team, card)


def test_inputs_from_others_than_the_godfather_are_refused(console):
    _session, hub, client = console
    reply = post(client, hub.tokens.teams["purple"], {"kind": "cards", "cards": {}})
    assert reply.status_code == 403 and reply.json()["refused"] == "only the Godfather enters this"
    reply = client.post(f"/api/input?token={gf(hub)}", content=b"{not json")
    assert reply.status_code == 400
    reply = post(client, gf(hub), {"kind": "no-such-input"})
    assert reply.status_code == 409 and "unknown input kind" in reply.json()["refused"]
    reply = post(client, gf(hub), {"kind": "cards", "cardz": {}})
    assert reply.status_code == 409 and "cards:" in reply.json()["refused"]


def test_a_round_through_the_api_with_every_refusal(console):
    session, hub, client = console
    referee, bots = session.referee, session.bots
    token = gf(hub)
    # every step refuses an input of another step, with the step named
    reply = post(client, token, {"kind": "throws-done"})
    assert reply.status_code == 409 and "expected cards" in reply.json()["refused"]
    assert post(client, token, {"kind": "cards", "cards": {}}).json()["ok"]
    state = client.get(f"/api/state?token={token}").json()
    targets = state["options"]["targets"]
    aims = {n: (t[0] if t else None) for n, t in targets.items()}
    bad = dict(aims, Bo="Eli")
    reply = post(client, token, {"kind": "aims", "aims": bad})
    assert reply.status_code == 409 and reply.json()["refused"] == "round 1: Bo may not aim at Eli: same gang"
    assert post(client, token, {"kind": "aims", "aims": aims}).json()["ok"]
    # the Godfather may take over the sensors (here: all of them) and enter the withdrawals
    assert post(client, token, {"kind": "sensor", "player": "Cy", "godfather": True}).json()["ok"]
    assert "Cy" in client.get(f"/api/state?token={token}").json()["sensors"]["overridden"]
    assert post(client, token, {"kind": "sensor", "player": "Zed"}).json()["refused"] == "'Zed' is not a player"
    assert post(client, token, {"kind": "withdraw", "withdrew": ["Cy"], "source": "godfather"}).json()["ok"]
    hidden = {n: str(bots.card_of(n)) for n in client.get(f"/api/state?token={token}").json()["cards"]}
    reply = post(client, token, {"kind": "show", "cards": {"Bo": "clic"}})
    assert reply.status_code == 409 and "only a Bang! Bang! Bang! is shown" in reply.json()["refused"]
    bbb = {n: c for n, c in hidden.items() if c == "bbb"}
    assert post(client, token, {"kind": "show", "cards": bbb}).json()["ok"]
    if referee.step.value == "throws":
        reply = post(client, token, {"kind": "throw", "thrower": "Bo", "knocked": ["Cy"]})
        assert reply.status_code == 409 and "Bo has no shuriken card in hand" in reply.json()["refused"]
        state = client.get(f"/api/state?token={token}").json()
        for n in state["who"]:
            if bots.card_of(n).value == "shuriken":
                if state["options"]["targets"][n]:
                    target = state["options"]["targets"][n][0]
                    assert post(client, token, {"kind": "throw", "thrower": n, "target": target, "knocked": [target]}).json()["ok"]
                else:
                    assert post(client, token, {"kind": "show", "cards": {n: "shuriken"}}).json()["ok"]
        assert post(client, token, {"kind": "throws-done"}).json()["ok"]
    state = client.get(f"/api/state?token={token}").json()
    reply = post(client, token, {"kind": "show", "cards": {}})
    if state["cards"]:
        assert reply.status_code == 409 and "has not shown the card played" in reply.json()["refused"]
    shown = {n: str(bots.card_of(n)) for n, c in state["cards"].items() if not c.get("later")}
    later = {n for n, c in state["cards"].items() if c.get("later")}
    assert later == set(session.referee.names(session.referee.round.hidden_cards())) - set(shown)
    assert post(client, token, {"kind": "show", "cards": shown}).json()["ok"]
    state = client.get(f"/api/state?token={token}").json()
    assert state["step"] == "discards" and set(state["cards"]) == later
    shown = {n: str(bots.card_of(n)) for n in state["cards"]}
    assert post(client, token, {"kind": "show", "cards": shown}).json()["ok"]
    state = client.get(f"/api/state?token={token}").json()
    assert state["round"] == 2 and state["step"] == "cards"
    assert any(line.strip().startswith(("Split", "No one shares")) or "cannot share" in line for line in state["log"])


def test_live_updates_and_two_godfather_pages(console):
    _session, hub, client = console
    token = gf(hub)
    with client.websocket_connect(f"/ws?token={token}") as first, client.websocket_connect(f"/ws?token={token}") as second:
        a, b = first.receive_json(), second.receive_json()
        assert a["step"] == b["step"] == "cards"
        assert post(client, token, {"kind": "cards", "cards": {}}).json()["ok"]  # page one wins
        reply = post(client, token, {"kind": "cards", "cards": {}})  # page two, a moment late
        assert reply.status_code == 409 and "expected aims" in reply.json()["refused"]
        assert first.receive_json()["step"] == "aims" and second.receive_json()["step"] == "aims"
    with client.websocket_connect(f"/ws?token={token}") as again:  # a page that reconnects gets everything back
        view = again.receive_json()
        assert view["step"] == "aims" and view["options"]["targets"] and view["players"]


def test_a_team_page_never_receives_another_teams_secrets_live(console):
    session, hub, client = console
    players = session.referee.game.players
    token = hub.tokens.teams["yellow"]
    others = {c for p in players if str(p.gang) != "yellow" for c in (p.power, p.object) if c}
    assert hub.view("godfather", None)["team_pages"] == 0  # the Godfather alone: the cards he taps go by themselves
    with client.websocket_connect(f"/ws?token={token}") as page:
        messages = [page.receive_json()]
        # a player's page open: the Godfather's page leaves the cards to the players' pages
        assert client.get(f"/api/state?token={gf(hub)}").json()["team_pages"] == 1
        for data in ({"kind": "cards", "cards": {}},):
            post(client, hub.tokens.godfather, data)
            messages.append(page.receive_json())
    for message in messages:
        text = json.dumps(message)
        assert not any(f'"{card}"' in text for card in others)
        assert message["secrets"] and all(s["player"] in {p.name for p in players if str(p.gang) == "yellow"} for s in message["secrets"])


def test_card_uses_entered_on_the_console(console):
    session, hub, client = console
    token = gf(hub)
    state = client.get(f"/api/state?token={token}").json()
    assert "geisha" in state["uses"] and state["uses"]["kevlar"]["moments"] == ["phase-5", "phase-5b", "phase-6", "deaths"]
    table = client.get("/api/state").json()
    assert "uses" not in table
    holder = next(p for p in session.referee.game.players if p.power)
    other = next(p for p in session.referee.game.players if p.power is None or p.power != holder.power)
    reply = post(client, token, {"kind": "use", "use": {"player": other.name, "card": holder.power, "when": "phase-1"}})
    assert reply.status_code == 409 and reply.json()["refused"] == (
        f"round 1: {other.name} may not use {CATALOG[holder.power].name}: {other.name} does not hold it"
    )
    reply = post(client, token, {"kind": "use", "use": {"player": "Zed", "card": "geisha"}})
    assert reply.status_code == 409 and "'Zed' is not a player" in reply.json()["refused"]


def test_the_intermission_ends_after_five_minutes():
    import time

    from console_kit import console_table

    from controller.console.relay import ConsoleSource
    from controller.table import inputs as I
    from controller.table.referee import Step

    session, hub = console_table(cards=False, devices=False)
    bots = session.bots
    session.source = bots
    while session.referee.step is not Step.INTERMISSION:
        session.play_step()
    prompt = session.referee.prompt()
    session.intermission_ends = time.time() + 120
    left = hub.view("table", None)["intermission_left"]
    assert 118 <= left <= 120
    session.intermission_ends = time.time() - 1
    assert ConsoleSource(hub).answer(prompt) == I.Resume()


def test_team_links_and_qr_codes_work_for_any_name_the_configuration_accepts():
    import urllib.error
    import urllib.request
    from urllib.parse import quote

    from controller.console.server import ConsoleServer

    names = ["C/d", "Bo#x", "Eve?&=", "Dée %20", "Fin+n"]
    _session, relay = console_table("classic", 5, names=names, cards=False, devices=False)
    server = ConsoleServer(relay, host="127.0.0.1", port=0)  # a real server: the test client decodes paths twice
    server.start()
    relay.base_url = f"http://127.0.0.1:{server.port}"
    try:
        for team, link in relay.team_links().items():
            assert urllib.request.urlopen(link).status == 200, (team, link)
            token = relay.tokens.teams[team]
            state = json.load(urllib.request.urlopen(f"{relay.base_url}/api/state?token={quote(token)}"))
            assert state["team"] == team
            svg = urllib.request.urlopen(f"{relay.base_url}/api/qr?team={quote(team, safe='')}&token={gf(relay)}")
            assert svg.status == 200 and svg.headers["content-type"].startswith("image/svg")
        with pytest.raises(urllib.error.HTTPError) as wrong:
            urllib.request.urlopen(f"{relay.base_url}/team/C%2Fd?token={relay.tokens.teams['Bo#x']}")
        assert wrong.value.code == 403
    finally:
        server.stop()


def test_the_cards_go_down_by_themselves_unless_the_godfather_asks_the_table_to_wait():
    import threading
    import time

    from controller.console.relay import ConsoleSource

    session, relay = console_table(cards=False, devices=False)
    prompt = session.referee.prompt()
    assert prompt.step.value == "cards"
    source = ConsoleSource(relay, cards_after=0.3)
    waiting = threading.Thread(target=source.answer, args=(prompt,))
    waiting.start()
    time.sleep(0.05)
    view = relay.view("godfather", None)
    assert view["auto"] and 0 < view["cards_in"] <= 0.3
    assert relay.submit({"kind": "wait"}) is None and relay.cards_held
    time.sleep(0.6)
    assert session.referee.step.value == "cards"  # held: the count waits
    assert relay.submit({"kind": "cards", "cards": {}}) is None  # "Start the count"
    waiting.join(timeout=2)
    assert not waiting.is_alive() and session.referee.step.value == "aims"
    assert relay.submit({"kind": "wait"}) == "the table waits only while the cards go down"
    session2, relay2 = console_table(cards=False, devices=False)  # without a wait, they go down by themselves
    assert ConsoleSource(relay2, cards_after=0.1).answer(session2.referee.prompt()) is None
    assert session2.referee.step.value == "aims" and session2.history.entries[-1].auto


def test_a_change_is_told_while_the_console_waits_for_the_session():
    """The console's source looks at the table without holding the relay's condition: a change told
    from another thread (the devices' clock showing the count, holding the clock's lock) never waits
    for the session's lock, which a page's view may hold while it reads the devices (that waits for
    the clock's lock): no three threads can hold each other up."""
    import contextlib
    import threading
    import time

    from controller.console.relay import ConsoleSource

    session, relay = console_table(cards=False, devices=False)
    prompt = session.referee.prompt()
    source = ConsoleSource(relay, cards_after=30.0)

    def answer() -> None:
        with contextlib.suppress(SystemExit):  # the console stopped
            source.answer(prompt)

    with session.lock:  # a view being built (the session's lock held)
        waiting = threading.Thread(target=answer, daemon=True)
        waiting.start()
        time.sleep(0.3)  # the source now looks at the table: it waits for the session's lock
        told = threading.Thread(target=relay.changed, daemon=True)  # the clock's callback: "2"
        told.start()
        told.join(timeout=2)
        assert not told.is_alive(), "a change waited for the session's lock"
    relay.stop()
    waiting.join(timeout=2)
    assert not waiting.is_alive()


@pytest.mark.parametrize("taken", [True, False])
def test_a_console_that_cannot_be_served_says_why_in_one_line(capfd, taken):
    from controller.console.server import ConsoleServer

    _session, relay = console_table("classic", 4, cards=False, devices=False)
    holder = socket.socket()
    holder.bind(("127.0.0.1", 0))
    holder.listen()
    port = holder.getsockname()[1]
    host = "127.0.0.1" if taken else "no-such-host.invalid"
    try:
        with pytest.raises(RuntimeError) as error:
            ConsoleServer(relay, host=host, port=port).start()
    finally:
        holder.close()
    said = str(error.value)
    assert said.startswith(f"the console could not start on {host}:{port}: ") and "\n" not in said
    assert ("address already in use" if taken else "not known") in said.lower()
    assert "console.host and console.port" in said
    assert capfd.readouterr().err == ""  # uvicorn's own lines are not printed beside it
