"""Hostile clients on the loopback network, for the flood test and bench/bench_console.py:
sockets that send half a request and stop, and WebSocket handshakes without a token."""

from __future__ import annotations

import socket
import time


def half_open(port: int, count: int, *, addresses: int = 8) -> list[socket.socket]:
    """``count`` connections from 127.0.0.2... that send half a request's headers, then nothing."""
    held = []
    for k in range(count):
        s = socket.socket()
        s.settimeout(2)
        try:
            s.bind((f"127.0.0.{2 + k % addresses}", 0))
            s.connect(("127.0.0.1", port))
            s.sendall(b"GET /api/state HTTP/1.1\r\nHost: table\r\nX-Slow: ")
        except OSError:
            s.close()
            continue
        held.append(s)
    return held


def websockets_without_token(port: int, count: int, *, addresses: int = 8) -> tuple[int, int]:
    """``count`` WebSocket handshakes without a token: (refused, answered otherwise)."""
    refused = other = 0
    for k in range(count):
        s = socket.socket()
        s.settimeout(3)
        try:
            s.bind((f"127.0.0.{40 + k % addresses}", 0))
            s.connect(("127.0.0.1", port))
            s.sendall(b"GET /ws HTTP/1.1\r\nHost: table\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                      b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
            answer = s.recv(200)
            if answer.startswith(b"HTTP/1.1 403") or not answer:
                refused += 1
            else:
                other += 1
        except OSError:
            refused += 1  # closed on it
        finally:
            s.close()
    return refused, other


def close_all(held: list[socket.socket]) -> None:
    for s in held:
        s.close()


def answer_time(url: str, *, tries: int = 20) -> float:
    """Seconds until ``url`` answers 200 (retrying a refused connection, as a page does)."""
    import urllib.request

    start = time.perf_counter()
    for _ in range(tries):
        try:
            with urllib.request.urlopen(url, timeout=5) as reply:
                reply.read()
                if reply.status == 200:
                    return time.perf_counter() - start
        except OSError:
            time.sleep(0.05)
    raise AssertionError(f"{url} did not answer")


def rss_kib(pid: int | str = "self") -> int:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def open_files(pid: int | str = "self") -> int:
    import os

    return len(os.listdir(f"/proc/{pid}/fd"))
