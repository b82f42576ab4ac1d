"""`kscore serve`: start the web page on this machine; phones on the same network use --host 0.0.0.0.

The web framework (Starlette, uvicorn, python-multipart, segno for the QR code)
is the optional extra `kscore[web]`, imported only when the command runs.
"""

from __future__ import annotations

import socket
import sys
import tempfile
import time
from pathlib import Path
from typing import Optional

import typer

from kscore.errors import KscoreError

WEB_EXTRA = "kscore serve needs the web extra: pip install 'kscore[web]' (Starlette, uvicorn, python-multipart, segno)"

serve_app = typer.Typer(add_completion=False, pretty_exceptions_enable=False,
                        context_settings={"help_option_names": ["-h", "--help"]})


@serve_app.command(
    help="Serve a page to score the table from a phone: take photos, see every kingdom read, scored and "
         "ranked, tap a square to fix it. The game (photos, readings, game.kingdom) is kept in FOLDER; "
         "`kscore FOLDER/game.kingdom` rescores it on the command line.",
    epilog="Phones: --host 0.0.0.0 listens on this machine's network too (anyone on it can open the page); "
           "the default 127.0.0.1 answers this machine only.",
)
def serve(
    folder: Optional[Path] = typer.Argument(None, metavar="FOLDER", show_default=False,
                                            help="Where the game is kept (created if missing; an existing game "
                                                 "there is reopened). Default: a new folder under "
                                                 "~/.local/share/kscore/games/."),
    host: str = typer.Option("127.0.0.1", "--host", metavar="ADDRESS",
                             help="Address to listen on. 0.0.0.0 is needed for phones (every network of this machine)."),
    port: int = typer.Option(8000, "--port", metavar="N", help="Port to listen on."),
) -> None:
    try:
        import uvicorn

        from kscore.app.web.app import create_app
    except ImportError:
        print(WEB_EXTRA, file=sys.stderr)
        raise typer.Exit(2) from None
    from kscore.app.web.store import check_folder, default_folder

    try:
        if not 0 < port < 65536:
            raise KscoreError(f"--port {port}: a port is 1 to 65535")
        root = folder or default_folder(time.strftime("%Y-%m-%d_%H%M%S"))
        check_folder(root)
        _check_port(host, port)
    except KscoreError as problem:
        print(f"kscore: {problem}", file=sys.stderr)
        raise typer.Exit(2) from None
    # Starlette spools uploads over 1 MB to temporary files: inside FOLDER too, like everything the server writes
    # (anonymous files, gone when closed).
    spool = root / ".uploads"
    spool.mkdir(exist_ok=True)
    tempfile.tempdir = str(spool)
    for line in start_lines(root, host, port):
        print(line)
    url = page_url(host, port)
    if url and not _loopback(host):  # a phone's camera opens the page from this
        _print_qr(url)
    uvicorn.run(create_app(root), host=host, port=port, log_level="warning")


def page_url(host: str, port: int) -> str | None:
    """The address to open; None when listening on every network but this machine's address there is unknown."""
    shown = _network_address() if host in ("0.0.0.0", "::") else host
    if shown is None:
        return None
    return f"http://{'[' + shown + ']' if ':' in shown else shown}:{port}/"


def start_lines(root: Path, host: str, port: int) -> list[str]:
    url = page_url(host, port)
    lines = [f"kscore serve: the game is kept in {root} (`kscore {root / 'game.kingdom'}` rescores it)",
             f"open {url}" if url else
             f"open http://ADDRESS:{port}/ with this machine's address on your network (`hostname -I` shows it); "
             f"here: http://127.0.0.1:{port}/"]
    if _loopback(host):
        lines.append("only this machine can open it; for phones on the same network: kscore serve --host 0.0.0.0")
    else:
        lines.append("any device on this machine's network can open it (and change the game); Ctrl-C stops it")
    return lines


def _loopback(host: str) -> bool:
    return host in ("localhost", "::1") or host.startswith("127.")


def _network_address() -> str | None:
    """This machine's address on its network, as its own name resolves (no packet is sent); None if only loopback."""
    try:
        addresses = socket.gethostbyname_ex(socket.gethostname())[2]
    except OSError:
        addresses = []
    return next((a for a in addresses if not a.startswith("127.")), None)


def _check_port(host: str, port: int) -> None:
    """Say 'port in use' in one line before uvicorn would log a traceback-like error."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as error:
            raise KscoreError(f"cannot listen on {host}:{port}: {error.strerror or error} "
                              "(another server there? try --port 8001)") from None


def _print_qr(url: str) -> None:
    """The address as a QR code for a phone's camera (segno, pure Python); skipped quietly without it."""
    try:
        import segno
    except ImportError:
        return
    segno.make(url, error="l").terminal(compact=True)
