"""The page's JSON API and its event stream: the game's state, a guess, undo / new /
press, the settings, a finished game's review (server.py lists the routes)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from epdle.web.calls import calls_of, error
from epdle.web.events import event_stream
from epdle.web.review import review_request


async def get_state(request: Request) -> Response:
    return JSONResponse(await calls_of(request).current_state())


async def post_guess(request: Request) -> Response:
    calls = calls_of(request)
    body = await calls.json_body(request)
    word, colours, turn = body.get("word"), body.get("colours"), body.get("turn")
    if not isinstance(word, str) or not isinstance(colours, str):
        return error(400, 'send {"word": "salet", "colours": "BBYBB"}')
    if turn is not None and (type(turn) is not int or turn < 0):
        return error(400, "turn must be the number of guesses the page saw (0 or more)")
    return await calls.act(calls.session.guess, word, colours, turn)


async def post_plain(request: Request) -> Response:
    calls = calls_of(request)
    await calls.body_of(request)  # bounded, and ignored
    session = calls.session
    action = {
        "/api/undo": session.undo,
        "/api/new": session.new,
        "/api/press": session.press,
    }[request.url.path]
    return await calls.act(action)


async def post_settings(request: Request) -> Response:
    calls = calls_of(request)
    body = await calls.json_body(request)
    switches = ("hard", "blind", "full_refresh")
    unknown = set(body) - {"strategy", *switches}
    if unknown:
        return error(400, f"unknown setting(s): {', '.join(sorted(unknown))}")
    strategy = body.get("strategy")
    if strategy is not None and not isinstance(strategy, str):
        return error(400, "strategy must be a string")
    for name in switches:
        if body.get(name) is not None and not isinstance(body[name], bool):
            return error(400, f"{name} must be true or false")
    hard, blind, full_refresh = (body.get(name) for name in switches)
    return await calls.act(calls.session.change_settings, strategy, hard, blind, full_refresh)


async def post_review(request: Request) -> Response:
    calls = calls_of(request)
    body = await calls.json_body(request)
    try:
        run = review_request(body, calls.session.controller.game)
    except ValueError as problem:
        return error(400, str(problem))
    reply = await calls.on_session(run)  # the game's solvers, one caller at a time
    if reply.error is not None:
        return error(reply.status, reply.error)
    return JSONResponse(reply.value)


async def events(request: Request) -> Response:
    calls = calls_of(request)
    first = await calls.current_state()
    options = calls.options
    stream = event_stream(calls.hub, first, options.max_events, options.keepalive)
    return StreamingResponse(
        stream,
        media_type="text/event-stream",
        headers={"cache-control": "no-store", "x-accel-buffering": "no"},
    )


ROUTES = [
    Route("/api/state", get_state, methods=["GET"]),
    Route("/api/guess", post_guess, methods=["POST"]),
    Route("/api/undo", post_plain, methods=["POST"]),
    Route("/api/new", post_plain, methods=["POST"]),
    Route("/api/press", post_plain, methods=["POST"]),
    Route("/api/settings", post_settings, methods=["POST"]),
    Route("/api/review", post_review, methods=["POST"]),
    Route("/api/events", events, methods=["GET"]),
]
