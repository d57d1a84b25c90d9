"""What keeps other pages (and other machines) from driving the device through the browser.

- Host header: only the address the server listens on (DNS rebinding);
- Origin: a state change (any method but GET/HEAD) from a foreign page is refused;
- token: when listening on another address than loopback, every request carries the
  random token printed with the URL (once in the URL, then in a same-site cookie);
- bodies: bounded (`MAX_BODY_BYTES`) and timed (`BODY_TIMEOUT_S`), read by `read_body`;
- refusals: logged and the last `REFUSALS_KEPT` kept, each line cut short, so a flood of
  refused requests costs no memory.
"""

from __future__ import annotations

import asyncio
import html
import json
import logging
import secrets
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from importlib import resources
from urllib.parse import parse_qs

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from epdle.logtext import escaped, escaping

log = escaping(logging.getLogger("epdle.web"))

MAX_BODY_BYTES = 4096
# A request's body must be all in this long after its headers.
BODY_TIMEOUT_S = 10.0
REFUSALS_KEPT = 100
# How much of a refused request's path or header a log line or a kept refusal quotes.
SHOWN_CHARACTERS = 80
TOKEN_COOKIE = "epdle_token"
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")
SAFE_METHODS = {"GET", "HEAD"}

SECURITY_HEADERS = [
    (
        b"content-security-policy",
        b"default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
        b"connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-resource-policy", b"same-origin"),
]


def host_with_port(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def allowed_hosts(host: str, port: int) -> set[str]:
    """Host header values the server answers: its address, and on loopback its other names."""
    names = {host}
    if host in LOOPBACK_HOSTS:
        names |= set(LOOPBACK_HOSTS)
    return {host_with_port(name, port) for name in names}


WILDCARD_HOSTS = ("0.0.0.0", "::")


@dataclass
class Guard:
    hosts: set[str] | None  # None: any (listening on every address: the token guards)
    token: str | None = None
    # One line per refused request, the last REFUSALS_KEPT of them; `refusals` counts all.
    refused: deque[str] = field(default_factory=lambda: deque(maxlen=REFUSALS_KEPT))
    refusals: int = 0

    @classmethod
    def for_address(cls, host: str, port: int, extra_hosts: Iterable[str] = ()) -> Guard:
        token = None if host in LOOPBACK_HOSTS else secrets.token_urlsafe(18)
        if host in WILDCARD_HOSTS:
            return cls(None, token)
        return cls(allowed_hosts(host, port) | set(extra_hosts), token)


class RequestTooLarge(Exception):
    pass


class RequestTimedOut(Exception):
    pass


async def read_body(
    receive: Receive, limit: int = MAX_BODY_BYTES, timeout: float = BODY_TIMEOUT_S
) -> bytes:
    """The request's body, at most `limit` bytes, all in within `timeout` seconds."""
    chunks: list[bytes] = []
    size = 0
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        try:
            message = await asyncio.wait_for(receive(), max(deadline - loop.time(), 0.0))
        except TimeoutError:
            raise RequestTimedOut(f"request body not complete within {timeout:g} s") from None
        if message["type"] == "http.disconnect":
            break
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            raise RequestTooLarge(f"request body over {limit} bytes")
        chunks.append(chunk)
        if not message.get("more_body", False):
            break
    return b"".join(chunks)


class GuardMiddleware:
    def __init__(self, app: ASGIApp, guard: Guard) -> None:
        self.app = app
        self.guard = guard

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        method = scope["method"]
        path = scope["path"]
        refusal = self._refusal(scope, headers)
        if refusal is not None:
            status, message = refusal
            shown = _cut(path)
            self.guard.refused.append(f"{method} {shown}: {message}")
            self.guard.refusals += 1
            log.warning("refused %s %s: %s", method, shown, message)
            if method == "GET" and "text/html" in headers.get("accept", ""):
                await _send_page(send, status, message)  # a browser opening the address
            else:
                await _send_json(send, status, {"error": message})
            return
        token = self.guard.token
        if token is not None and path == "/" and method in SAFE_METHODS and _query_token(scope):
            # The page (its token checked above): trade the token in the URL for a
            # cookie and drop it from the address bar.
            await _send_redirect(send, token)
            return
        length = headers.get("content-length", "0")
        if not length.isdigit() or int(length) > MAX_BODY_BYTES:
            message = f"request body over {MAX_BODY_BYTES} bytes"
            await _send_json(send, 413, {"error": message}, close=True)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *SECURITY_HEADERS]}
            await send(message)

        await self.app(scope, receive, send_with_headers)

    def _refusal(self, scope: Scope, headers: dict[str, str]) -> tuple[int, str] | None:
        host = headers.get("host", "")
        if self.guard.hosts is not None and host not in self.guard.hosts:
            return 421, f"unexpected Host header {_cut(host)!r}: open the address epdle web printed"
        if self.guard.token is not None and not self._has_token(scope, headers):
            return 401, "missing or wrong token: open the address epdle web printed"
        if scope["method"] not in SAFE_METHODS:
            origin = headers.get("origin")
            # The page's own requests come from the address it was loaded from.
            if origin is not None and origin != f"http://{host}":
                return 403, f"request from a foreign page ({_cut(origin)}) refused"
            if headers.get("sec-fetch-site") == "cross-site":
                return 403, "cross-site request refused"
        return None

    def _has_token(self, scope: Scope, headers: dict[str, str]) -> bool:
        token = self.guard.token
        assert token is not None
        candidates = [_query_token(scope)]
        authorization = headers.get("authorization", "")
        if authorization.lower().startswith("bearer "):
            candidates.append(authorization[7:].strip())
        cookie = SimpleCookie()
        try:
            cookie.load(headers.get("cookie", ""))
        except Exception:  # a malformed cookie header is just no token
            cookie = SimpleCookie()
        if TOKEN_COOKIE in cookie:
            candidates.append(cookie[TOKEN_COOKIE].value)
        # As bytes: compare_digest refuses str with characters beyond ASCII (a 500).
        expected = token.encode()
        return any(
            c is not None and secrets.compare_digest(c.encode(), expected) for c in candidates
        )


def _cut(text: str) -> str:
    """A client's text as a message quotes it: at most SHOWN_CHARACTERS of it, its control
    characters escaped."""
    if len(text) <= SHOWN_CHARACTERS:
        return escaped(text)
    return f"{escaped(text[:SHOWN_CHARACTERS])}... ({len(text)} characters)"


def _query_token(scope: Scope) -> str | None:
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    values = query.get("token")
    return values[-1] if values else None


async def _send_json(send: Send, status: int, body: dict[str, str], close: bool = False) -> None:
    """A refusal; with `close`, the connection closed after it (its body left unread)."""
    data = json.dumps(body).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(data)).encode()),
                *([(b"connection", b"close")] if close else []),
                *SECURITY_HEADERS,
            ],
        }
    )
    await send({"type": "http.response.body", "body": data})


async def _send_page(send: Send, status: int, message: str) -> None:
    """A refusal a person reads: what the address needs, on a page a phone shows."""
    page = resources.files("epdle.web").joinpath("static", "refused.html").read_text("utf-8")
    data = page.replace("{message}", html.escape(message)).encode()
    headers = [(b"content-type", b"text/html; charset=utf-8"), *SECURITY_HEADERS]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": data})


async def _send_redirect(send: Send, token: str) -> None:
    cookie = f"{TOKEN_COOKIE}={token}; Path=/; HttpOnly; SameSite=Strict"
    await send(
        {
            "type": "http.response.start",
            "status": 303,
            "headers": [
                (b"location", b"/"),
                (b"set-cookie", cookie.encode()),
                (b"content-length", b"0"),
                *SECURITY_HEADERS,
            ],
        }
    )
    await send({"type": "http.response.body", "body": b""})
