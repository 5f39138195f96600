"""Every input that is not a legal move is refused with its reason (409 or 400), never 500, and
changes nothing: the issue's examples, then property-based fuzzing (hypothesis) of the input
endpoint and of the WebSocket."""

from __future__ import annotations

import copy
import json

import pytest
from console_kit import console_table
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from controller.console.server import create_app
from controller.console.shapes import INPUTS
from controller.table.referee import Step


@pytest.fixture(scope="module")
def table():
    session, relay = console_table()
    with TestClient(create_app(relay)) as client:
        yield session, relay, client


def snapshot(session):
    referee = session.referee
    return json.dumps([referee.step.value, referee.prompt().round, referee.record.to_dict(),
                       [p.__dict__ for p in copy.deepcopy(referee.game.players)], session.history.count,
                       sorted(session.overridden)], default=str, sort_keys=True)


def post(client, relay, data):
    return client.post(f"/api/input?token={relay.tokens.godfather}", content=data if isinstance(data, bytes) else json.dumps(data))


@pytest.mark.parametrize("data", [
    {"kind": "cards", "cards": None}, {"kind": []}, {"kind": "sensor", "player": []}, {"kind": "aims", "aims": None},
    {"kind": "aims", "aims": {"Bo": ["Cy"]}}, {"kind": "show", "cards": {"Bo": 5}}, {"kind": "pick", "player": "Bo", "take": []},
    {"kind": "use", "use": {"player": "Bo", "card": "clip", "discard": [["clic"]]}}, {"kind": "use", "use": []},
    {"kind": "throw", "thrower": "Bo", "knocked": "Cy"}, {"kind": "throw", "thrower": "Bo", "confidence": True},
    {"kind": "withdraw", "withdrew": [None]}, {"kind": "undo", "count": "x"}, {"kind": "privilege", "player": 3},
    {"kind": "use", "use": {"player": "Bo", "card": "magnet", "took": {"Bo": ["bang"]}}}, [], "cards", 5, None,
    {"kind": "pile", "items": [{"a": 1}]}, {"kind": {"x": 1}}, {"kind": "cards", "cards": {"Bo": "clic"}, "x": 1},
])
def test_malformed_inputs_are_refused_with_their_reason(table, data):
    session, relay, client = table
    before = snapshot(session)
    reply = post(client, relay, data)
    assert reply.status_code in (400, 409), reply.text
    assert reply.json()["refused"] and "Traceback" not in reply.text
    assert snapshot(session) == before and relay.faults == 0


def test_bodies_too_large_or_too_deep_are_refused(table):
    session, relay, client = table
    before = snapshot(session)
    assert post(client, relay, b"[" * 20000 + b"]" * 20000).status_code in (400, 413)
    assert post(client, relay, b"{" + b" " * 40000 + b"}").status_code == 413
    assert post(client, relay, b"\xff\xfe").status_code == 400
    assert snapshot(session) == before


names = st.sampled_from(["Aiko", "Bo", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal", "Ivo", "Zed", "", "bo", "Aiko\x00"])
scalars = st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70), st.floats(allow_nan=True), names,
                    st.sampled_from(["clic", "bang", "bbb", "shuriken", "tanto", "cling", "godfather", "cash-5000", "phase-1",
                                     "geisha", "clip", "magnet", "wound", "blank", "sensors", "camera"]))
values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(names, inner, max_size=4)),
                      max_leaves=12)
fields = st.sampled_from(sorted({f for spec in INPUTS.values() for f in spec} | {"kind", "when", "card", "x"}))
inputs = st.builds(lambda kind, extra: {"kind": kind, **extra},
                   st.one_of(st.sampled_from(sorted(INPUTS)), values),
                   st.dictionaries(fields, values, max_size=5))


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=inputs)
def test_fuzzed_inputs_never_give_500_and_change_nothing_when_refused(table, data):
    session, relay, _ = table
    before = snapshot(session)
    step = session.referee.step
    reason = relay.submit(data)
    assert relay.faults == 0, data
    if reason is not None:
        assert isinstance(reason, str) and reason and "\n" not in reason
        assert snapshot(session) == before, data
    else:  # a legal move (or a sensor taken over): the game moved on; take it back when it may be
        assert data.get("kind") in INPUTS
        if session.referee.step is not step and session.history.last() is not None:
            assert session.undo() is None


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=inputs)
def test_fuzzed_inputs_over_http(table, data):
    session, relay, client = table
    before = snapshot(session)
    reply = post(client, relay, data)
    assert reply.status_code in (200, 400, 409), reply.text
    if reply.status_code != 200:
        assert reply.json()["refused"] and snapshot(session) == before
    elif session.history.last() is not None:
        session.undo()


def mutations(valid: dict):
    """One-field mutations of a valid input."""
    for key in list(valid):
        for value in (None, [], {}, 5, True, "Zed", [None], {"Zed": 1}, [[1]], "x" * 300):
            yield {**valid, key: value}
        yield {k: v for k, v in valid.items() if k != key}


def legal(session, data) -> bool:
    from controller.console import shapes
    from controller.table import inputs as I
    from controller.table.referee import Refused

    try:
        shapes.check(data)
        if data["kind"] in ("sensor", "undo"):
            return True
        session.referee.check(I.from_json(data))
    except (shapes.ShapeError, I.BadInput, Refused):
        return False
    return True


def test_one_field_mutations_of_legal_inputs_along_a_round(table):
    session, relay, _ = table
    bots = session.bots
    played = 0
    while session.referee.step not in (Step.CARDS,) or played == 0:
        prompt = session.referee.prompt()
        if prompt.step is Step.THROWS:
            valid = bots.answer(prompt)
        else:
            valid = bots.answer(prompt)
        data = valid.to_json()
        for bad in mutations(data):
            if legal(session, bad):
                continue  # a mutation that is still a legal move is not what this test is about
            before = snapshot(session)
            reason = relay.submit(bad)
            assert relay.faults == 0, bad
            assert reason is not None and snapshot(session) == before, bad
        assert relay.submit(data) is None, data
        played += 1
        if session.referee.step is Step.CARDS:
            break


def test_websockets_without_a_token_are_refused_and_messages_from_pages_are_ignored(table):
    session, relay, client = table
    with pytest.raises(WebSocketDisconnect) as refused, client.websocket_connect("/ws") as ws:
        ws.receive_json()
    assert refused.value.code == 1008
    with pytest.raises(WebSocketDisconnect), client.websocket_connect("/ws?token=nope") as ws:
        ws.receive_json()
    assert relay.pages() == 0
    before = snapshot(session)
    with client.websocket_connect(f"/ws?token={relay.tokens.godfather}") as ws:
        ws.receive_json()
        for message in ('{"kind": "cards", "cards": {}}', "x" * 3000, "\x00", "[]"):
            ws.send_text(message)
        ws.send_bytes(b"\xff" * 100)
        assert relay.pages() == 1
    assert snapshot(session) == before


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(messages=st.lists(st.one_of(st.text(max_size=200), st.binary(max_size=200), values.map(json.dumps)), max_size=5),
       token=st.one_of(st.just("gf"), st.text(max_size=30)))
def test_fuzzed_websocket_sessions(table, messages, token):
    session, relay, client = table
    before = snapshot(session)
    from urllib.parse import quote

    real = relay.tokens.godfather if token == "gf" else token
    try:
        with client.websocket_connect(f"/ws?token={quote(real, safe='')}") as ws:
            assert ws.receive_json()["role"] in ("godfather", "team")
            for m in messages:
                (ws.send_bytes if isinstance(m, bytes) else ws.send_text)(m)
    except WebSocketDisconnect as closed:
        assert real != relay.tokens.godfather and closed.code == 1008
    assert snapshot(session) == before
    assert relay.pages() == 0
