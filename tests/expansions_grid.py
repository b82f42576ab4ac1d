"""A tiny grid reader for the expansion tests (the real parser is textformat.py).

Rows are lines, squares are space-separated tokens: letter, crowns, optional
`g<n>` giants (`M3g1`, `Sg` = giant count 1), e.g. "W1 F . C M3g1".
"""

from __future__ import annotations

import re

from kscore.game.expansions.games import terrain_for_letter
from kscore.game.kingdom import Kingdom, Square

_TOKEN = re.compile(r"^([A-Za-z.])(\d?)(?:g(\d?))?$")


def grid(text: str, game: str = "kingdomino", extras: dict[str, str] | None = None, name: str = "test") -> Kingdom:
    rows = []
    for line in text.strip().splitlines():
        row = []
        for token in line.split():
            match = _TOKEN.match(token)
            assert match, token
            letter, crowns, giants = match.groups()
            row.append(
                Square(
                    terrain_for_letter(letter, game),
                    int(crowns or 0),
                    0 if giants is None else int(giants or 1),
                )
            )
        rows.append(row)
    return Kingdom.from_rows(name, rows, extras)
