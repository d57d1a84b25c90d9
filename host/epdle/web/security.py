"""What keeps other pages (and other machines) from driving the device through the browser.

- Host header: only the address the server listens on (DNS rebinding);
- Origin: a state change (any method but GET/HEAD) from a foreign page is refused;
- token: when listening on another address than loopback, every request carries the
  random token printed with the URL (in the URL, a bearer header, or the page's cookie:
  the URL's token traded once for a cookie of this port's own name whose value is derived
  from the token and the port, `Guard.cookie_value`: another service on the same host,
  which the browser sends it to as well, learns neither the token nor a cookie of another
  port's page); a request's head is looked at for it line by line as it arrives
  (`HeadScan`), so that the server knows a connection as the page's at its first line
  that carries the token;
- bodies: bounded (`MAX_BODY_BYTES`) and timed (`BODY_TIMEOUT_S`), read by `read_body`;
- refusals: counted, logged at a bounded rate (a line per kind per LOG_PERIOD_S: a flood
  of them writes a few lines, not one each) and the last `REFUSALS_KEPT` kept, each line
  cut short, so a flood of refused requests costs no memory and little log.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import html
import json
import logging
import secrets
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from importlib import resources
from urllib.parse import parse_qs, urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from epdle.logtext import escaped, escaping
from epdle.web.floodlog import LOG_PERIOD_S, Repeated

log = escaping(logging.getLogger("epdle.web"))

MAX_BODY_BYTES = 4096
# A request's body must be all in this long after its headers.
BODY_TIMEOUT_S = 10.0
REFUSALS_KEPT = 100
# How much of a refused request's path or header a log line or a kept refusal quotes.
SHOWN_CHARACTERS = 80
# The token cookie's name is this and the port: two pages on one host keep their own.
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
    port: int = 0  # the port served: the token cookie's name and value carry it
    # One line per refused request, the last REFUSALS_KEPT of them; `refusals` counts all.
    refused: deque[str] = field(default_factory=lambda: deque(maxlen=REFUSALS_KEPT))
    refusals: int = 0
    warnings: Repeated = field(default_factory=lambda: Repeated(log, LOG_PERIOD_S), repr=False)
    # Called when the token in a URL is first traded for the cookie (the page opened).
    visited: Callable[[], None] | None = None

    @classmethod
    def for_address(cls, host: str, port: int, extra_hosts: Iterable[str] = ()) -> Guard:
        token = None if host in LOOPBACK_HOSTS else secrets.token_urlsafe(18)
        if host in WILDCARD_HOSTS:
            return cls(None, token, port)
        return cls(allowed_hosts(host, port) | set(extra_hosts), token, port)

    @property
    def cookie_name(self) -> str:
        return f"{TOKEN_COOKIE}_{self.port}"

    @property
    def cookie_value(self) -> str:
        """What the cookie carries: not the token, a value derived from it and the port,
        which opens this page only."""
        assert self.token is not None
        message = f"epdle cookie for port {self.port}".encode()
        return hmac.new(self.token.encode(), message, hashlib.sha256).hexdigest()[:32]

    def shown_in_query(self, query: str) -> bool:
        """Whether a request's query string carries the token (its last `token`)."""
        values = parse_qs(query).get("token")
        return values is not None and _same(values[-1], self.token)

    def shown_in_header(self, name: str, value: str) -> bool:
        """Whether a header (its name in lower case) carries the token: a bearer token,
        or this port's cookie with its value."""
        if name == "authorization":
            scheme, _, given = value.strip().partition(" ")
            return scheme.lower() == "bearer" and _same(given.strip(), self.token)
        if name == "cookie" and self.token is not None:
            for pair in value.split(";"):
                cookie, _, given = pair.strip().partition("=")
                if cookie == self.cookie_name and _same(given.strip('"'), self.cookie_value):
                    return True
        return False

    def refuse(self, method: str, path: str, client: str, status: int, message: str) -> None:
        """A request refused: counted, kept (the last REFUSALS_KEPT) and logged at a
        bounded rate (a line per status per LOG_PERIOD_S)."""
        line = f"{method} {_cut(path)} from {client}: {message}"
        self.refused.append(line)
        self.refusals += 1
        self.warnings.warn(f"refused {line}", kind=f"refused {status}")


def _same(given: str, token: str | None) -> bool:
    # As bytes: compare_digest refuses str with characters beyond ASCII (a 500).
    return token is not None and secrets.compare_digest(given.encode(), token.encode())


class HeadScan:
    """A request's head as it arrives, looked at a line at a time for the token: in the
    request line's query, then in each header line (the bearer token, the cookie), before
    the rest of the head is in; `limit` bytes of a line at most (the HTTP layer refuses
    longer heads)."""

    def __init__(self, guard: Guard, limit: int) -> None:
        self.guard = guard
        self.limit = limit
        self.partial = bytearray()  # the line arriving (a byte at a time, in linear time)
        self.first = True
        self.done = False  # the head is over, or too long to look at

    def feed(self, data: bytes) -> bool:
        """Whether the token came in a line completed by `data`."""
        if self.done:
            return False
        self.partial += data
        if len(self.partial) > self.limit:
            self.done = True
        if b"\n" not in data:
            return False
        *lines, rest = bytes(self.partial).split(b"\n")
        self.partial = bytearray(rest)
        for raw in lines:
            line = raw.rstrip(b"\r").decode("latin-1")
            if self.first:
                if not line:
                    continue  # an empty line before the request line is allowed
                self.first = False
                target = line.split(" ")
                if len(target) == 3 and self.guard.shown_in_query(urlsplit(target[1]).query):
                    return self._found()
            elif not line:
                self.done = True  # the head is in: the token was not in it
                return False
            else:
                name, _, value = line.partition(":")
                if self.guard.shown_in_header(name.strip().lower(), value.strip()):
                    return self._found()
        return False

    def _found(self) -> bool:
        self.done = True
        self.partial = bytearray()
        return True


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
            client = scope.get("client")
            self.guard.refuse(method, path, client[0] if client else "?", status, message)
            if method == "GET" and "text/html" in headers.get("accept", ""):
                await _send_page(send, status, message)  # a browser opening the address
            else:
                await _send_json(send, status, {"error": message})
            return
        if self.guard.token is not None and path == "/" and method in SAFE_METHODS:
            query = scope.get("query_string", b"").decode("latin-1")
            if "token" in parse_qs(query):
                # The page (its token checked above): trade the token in the URL for a
                # cookie and drop it from the address bar.
                await _send_redirect(send, self.guard)
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
        if self.guard.token is not None and not self._has_token(scope):
            return 401, "missing or wrong token: open the address epdle web printed"
        if scope["method"] not in SAFE_METHODS:
            origin = headers.get("origin")
            # The page's own requests come from the address it was loaded from.
            if origin is not None and origin != f"http://{host}":
                return 403, f"request from a foreign page ({_cut(origin)}) refused"
            if headers.get("sec-fetch-site") == "cross-site":
                return 403, "cross-site request refused"
        return None

    def _has_token(self, scope: Scope) -> bool:
        if self.guard.shown_in_query(scope.get("query_string", b"").decode("latin-1")):
            return True
        return any(
            self.guard.shown_in_header(name.decode("latin-1").lower(), value.decode("latin-1"))
            for name, value in scope["headers"]
        )


def _cut(text: str) -> str:
    """A client's text as a message quotes it: at most SHOWN_CHARACTERS of it, its control
    characters escaped."""
    if len(text) <= SHOWN_CHARACTERS:
        return escaped(text)
    return f"{escaped(text[:SHOWN_CHARACTERS])}... ({len(text)} characters)"


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


async def _send_redirect(send: Send, guard: Guard) -> None:
    cookie = f"{guard.cookie_name}={guard.cookie_value}; Path=/; HttpOnly; SameSite=Strict"
    if guard.visited is not None:
        guard.visited()
        guard.visited = None
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
