"""The page itself: its static files, and the picture of what the panel shows."""

from __future__ import annotations

from importlib import resources

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from epdle.web.calls import calls_of

# The page's files, by the only names a request can ask for.
STATIC_FILES = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/app.js": ("app.js", "text/javascript; charset=utf-8"),
    "/board.js": ("board.js", "text/javascript; charset=utf-8"),
    "/review.js": ("review.js", "text/javascript; charset=utf-8"),
    "/boards.js": ("boards.js", "text/javascript; charset=utf-8"),
    "/suggestions.js": ("suggestions.js", "text/javascript; charset=utf-8"),
    "/style.css": ("style.css", "text/css; charset=utf-8"),
    "/review.css": ("review.css", "text/css; charset=utf-8"),
}


def static_file(name: str) -> bytes:
    return resources.files("epdle.web").joinpath("static", name).read_bytes()


async def page(request: Request) -> Response:
    name, media_type = STATIC_FILES[request.url.path]
    return Response(static_file(name), media_type=media_type, headers={"cache-control": "no-cache"})


async def panel(request: Request) -> Response:
    calls = calls_of(request)
    session = calls.session
    cached = session.cached_panel_png()
    version, png = cached if cached is not None else await calls.on_session(session.panel_png)
    return Response(
        png,
        media_type="image/png",
        headers={"cache-control": "no-store", "x-panel-version": str(version)},
    )


ROUTES = [Route(path, page, methods=["GET"]) for path in STATIC_FILES]
ROUTES += [Route("/panel.png", panel, methods=["GET"])]
