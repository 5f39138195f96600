"""Connections past the console's limits (on 127.0.0.1 only, bounded in count and time): sockets
that send half a request and stop, WebSockets without a token.  The Godfather's page still
answers, and the connections and memory held come back when they leave."""

from __future__ import annotations

import contextlib
import gc
import socket
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


def _reply(sock: socket.socket) -> bytes:
    """An HTTP reply's status line and headers, and its body (by its length); b"" if the connection closed."""
    data = b""
    while b"\r\n\r\n" not in data:
        try:
            chunk = sock.recv(4096)
        except OSError:  # reset: refused
            return b""
        if not chunk:
            return b""
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = next((int(line.split(b":")[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:")), 0)
    while len(body) < length:
        chunk = sock.recv(4096)
        if not chunk:
            break
        body += chunk
    return head


def test_a_phones_idle_connections_give_way_to_its_next_request_and_busy_ones_do_not():
    """A browser keeps idle connections open between its requests, and one phone may hold several
    pages (the Godfather's and his own player's): past the limit for its address, its next request
    still gets in (an idle connection of that address gives way); when every connection of that
    address is busy (live pages), the next one is refused."""
    from websockets.sync.client import connect

    _session, relay = console_table(devices=False)
    limits = Limits(per_address=4)
    server = ConsoleServer(relay, host="127.0.0.1", port=0, limits=limits)
    server.start()
    request = f"GET /api/state?token={relay.tokens.godfather} HTTP/1.1\r\nHost: table\r\n\r\n".encode()
    held: list[socket.socket] = []
    try:
        for _ in range(limits.per_address):  # a page's connections, each idle after its request
            sock = socket.create_connection(("127.0.0.1", server.port), timeout=5)
            sock.sendall(request)
            assert _reply(sock).startswith(b"HTTP/1.1 200")
            held.append(sock)
        sock = socket.create_connection(("127.0.0.1", server.port), timeout=5)
        held.append(sock)
        sock.sendall(request)  # the page's next request (its script, an input) on a new connection
        assert _reply(sock).startswith(b"HTTP/1.1 200")
        assert server.guard.evicted == 1 and server.guard.refused == 0
        assert _reply(held[0]) == b""  # the oldest idle one was closed
        close_all(held)
        time.sleep(0.3)
        url = f"ws://127.0.0.1:{server.port}/ws?token={relay.tokens.godfather}"
        with contextlib.ExitStack() as stack:  # live pages: busy, never closed for another
            for _ in range(limits.per_address):
                stack.enter_context(connect(url, open_timeout=5)).recv(timeout=5)
            sock = socket.create_connection(("127.0.0.1", server.port), timeout=5)
            held.append(sock)
            sock.sendall(request)
            assert _reply(sock) == b""
            assert server.guard.refused == 1
    finally:
        close_all(held)
        server.stop()
