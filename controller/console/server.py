"""The console's web server: Starlette on uvicorn, plain HTML, CSS and a little JavaScript.

Pages: ``/godfather?token=...`` (the Godfather), ``/team/NAME?token=...`` (a gang's, or a
player's, own page), ``/`` (the table, for anyone).  JSON: ``GET /api/state``, ``POST
/api/input`` (the Godfather's inputs), ``GET /api/frame`` (the frame a camera verdict was
judged on), ``GET /api/qr/TEAM.svg`` (a team link as a QR code).  Live updates: the
``/ws`` WebSocket sends the page's full view at once, then again after every change.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import logging
import threading
from pathlib import Path

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from .hub import Hub
from .views import GODFATHER

STATIC = Path(__file__).resolve().parent / "static"
log = logging.getLogger(__name__)


def create_app(hub: Hub) -> Starlette:
    """The console's web application for ``hub``."""

    def role_of(request) -> tuple[str, str | None]:
        return hub.tokens.role(request.query_params.get("token"))

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "console.html", headers={"Cache-Control": "no-store"})

    async def team_page(request: Request) -> Response:
        role, team = role_of(request)
        if role != "team" or team != request.path_params["team"]:
            return JSONResponse({"error": "this link's token is not this team's"}, status_code=403)
        return await page(request)

    async def godfather_page(request: Request) -> Response:
        if role_of(request)[0] != GODFATHER:
            return JSONResponse({"error": "the Godfather's page needs the Godfather's token"}, status_code=403)
        return await page(request)

    async def state(request: Request) -> Response:
        return JSONResponse(hub.view(*role_of(request)))

    async def submit(request: Request) -> Response:
        role, _ = role_of(request)
        if role != GODFATHER:
            return JSONResponse({"ok": False, "refused": "only the Godfather enters inputs"}, status_code=403)
        try:
            data = await request.json()
        except (json.JSONDecodeError, UnicodeDecodeError):
            return JSONResponse({"ok": False, "refused": "the input is not JSON"}, status_code=400)
        reason = await asyncio.get_running_loop().run_in_executor(None, hub.submit, data)
        view = hub.view(role, None)
        if reason is not None:
            return JSONResponse({"ok": False, "refused": reason, "state": view}, status_code=409)
        return JSONResponse({"ok": True, "state": view})

    async def frame(request: Request) -> Response:
        if role_of(request)[0] != GODFATHER:
            return Response(status_code=403)
        if hub.session.frame is None:
            return Response(status_code=404)
        return Response(hub.session.frame, media_type="image/jpeg", headers={"Cache-Control": "no-store"})

    async def qr(request: Request) -> Response:
        if role_of(request)[0] != GODFATHER:
            return Response(status_code=403)
        team = request.path_params["team"]
        link = hub.team_links().get(team)
        if link is None:
            return Response(status_code=404)
        import segno

        out = io.BytesIO()
        segno.make(link, error="m").save(out, kind="svg", scale=4, border=2)
        return Response(out.getvalue(), media_type="image/svg+xml")

    async def live(websocket: WebSocket) -> None:
        role, team = hub.tokens.role(websocket.query_params.get("token"))
        await websocket.accept()
        queue = hub.subscribe(role, team)
        try:
            await websocket.send_json(hub.view(role, team))
            while True:
                await websocket.send_json(await queue.get())
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            hub.unsubscribe(queue)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        hub.attach(asyncio.get_running_loop())
        yield

    return Starlette(
        routes=[
            Route("/", page),
            Route("/godfather", godfather_page),
            Route("/team/{team}", team_page),
            Route("/api/state", state),
            Route("/api/input", submit, methods=["POST"]),
            Route("/api/frame", frame),
            Route("/api/qr/{team}.svg", qr),
            WebSocketRoute("/ws", live),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ],
        lifespan=lifespan,
    )


class ConsoleServer:
    """The console served by uvicorn in a thread of its own."""

    def __init__(self, hub: Hub, *, host: str, port: int) -> None:
        import uvicorn

        self.hub = hub
        config = uvicorn.Config(create_app(hub), host=host, port=port, log_level="warning", lifespan="on")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, name="console", daemon=True)

    def start(self, timeout: float = 10.0) -> None:
        self.thread.start()
        waited = 0.0
        while not self.server.started and waited < timeout:
            threading.Event().wait(0.02)
            waited += 0.02
        if not self.server.started:
            raise RuntimeError(f"the console could not start on port {self.server.config.port}")

    @property
    def port(self) -> int:
        sockets = [s for server in self.server.servers for s in server.sockets]
        return sockets[0].getsockname()[1] if sockets else self.server.config.port

    def stop(self) -> None:
        self.hub.stop()
        self.server.should_exit = True
        self.thread.join(timeout=5)
