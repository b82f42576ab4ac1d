"""One photo's work as a plain function: (photo bytes, options) -> the JSON document.

For running kscore beyond one machine (a tournament's 10,000 photos on a Dask or
Spark cluster, a queue of uploads): no files, no terminal, nothing shared between
calls, a dict that pickles and serialises. It is the same code as `kscore PHOTO
--json`: the bytes are written to a private temporary folder under the photo's
own name and read by the same loader, so names, the finer second decode of small
kingdoms and every message are the ones the command gives.

    from kscore.app.work import score_photo_bytes
    document = score_photo_bytes(Path("table.jpg").read_bytes(), "table.jpg", {"variants": ["harmony"]})
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any, Mapping

from kscore.errors import KscoreError


def score_photo_bytes(data: bytes, name: str, options: Mapping[str, Any] | None = None) -> dict:
    """The document `kscore NAME --json` prints for a photo with these bytes.

    options: "variants" (list of names), "no_tileset" (bool), "game" (str). A photo
    that cannot be read gives the document with empty kingdoms and a `failures` entry.
    """
    from kscore.app.batch import add_photo_fields
    from kscore.app.cli import base_rules
    from kscore.app.inputs import failures_json, load_game, score_games, Failure
    from kscore.app.report import scores_json
    from kscore.game.ranking import rank

    options = dict(options or {})
    shown = Path(name).name or "photo.jpg"
    with tempfile.TemporaryDirectory(prefix="kscore-") as folder:
        path = Path(folder) / shown
        try:
            rules = base_rules(list(options.get("variants", [])), bool(options.get("no_tileset")),
                               options.get("game", "kingdomino"))
            path.write_bytes(data)
            game = load_game(path, rules)
        except KscoreError as error:
            document = {"kingdoms": [], "ranking": [], "failures": failures_json([Failure(path, error)])}
            return _named(document, str(path), name)
        scores = score_games([game])
        document = add_photo_fields(scores_json(scores, rank(scores)), scores, [game])
    return _named(document, str(path), name)


def _named(document: Any, temporary: str, name: str) -> Any:
    """Every mention of the temporary file replaced by the name the caller gave."""
    if isinstance(document, dict):
        return {k: _named(v, temporary, name) for k, v in document.items()}
    if isinstance(document, list):
        return [_named(v, temporary, name) for v in document]
    if isinstance(document, str):
        return document.replace(temporary, name)
    return document
