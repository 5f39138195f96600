"""The console's web server: Starlette on uvicorn, plain HTML, CSS and a little JavaScript.

Pages: ``/godfather?token=...`` (the Godfather), ``/team/NAME?token=...`` (a gang's, or a
player's, own page), ``/`` (the table, for anyone).  JSON: ``GET /api/state``, ``POST
/api/input`` (the Godfather's inputs, and a team page's own loot picks and cards), ``GET /api/frame`` (the frame a camera verdict or the
camera's aims were judged on), ``GET /api/qr?team=NAME`` (a team link as a QR code).  Live
updates: the ``/ws`` WebSocket (pages with a token only) sends the page's full view at once,
then again after every change; the table page without a token asks ``/api/state`` instead.

The console listens on the table's network, where anyone can reach it: connections are
limited in number (in all and per address), a request must arrive whole within a few
seconds, bodies and WebSocket messages are small, and a WebSocket without a token is refused
before anything is kept for it (see :class:`Limits`).
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import gc
import html
import io
import json
import logging
import re
import socket
import threading
import weakref
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect
from uvicorn.protocols.http.h11_impl import H11Protocol

from ..table.session import Session
from ..threads import join
from .relay import TEAM_INPUTS, ConsoleSource, Relay
from .tokens import GODFATHER, TABLE, TEAM, Tokens

STATIC = Path(__file__).resolve().parent / "static"
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Limits:
    """What the console allows one client, and all of them (the table's file limit fits these:
    see hardware/cashnguns-table.service)."""

    connections: int = 96  # open at once, all clients
    per_address: int = 16  # open at once, from one address
    request_seconds: float = 8.0  # to send a request's headers and body
    keep_alive_seconds: int = 5  # idle between two requests
    body_bytes: int = 32 * 1024  # an input
    header_bytes: int = 16 * 1024
    message_bytes: int = 4 * 1024  # a WebSocket message from a page (pages send none)
    ping_seconds: float = 10.0  # a live page answers a ping within this, else it is closed
    close_seconds: float = 5.0  # a live page being closed that does not read its last bytes in this is cut


def _error_page(status: int, title: str, text: str) -> HTMLResponse:
    body = (
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
        f"<title>{html.escape(title)}</title><link rel=\"stylesheet\" href=\"/static/console.css\"></head>"
        f"<body class=\"error-page\"><main><h1>{html.escape(title)}</h1><p>{html.escape(text)}</p>"
        "<p><a href=\"/\">See the table</a></p></main></body></html>"
    )
    return HTMLResponse(body, status_code=status, headers={"Cache-Control": "no-store"})


async def _read_body(request: Request, limit: int) -> bytes | None:
    """The request's body, or ``None`` if it is larger than ``limit``."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > limit):
        return None
    data = bytearray()
    async for chunk in request.stream():
        data += chunk
        if len(data) > limit:
            return None
    return bytes(data)


def _malloc_trim() -> None:
    """Return the freed heap to the system (glibc); elsewhere, nothing."""
    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass


def create_app(relay: Relay, limits: Limits = Limits(), guard: Guard | None = None) -> Starlette:
    """The console's web application for ``relay``."""

    def role_of(request: Request | WebSocket) -> tuple[str, str | None]:
        return relay.tokens.role(request.query_params.get("token"))

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "console.html", headers={"Cache-Control": "no-store"})

    async def team_page(request: Request) -> Response:
        role, team = role_of(request)
        wanted = request.path_params["team"]
        if role != TEAM or team != wanted:
            return _error_page(403, "This link does not open this page",
                               f"The link of {wanted}'s page is not right: ask the Godfather for the QR code of {wanted}'s page.")
        return await page(request)

    async def godfather_page(request: Request) -> Response:
        if role_of(request)[0] != GODFATHER:
            return _error_page(403, "This is not the Godfather's link",
                               "The Godfather's page needs the link printed when the table started (with its token).")
        return await page(request)

    async def state(request: Request) -> Response:
        return JSONResponse(relay.view(*role_of(request)))

    async def submit(request: Request) -> Response:
        role, team = role_of(request)
        if role not in (GODFATHER, TEAM):
            return JSONResponse({"ok": False, "refused": "only the Godfather and the players' own pages enter inputs"},
                                status_code=403)
        try:
            raw = await _read_body(request, limits.body_bytes)
        except ClientDisconnect:
            return Response(status_code=400)
        if raw is None:
            return JSONResponse({"ok": False, "refused": f"the input is larger than {limits.body_bytes} bytes"}, status_code=413)
        try:
            data = json.loads(raw)
        except (ValueError, RecursionError):
            return JSONResponse({"ok": False, "refused": "the input is not JSON"}, status_code=400)
        by = team if role == TEAM else None
        if by is not None and (not isinstance(data, dict) or data.get("kind") not in TEAM_INPUTS):
            return JSONResponse({"ok": False, "refused": "only the Godfather enters this"}, status_code=403)
        reason = await asyncio.get_running_loop().run_in_executor(None, lambda: relay.submit(data, team=by))
        view = relay.view(role, by)
        if reason is not None:
            return JSONResponse({"ok": False, "refused": reason, "state": view}, status_code=409)
        return JSONResponse({"ok": True, "state": view})

    async def frame(request: Request) -> Response:
        if role_of(request)[0] != GODFATHER:
            return Response(status_code=403)
        image = relay.session.frame
        if image is None:
            return Response(status_code=404)
        return Response(image, media_type="image/jpeg", headers={"Cache-Control": "no-store"})

    async def qr(request: Request) -> Response:
        if role_of(request)[0] != GODFATHER:
            return Response(status_code=403)
        team = request.query_params.get("team", "")
        if team not in relay.tokens.teams:
            return Response(status_code=404)
        import segno

        out = io.BytesIO()
        segno.make(relay.team_link(team), error="m").save(out, kind="svg", scale=4, border=2)
        return Response(out.getvalue(), media_type="image/svg+xml")

    async def live(websocket: WebSocket) -> None:
        token = websocket.query_params.get("token") or ""
        role, team = relay.tokens.role(token)
        if role == TABLE:  # refused before anything is kept for it
            await websocket.close(code=1008)
            return
        await websocket.accept()
        queue = relay.subscribe(token, role, team)  # the oldest page of this token may give way
        receiver = asyncio.ensure_future(_drain(websocket))
        try:
            await websocket.send_json(relay.view(role, team))
            while True:
                getter = asyncio.ensure_future(queue.get())
                done, _ = await asyncio.wait({getter, receiver}, return_when=asyncio.FIRST_COMPLETED)
                if getter not in done:
                    getter.cancel()
                    break
                view = getter.result()
                if view is None:
                    await websocket.close(code=1001)
                    break
                await websocket.send_json(view)
        except (WebSocketDisconnect, RuntimeError, OSError):
            pass
        finally:
            receiver.cancel()
            relay.unsubscribe(queue)

    async def tidy() -> None:
        while guard is not None:
            await asyncio.sleep(5)
            guard.give_back()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        relay.attach(asyncio.get_running_loop())
        task = asyncio.ensure_future(tidy())
        yield
        task.cancel()

    return Starlette(
        routes=[
            Route("/", page),
            Route("/godfather", godfather_page),
            Route("/team/{team:path}", team_page),
            Route("/api/state", state),
            Route("/api/input", submit, methods=["POST"]),
            Route("/api/frame", frame),
            Route("/api/qr", qr),
            WebSocketRoute("/ws", live),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ],
        lifespan=lifespan,
    )


async def _drain(websocket: WebSocket) -> None:
    """Read (and forget) what a page sends, until it goes away."""
    with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                return


class Guard:
    """Counts the open connections, in all and per address, and closes those that send a request
    too slowly.  Past the limit for its address, the oldest connection of that address still waiting
    for its request gives way (a browser keeps idle connections open between its requests, and a
    phone may hold several pages: its next request always gets in), and a new connection is closed
    at once only when all of that address's connections are busy; past the limit for all, the
    oldest connection still waiting for its request gives way (so the Godfather's next request
    always gets in while some of the connections are only held open)."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.open: dict[str, list[H11Protocol]] = {}
        self.refused = 0
        self.evicted = 0
        self.timed_out = 0
        self.seen = 0  # connections admitted since memory was last given back
        self.everyone: weakref.WeakSet[H11Protocol] = weakref.WeakSet()  # admitted, closed or not
        self.loop: asyncio.AbstractEventLoop | None = None

    def _prune(self) -> None:
        for address, protocols in list(self.open.items()):
            protocols[:] = [p for p in protocols if p.transport is not None and not p.transport.is_closing()]
            if not protocols:
                del self.open[address]

    def count(self) -> int:
        """Connections open now (WebSockets included)."""
        self._prune()
        return sum(len(p) for p in self.open.values())

    @staticmethod
    def _idle(protocol: H11Protocol) -> bool:
        """Waiting for a request (or the rest of one): not handling one, not a WebSocket."""
        upgraded = protocol not in protocol.connections
        cycle = protocol.cycle
        return not upgraded and (cycle is None or cycle.response_complete or cycle.more_body)

    def _give_way(self, protocols: list[H11Protocol]) -> bool:
        """Close the oldest of ``protocols`` waiting for a request; ``False`` if all are busy."""
        idle = [p for p in protocols if self._idle(p)]
        if not idle:
            self.refused += 1
            return False
        oldest = min(idle, key=lambda p: getattr(p, "_since", 0.0))
        oldest.transport.close()
        self.evicted += 1
        self._prune()
        return True

    def admit(self, protocol: H11Protocol, address: str) -> bool:
        self._prune()
        mine = self.open.get(address, [])
        if len(mine) >= self.limits.per_address and not self._give_way(mine):
            return False
        if self.count() >= self.limits.connections and not self._give_way([p for ps in self.open.values() for p in ps]):
            return False
        self.open.setdefault(address, []).append(protocol)
        self.everyone.add(protocol)
        self.loop = protocol.loop
        self.seen += 1
        return True

    def cut_behind(self) -> int:
        """Cut the live pages whose sends wait for them to read (closing or not): the server stopping
        does not wait for them.  How many were cut."""
        behind = [p for p in list(self.everyone)
                  if p not in p.connections and p.transport is not None and p.transport.get_write_buffer_size() > 0]
        for protocol in behind:
            protocol.transport.abort()
        return len(behind)

    def give_back(self) -> bool:
        """After many connections came and went, give the memory they used back to the system."""
        if self.seen < 200 or self.count() > self.limits.connections // 4:
            return False
        self.seen = 0
        gc.collect()
        _malloc_trim()
        return True

    def protocol(self) -> type[H11Protocol]:
        """uvicorn's HTTP protocol, with these limits."""
        guard = self

        class GuardedH11(H11Protocol):
            def connection_made(self, transport):  # type: ignore[no-untyped-def]
                super().connection_made(transport)
                self._since = self.loop.time()
                peer = self.client[0] if self.client else "?"
                if not guard.admit(self, peer):
                    transport.abort()
                    return
                self._watch = self.loop.call_later(1.0, self._check)

            def on_response_complete(self) -> None:
                super().on_response_complete()
                self._since = self.loop.time()

            def _check(self) -> None:
                if self not in self.connections:  # now a WebSocket
                    self._check_live()
                    return
                if self.transport.is_closing():
                    return
                waiting = self.cycle is None or self.cycle.response_complete  # for a request (or its headers)
                receiving = self.cycle is not None and not self.cycle.response_complete and self.cycle.more_body
                allowed = guard.limits.request_seconds + (guard.limits.keep_alive_seconds if waiting and self.cycle else 0)
                if (waiting or receiving) and self.loop.time() - self._since > allowed:
                    guard.timed_out += 1
                    self.transport.close()
                    return
                self._watch = self.loop.call_later(1.0, self._check)

            def _check_live(self) -> None:
                """A live page that does not read (a frozen phone, or one that means harm) keeps the
                server's sends waiting, and its socket open even once closed (the bytes not yet sent
                wait for it): past ``close_seconds`` of closing, it is cut."""
                if not self.transport.is_closing():
                    self._since = self.loop.time()
                elif self.loop.time() - self._since > guard.limits.close_seconds:
                    self.transport.abort()  # nothing if it is closed already
                    return
                self._watch = self.loop.call_later(1.0, self._check)

            def connection_lost(self, exc):  # type: ignore[no-untyped-def]
                watch = getattr(self, "_watch", None)
                if watch is not None:
                    watch.cancel()
                super().connection_lost(exc)

        return GuardedH11


class _Errors(logging.Handler):
    """The errors a logger gives, kept."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


class ConsoleServer:
    """The console served by uvicorn in a thread of its own."""

    def __init__(self, relay: Relay, *, host: str, port: int, limits: Limits = Limits()) -> None:
        import uvicorn

        self.relay = relay
        self.guard = Guard(limits)
        config = uvicorn.Config(
            create_app(relay, limits, self.guard), host=host, port=port, log_level="warning", lifespan="on",
            http=self.guard.protocol(), ws="websockets-sansio",
            limit_concurrency=limits.connections + 8, timeout_keep_alive=limits.keep_alive_seconds,
            h11_max_incomplete_event_size=limits.header_bytes, ws_max_size=limits.message_bytes, ws_max_queue=4,
            ws_ping_interval=limits.ping_seconds, ws_ping_timeout=limits.ping_seconds, ws_per_message_deflate=False, backlog=128,
            access_log=False, server_header=False, timeout_graceful_shutdown=2,
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self._run, name="console", daemon=True)

    def _run(self) -> None:
        try:
            self.server.run()
        except SystemExit:  # uvicorn's way out when it cannot start: start() says why
            pass

    def start(self, timeout: float = 10.0) -> None:
        """Serve, or raise one line saying why the console cannot be served (its address, its port)."""
        errors = _Errors()
        logger = logging.getLogger("uvicorn.error")  # what uvicorn says while it starts is said in that line
        logger.addHandler(errors)
        propagate, logger.propagate = logger.propagate, False
        try:
            self.thread.start()
            waited = 0.0
            while not self.server.started and waited < timeout and self.thread.is_alive():
                threading.Event().wait(0.02)
                waited += 0.02
        finally:
            logger.removeHandler(errors)
            logger.propagate = propagate
        if not self.server.started:
            config = self.server.config
            why = re.sub(r"^\[Errno -?\d+\] ", "", errors.messages[-1]) if errors.messages else "no answer"
            raise RuntimeError(f"the console could not start on {config.host}:{config.port}: {why} "
                               "(console.host and console.port of the table configuration)")

    @property
    def port(self) -> int:
        sockets = [s for server in self.server.servers for s in server.sockets]
        return int(sockets[0].getsockname()[1]) if sockets else int(self.server.config.port)

    def stop(self) -> None:
        self.relay.stop()
        loop = self.guard.loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
                loop.call_soon_threadsafe(self.guard.cut_behind)
        self.server.should_exit = True
        join(self.thread, timeout=5)


def serve(session: Session, tokens: Tokens, *, host: str, port: int, say: Callable[[str], None],
          saved: Callable[[int], Any] | None = None) -> tuple[ConsoleSource, Callable[[], None]]:
    """Serve the console for ``session``: returns its input source and a function that stops it.

    ``saved``, if given, is called with the port the console got (to keep it for a resume)."""
    relay = Relay(session, tokens)
    source = ConsoleSource(relay)
    server = ConsoleServer(relay, host=host, port=port)
    server.start()
    shown_host = host if host not in ("0.0.0.0", "::", "") else _lan_address()
    relay.base_url = f"http://{shown_host}:{server.port}"
    if saved is not None:
        saved(server.port)
    say(f"The Godfather's console: {relay.godfather_link()}")
    say(f"The table, for anyone: {relay.base_url}/")
    return source, server.stop


def _lan_address() -> str:
    """The name phones on the local network reach this machine by (mDNS, as Raspberry Pi OS has)."""
    name = socket.gethostname()
    return name if "." in name else f"{name}.local"


__all__ = ["ConsoleServer", "Guard", "Limits", "create_app", "serve"]
