"""`epdle web`: the helper as a local web page (needs the `web` extra)."""

from __future__ import annotations

import argparse
import ipaddress
import os
import socket
import sys
import threading
import webbrowser

from epdle.cli.errors import CommandError, examples
from epdle.cli.options import PORT_HELP, add_game_options, device_port, game_spec, progress_bar
from epdle.cli.prior import say_history_note
from epdle.session.setup import GameSetup

TYPE_CHECKING = False
if TYPE_CHECKING:
    from epdle.web.security import Guard

DEFAULT_PORT = 8000
DEFAULT_LISTEN = f"127.0.0.1:{DEFAULT_PORT}"


def parse_listen(text: str) -> tuple[str, int]:
    """HOST:PORT, or HOST alone for port 8000 (an IPv6 address in brackets: [::1]:8000);
    port 0 picks a free one."""
    given = text.strip()
    alone = (":" not in given and not given.isdigit()) or given[:1] + given[-1:] == "[]"
    host, sep, port = (f"{given}:{DEFAULT_PORT}" if alone else given).rpartition(":")
    host = host.strip("[]")
    if not sep or not host or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise argparse.ArgumentTypeError(
            f"expected HOST:PORT such as {DEFAULT_LISTEN}, got {text!r}"
        )
    return host, int(port)


def device_option(text: str) -> str:
    """--port: the device. A number alone is the page's own port given to the wrong option."""
    if text.strip().isdigit():
        number = text.strip()
        raise argparse.ArgumentTypeError(
            f"{number} is not a serial device: --port names the device (such as /dev/ttyUSB0, "
            f"or sim://); to serve the page on port {number} use --listen HOST:PORT, such as "
            f"--listen 127.0.0.1:{number} (0.0.0.0:{number} for a phone)"
        )
    return text


def register(commands: argparse._SubParsersAction) -> None:
    web = commands.add_parser(
        "web",
        help="the helper as a local web page, driving the device",
        description="Serve a web page to play with: type each guess, click its tiles to set "
        "the colours the game showed, and see the ranked suggestions and what the device's "
        "panel shows. Prints the address on its first line and opens a browser. Listens on "
        "127.0.0.1 unless told otherwise; on another address every request needs the random "
        "token printed with the address, and an address a phone reaches is printed as a QR code "
        "too, for its camera. Stops cleanly on Ctrl-C / SIGTERM. With --boards N "
        "the page shows the N boards side by side, each with its own tiles to click.",
        epilog=examples(
            "epdle web",
            "epdle web --boards 4                # Quordle",
            "epdle web --listen 0.0.0.0          # a phone on the same network: scan the QR code",
        ),
    )
    web.add_argument("--port", type=device_option, help=PORT_HELP)
    web.add_argument(
        "--listen",
        type=parse_listen,
        default=DEFAULT_LISTEN,
        metavar="HOST:PORT",
        help=f"address to serve the page on (default: {DEFAULT_LISTEN}; port 0: any free "
        f"port; a host alone: port {DEFAULT_PORT})",
    )
    web.add_argument("--no-browser", action="store_true", help="do not open a browser")
    add_game_options(web)
    web.set_defaults(func=_web)


def web_requirements() -> list[str]:
    """The `web` extra's packages as pinned in the package's metadata (quoted for a shell)."""
    from importlib.metadata import PackageNotFoundError, requires

    try:
        wanted = requires("epdle") or []
    except PackageNotFoundError:
        wanted = []
    pinned = [r.split(";")[0].strip() for r in wanted if 'extra == "web"' in r]
    return [f"'{r}'" for r in pinned] or ["starlette", "uvicorn"]


def lan_address() -> str:
    """The address other machines reach this one at: the one its outgoing traffic leaves
    from (a UDP socket's connect sends nothing), else the host name's, else loopback."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: only picks the route
            return str(probe.getsockname()[0])
    except OSError:
        pass
    try:
        return socket.gethostbyname(socket.gethostname())
    except OSError:
        return "127.0.0.1"


class BrowserFile:
    """A page that sends the browser on to `url`, in a new directory only this user may
    read: the browser is started with this file's address, not with the URL and its token
    (every local user reads a command line in `ps`). `remove` it once used."""

    def __init__(self, url: str) -> None:
        import html
        import tempfile

        self.directory = tempfile.mkdtemp(prefix="epdle-web-")  # mode 0700
        self.path = os.path.join(self.directory, "open.html")
        handle = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(handle, "w", encoding="utf-8") as page:
            to = html.escape(url, quote=True)
            page.write(
                f'<!doctype html><meta charset="utf-8"><title>epdle</title>'
                f'<meta http-equiv="refresh" content="0; url={to}"><a href="{to}">epdle</a>\n'
            )

    @property
    def url(self) -> str:
        from pathlib import Path

        return Path(self.path).as_uri()

    def remove(self) -> None:
        import shutil

        shutil.rmtree(self.directory, ignore_errors=True)


def _open_browser(url: str, guard: Guard) -> BrowserFile | None:
    """Open the page in the desktop's browser; without a desktop (ssh, a server), say so
    rather than let webbrowser start a text browser in this terminal. A URL with the
    token is opened through a BrowserFile, removed when the page trades the token for
    its cookie (the caller removes it at the latest when the server stops)."""
    desktop = not sys.platform.startswith("linux") or any(
        os.environ.get(name) for name in ("DISPLAY", "WAYLAND_DISPLAY")
    )
    if not desktop:
        print("no desktop to open a browser on: open the address above", file=sys.stderr)
        return None
    through = BrowserFile(url) if guard.token is not None else None
    if through is not None:
        guard.visited = through.remove
    opener = threading.Timer(0.3, webbrowser.open, args=(through.url if through else url,))
    opener.daemon = True
    opener.start()
    return through


def for_elsewhere(host: str) -> bool:
    """Whether an address to open is one for another machine (not this one's loopback)."""
    try:
        return not ipaddress.ip_address(host).is_loopback
    except ValueError:  # a name
        return host != "localhost"


def print_qr(url: str) -> None:
    """`url` as a QR code on stderr, for a phone's camera (half blocks: two rows a line;
    the light modules drawn, as on a dark terminal; phones read either way round)."""
    import segno

    print("or scan this with the phone's camera:", file=sys.stderr)
    segno.make(url, micro=False).terminal(out=sys.stderr, compact=True)
    sys.stderr.flush()


def _listen(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(64)
    except OSError:
        sock.close()
        raise
    return sock


def _web(args: argparse.Namespace) -> int:
    try:
        import segno  # noqa: F401 - print_qr's: if missing, named with the rest

        from epdle.web.security import WILDCARD_HOSTS, Guard, host_with_port
        from epdle.web.server import create_app, serve
        from epdle.web.state import web_session
    except ImportError as error:
        raise CommandError(
            f"the page needs {error.name or error}: {sys.executable} -m pip install "
            + " ".join(web_requirements())
        ) from None
    setup = GameSetup(game_spec(args), progress_bar)  # its usage errors before anything opens
    device = device_port(args.port)
    host, port = args.listen
    try:
        sock = _listen(host, port)
    except OSError as error:
        raise CommandError(f"cannot listen on {host}:{port}: {error.strerror or error}") from None
    port = sock.getsockname()[1]
    guard = Guard.for_address(host, port)
    try:
        session = web_session(setup, setup.presenter(device))
    except (OSError, ValueError) as error:
        sock.close()
        print(f"epdle web: {error}", file=sys.stderr)
        return 1
    say_history_note("epdle web", session.controller.game.solver.universe)
    app = create_app(session, guard)
    shown = lan_address() if host in WILDCARD_HOSTS else host  # an address to open
    url = f"http://{host_with_port(shown, port)}/"
    if guard.token is not None:
        url += f"?token={guard.token}"
    print(url, flush=True)
    if for_elsewhere(shown):
        print_qr(url)
    print(f"device: {device}; Ctrl-C to stop", file=sys.stderr, flush=True)
    through = None if args.no_browser else _open_browser(url, guard)
    try:
        serve(app, sock)
    finally:
        if through is not None:
            through.remove()
    return 0
