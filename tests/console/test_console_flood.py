"""Connections past the console's limits (on 127.0.0.1 only, bounded in count and time): sockets
that send half a request and stop, WebSockets without a token.  The Godfather's page still
answers, and the connections and memory held come back when they leave."""

from __future__ import annotations

import gc
import time
import urllib.request

from console_kit import console_table
from flood import (
    answer_time,
    close_all,
    half_open,
    open_files,
    rss_kib,
    websockets_without_token,
)

from controller.console.server import ConsoleServer, Limits

LIMITS = Limits(connections=40, per_address=8, request_seconds=1.5, keep_alive_seconds=1)


def test_a_flood_past_the_limits_leaves_the_godfathers_page_answering_and_memory_comes_back():
    _session, relay = console_table(devices=False)
    server = ConsoleServer(relay, host="127.0.0.1", port=0, limits=LIMITS)
    server.start()
    url = f"http://127.0.0.1:{server.port}/api/state?token={relay.tokens.godfather}"
    try:
        answer_time(url)
        gc.collect()
        files, memory = open_files(), rss_kib()
        held = half_open(server.port, 200, addresses=10)  # 10 addresses x 8 allowed, 40 in all
        try:
            time.sleep(0.3)
            assert server.guard.count() <= LIMITS.connections
            assert server.guard.refused + server.guard.evicted >= 200 - LIMITS.connections
            assert open_files() - files - len(held) <= LIMITS.connections + 10  # the rest were closed at once (server side)
            answer_time(url)  # the Godfather gets in: an idle connection gives way
            refused, other = websockets_without_token(server.port, 150)
            assert refused == 150 and other == 0
            assert relay.pages() == 0
            answer_time(url)
        finally:
            close_all(held)
        # what is only held open is closed after a while anyway
        again = half_open(server.port, 5, addresses=1)
        time.sleep(LIMITS.request_seconds + 1.5)
        assert server.guard.timed_out >= 5
        close_all(again)
        time.sleep(0.3)
        assert server.guard.count() <= 1 and relay.pages() == 0
        gc.collect()
        assert open_files() <= files + 2
        assert rss_kib() - memory < 30 * 1024  # KiB: the flood leaves no memory behind
        with urllib.request.urlopen(url) as reply:
            assert reply.status == 200
    finally:
        server.stop()
