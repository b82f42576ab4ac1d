"""The Starlette app of `kscore serve`: the page, its files and the JSON API.

    GET  /                 the page (static/index.html; app.js and style.css beside it)
    GET  /api/options      games (with their terrain letters), variants and quests, for the page's pickers
    GET  /api/game         the saved game's document (a reload loses nothing)
    POST /api/photos       multipart, field `photo` (several allowed): read, add to the game -> document
    POST /api/score        a game as .kingdom text (text/plain): saved as the game -> document
    GET  /views/NAME       a kingdom's rectified view

The document is the CLI's --json one (report.scores_json + the photo fields:
`source`, `corners`), each kingdom gaining `view` and `extras`, the document
`rules`, and `failures`/`notes` when photos failed or were corrected. Every
error is {"error": "..."} with 400, 413 or 415; nothing escapes as a 500.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import anyio
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from kscore.app.inputs import Failure, failures_json, score_games
from kscore.app.report import scores_json
from kscore.app.web.reading import read_upload
from kscore.app.web.store import GameFolder
from kscore.app.web.uploads import (MAX_PHOTOS, MAX_REQUEST_BYTES, UploadRefused, check_photo, check_size,
                                    upload_labels)
from kscore.errors import KscoreError
from kscore.game import registry
from kscore.game.ranking import rank
from kscore.game.rules import Game
from kscore.game.textformat import DEFAULT_TILESET, letters_for_game

STATIC = Path(__file__).with_name("static")
#: A .kingdom text is a few hundred bytes; a 7x7 game of six players is under 2 kB.
MAX_TEXT_BYTES = 64 * 1024


class TooLarge(Exception):
    pass


def error(status: int, message: str, **extra) -> JSONResponse:
    return JSONResponse({"error": message, **extra}, status_code=status)


def rules_json(game: Game) -> dict:
    rules = game.rules
    return {"game": rules.game, "variants": sorted(rules.variants), "quests": list(rules.quests),
            "tileset": rules.tileset if rules.use_tileset else "none"}


def game_document(game: Game, places: list) -> dict:
    """The CLI's --json document for the game, with each kingdom's photo, corners and view (by position)."""
    scores = score_games([game])
    document = scores_json(scores, rank(scores, game.rules.game)) if scores else {"kingdoms": [], "ranking": []}
    for index, (entry, score) in enumerate(zip(document["kingdoms"], scores)):
        place = places[index] if index < len(places) and places[index] else {}
        entry["source"] = place.get("photo") or Path(game.source).name
        entry["corners"] = place.get("corners")
        entry["view"] = f"views/{place['view']}" if place.get("view") else None
        entry["extras"] = dict(score.kingdom.extras)
    document["rules"] = rules_json(game)
    return document


def create_app(root: Path, workers: int | None = None) -> Starlette:
    """The app serving the game kept in `root` (created if missing)."""
    folder = GameFolder(root)
    folder.create()
    # Photos are read one at a time per core: a burst of uploads waits its turn instead of
    # decoding ten 12 MP photos at once. Saving the game is one writer at a time.
    limiter = anyio.CapacityLimiter(workers or os.cpu_count() or 1)
    saving = asyncio.Lock()

    def plain(message: str) -> str:
        """A message without the server's folder in it: the page names files as the game folder does."""
        return message.replace(str(folder.root) + os.sep, "")

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    async def options(request: Request) -> Response:
        return JSONResponse({
            "games": {name: {"letters": {l: t.value for l, t in letters_for_game(name).items()},
                             "tileset": DEFAULT_TILESET.get(name, "kingdomino")} for name in registry.GAMES},
            "variants": dict(registry.VARIANTS),
            "quests": dict(registry.QUESTS),
        })

    async def current(request: Request) -> Response:
        try:
            return JSONResponse(game_document(folder.game(), folder.places()))
        except KscoreError as problem:  # game.kingdom edited by hand into something that does not parse
            return error(400, plain(str(problem)))

    async def score(request: Request) -> Response:
        kind = request.headers.get("content-type", "text/plain").split(";")[0].strip().lower()
        if kind not in ("text/plain", ""):
            return error(415, f"send the game as text/plain (.kingdom text), not {kind}")
        try:
            body = await _read_body(request, MAX_TEXT_BYTES)
        except TooLarge:
            return error(413, f"a game text is at most {MAX_TEXT_BYTES // 1024} kB")
        except ClientDisconnect:
            return Response(status_code=400)
        try:
            text = body.decode("utf-8-sig")
        except UnicodeDecodeError:
            return error(400, "the game text is not UTF-8")
        async with saving:
            try:
                game = folder.replace_game(text)
            except KscoreError as problem:
                return error(400, plain(str(problem)))
            return JSONResponse(game_document(game, folder.places()))

    async def photos(request: Request) -> Response:
        length = request.headers.get("content-length")
        if length and length.isdigit() and int(length) > MAX_REQUEST_BYTES:
            return error(413, f"{int(length) / 2**20:.0f} MB in one upload, over {MAX_REQUEST_BYTES // 2**20} MB: "
                              "send fewer or smaller photos at a time")
        if not request.headers.get("content-type", "").startswith("multipart/form-data"):
            return error(415, "send photos as multipart/form-data, field 'photo'")
        limited = Request(request.scope, _limited_receive(request.receive, MAX_REQUEST_BYTES))
        try:
            form = await limited.form(max_files=MAX_PHOTOS, max_fields=20)
        except TooLarge:
            return error(413, f"over {MAX_REQUEST_BYTES // 2**20} MB in one upload: send fewer or smaller photos")
        except ClientDisconnect:  # the phone went away mid-upload: nothing was stored
            return Response(status_code=400)
        except Exception as problem:  # python-multipart's and Starlette's parse errors (too many files...)
            return error(400, f"cannot read the upload: {problem}")
        try:
            uploads = [f for f in form.getlist("photo") if hasattr(f, "read")]
            if not uploads:
                return error(400, "no photo in the upload (the form field is 'photo')")
            rules = folder.game().rules
            stored, failures, labels = [], [], {}
            for upload, label in zip(uploads, upload_labels([u.filename for u in uploads])):
                try:
                    check_size(upload.size or 0, label)  # before reading: the spooled bytes never enter memory
                    data = await upload.read()
                    stored.append(folder.new_photo(data, check_photo(data, label)))
                    labels[stored[-1]] = label
                    del data
                except UploadRefused as refused:
                    failures.append((label, refused))
        except KscoreError as problem:  # the saved game does not parse, or the folder cannot be written
            return error(400, plain(str(problem)))
        finally:
            await form.close()
        readings = await asyncio.gather(*(
            anyio.to_thread.run_sync(_read_or_fail, path, rules, folder.views, labels[path], limiter=limiter)
            for path in stored))
        notes = [note for r in readings if not isinstance(r, Failure) for note in r.notes]
        failed = [f for f in readings if isinstance(f, Failure)]
        read = [r for r in readings if not isinstance(r, Failure)]
        all_failures = [{"source": label, "error": r.message, "exit_code": 2} for label, r in failures]
        all_failures += [{**f, "source": Path(f["source"]).name,
                          "error": _named(plain(f["error"]), failure.path, labels)}
                         for f, failure in zip(failures_json(failed), failed)]
        if not read:
            status = failures[0][1].status if failures and not failed else 400
            return error(status, "; ".join(f["error"] for f in all_failures), failures=all_failures)
        async with saving:
            try:
                game = folder.add_kingdoms([k for r in read for k in r.kingdoms], [p for r in read for p in r.places])
            except KscoreError as problem:
                return error(400, plain(str(problem)))
            document = game_document(game, folder.places())
        if all_failures:
            document["failures"] = all_failures
        if notes:
            document["notes"] = notes
        return JSONResponse(document)

    async def view(request: Request) -> Response:
        path = folder.view(request.path_params["name"])
        if path is None:
            return error(404, "no such view")
        return FileResponse(path, media_type="image/jpeg")

    async def http_error(request: Request, exc: HTTPException) -> Response:
        return error(exc.status_code, exc.detail)

    async def server_error(request: Request, exc: Exception) -> Response:  # a bug: said as JSON, logged by uvicorn
        return error(500, f"kscore serve: internal error ({type(exc).__name__}); the game saved is unchanged")

    routes = [
        Route("/", page),
        Route("/api/options", options),
        Route("/api/game", current),
        Route("/api/score", score, methods=["POST"]),
        Route("/api/photos", photos, methods=["POST"]),
        Route("/views/{name}", view),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    return Starlette(routes=routes, exception_handlers={HTTPException: http_error, Exception: server_error})


def _read_or_fail(path: Path, rules, views: Path, label: str):
    """read_upload, or the Failure the CLI would report for that photo (nothing recognised, undecodable)."""
    try:
        return read_upload(path, rules, views, label)
    except KscoreError as problem:
        return Failure(path, problem)


def _named(message: str, stored: Path, labels: dict) -> str:
    """A failure in the player's words: their name for the photo where the message names the stored file."""
    kept = f"photos/{stored.name}"
    label = labels.get(stored, stored.name)
    return message.replace(kept, label) if kept in message else f"{label}: {message}"


def _limited_receive(receive, limit: int):
    """The ASGI receive channel, raising TooLarge once the body passes `limit` bytes (chunked uploads too)."""
    seen = 0

    async def wrapped():
        nonlocal seen
        message = await receive()
        if message["type"] == "http.request":
            seen += len(message.get("body", b""))
            if seen > limit:
                raise TooLarge()
        return message

    return wrapped


async def _read_body(request: Request, limit: int) -> bytes:
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise TooLarge()
        chunks.append(chunk)
    return b"".join(chunks)
