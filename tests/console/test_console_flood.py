"""Connections past the console's limits (on 127.0.0.1 only, bounded in count and time): sockets
that send half a request and stop, WebSockets without a token.  The Godfather's page still
answers, and the connections and memory held come back when they leave."""

from __future__ import annotations

import contextlib
import gc
import json
import logging
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


def _never_reading_page(port: int, token: str, relay, *, or_closed: bool = False) -> socket.socket:
    """A live page that never reads, once the server's sends to it wait (its views pile up); with
    ``or_closed``, also once the server has already closed it (a short ping timeout may close it, on
    a busy machine, before its views pile up)."""
    stuck = socket.socket()
    stuck.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)  # set before connecting: a small window
    stuck.connect(("127.0.0.1", port))
    stuck.sendall(f"GET /ws?token={token} HTTP/1.1\r\nHost: table\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n".encode())
    deadline = time.monotonic() + 10
    live = False
    while not any(q.full() for ps in list(relay._pages.values()) for q, _, _ in list(ps)):
        assert time.monotonic() < deadline, "the page that never reads was never behind"
        live = live or relay.pages() > 0
        if or_closed and live and relay.pages() == 0:
            break
        relay.changed()
        time.sleep(0.002)
    assert live or relay.pages() > 0, "the page that never reads never became live"
    return stuck


@contextlib.contextmanager
def _server_errors():
    """What the console's server logs as errors meanwhile."""
    from controller.console.server import _Errors

    errors = _Errors()
    logger = logging.getLogger("uvicorn.error")
    logger.addHandler(errors)
    try:
        yield errors
    finally:
        logger.removeHandler(errors)


def test_a_page_that_never_reads_gives_way_to_the_same_links_newer_pages():
    """A phone whose page stopped reading (its live updates pile up, the server's sends wait) and the
    same link opened again, more times than a link keeps pages: each newer page gets its view, the
    oldest gives way, and nothing fails in the server's log."""
    from websockets.sync.client import connect

    from controller.console.relay import PAGES_PER_TOKEN

    _session, relay = console_table(devices=False)
    server = ConsoleServer(relay, host="127.0.0.1", port=0)
    with _server_errors() as errors:
        server.start()
        token = relay.tokens.godfather
        pages = []
        stack = contextlib.ExitStack()
        stuck = _never_reading_page(server.port, token, relay)
        try:
            for _ in range(PAGES_PER_TOKEN):
                page = stack.enter_context(connect(f"ws://127.0.0.1:{server.port}/ws?token={token}", open_timeout=5))
                pages.append(page)
                assert json.loads(page.recv(timeout=5))["role"] == "godfather"
            time.sleep(0.2)
            assert relay.pages() == PAGES_PER_TOKEN
            relay.changed()
            for page in pages:  # every newer page is live
                assert json.loads(page.recv(timeout=5))["role"] == "godfather"
            assert errors.messages == []
        finally:
            stack.close()
            stuck.close()
            server.stop()


def test_a_page_that_never_reads_is_cut_and_what_it_held_comes_back():
    """A live page that never reads does not answer pings: it is closed, and as it does not read its
    last bytes either, it is cut a moment later; its socket and its place among the live pages come back."""
    _session, relay = console_table(devices=False)
    limits = Limits(ping_seconds=0.3, close_seconds=0.5)
    server = ConsoleServer(relay, host="127.0.0.1", port=0, limits=limits)
    server.start()
    url = f"http://127.0.0.1:{server.port}/api/state?token={relay.tokens.godfather}"
    try:
        answer_time(url)
        files = open_files()
        stuck = _never_reading_page(server.port, relay.tokens.godfather, relay, or_closed=True)
        try:
            assert relay.pages() <= 1
            deadline = time.monotonic() + 2 * limits.ping_seconds + limits.close_seconds + 3
            while (relay.pages() or open_files() > files + 1) and time.monotonic() < deadline:
                time.sleep(0.1)
            assert relay.pages() == 0
            assert open_files() <= files + 1  # the page's own socket only: the server's side is closed
            answer_time(url)
        finally:
            stuck.close()
    finally:
        server.stop()


def test_the_console_stops_at_once_with_a_page_that_never_reads():
    """The table closing while a page does not read: the console does not wait for that page, and
    nothing fails in its log."""
    _session, relay = console_table(devices=False)
    server = ConsoleServer(relay, host="127.0.0.1", port=0)
    with _server_errors() as errors:
        server.start()
        stuck = _never_reading_page(server.port, relay.tokens.godfather, relay)
        try:
            server.stop()
            assert not server.thread.is_alive()
            # uvicorn, had it waited for that page, would have logged "Cancel 1 running task(s), timeout
            # graceful shutdown exceeded" after its 2 s: no error at all means it did not wait
            assert errors.messages == []
        finally:
            stuck.close()
