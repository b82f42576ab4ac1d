"""Rendering scores for people (rich tables) and for programs (one JSON document).

Pure data in, text out: the CLI decides where it goes.
"""

from __future__ import annotations

import json
from typing import Any, Sequence

from rich import box
from rich.console import Console, Group
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from kscore.game import registry
from kscore.game.kingdom import Kingdom, Terrain, square_name
from kscore.game.properties import occupied_extent
from kscore.app.sheet import Sheet, build_sheet, place_word, winner_sentence
from kscore.game.ranking import Dynasty, Place
from kscore.game.scoring import KingdomScore
from kscore.game.textformat import letters_for_game, square_token

# ---------------------------------------------------------------- JSON


_CONTAINERS = (dict, list, tuple)
#: One encoder for every call: json.dumps(..., ensure_ascii=False) builds a new one each time, and a
#: document of 10,000 kingdoms makes 600,000 calls (issue 16: 2.5 s of that run was dumps).
_encode = json.JSONEncoder(ensure_ascii=False).encode


def dumps(value: Any, indent: int = 0) -> str:
    """JSON with dicts and lists of containers spread over lines, lists of plain values on one
    line (a grid row per line), so a person can read --json too."""
    if not isinstance(value, _CONTAINERS):
        return _encode(value)
    pad, inner = " " * indent, " " * (indent + 2)
    if isinstance(value, dict) and value:
        if not any(isinstance(v, _CONTAINERS) for v in value.values()):
            flat = _encode(value)
            if len(flat) <= 100:  # a small record (a property, a place) reads best on one line
                return flat
        items = [f"{inner}{_encode(str(k))}: {dumps(v, indent + 2) if isinstance(v, _CONTAINERS) else _encode(v)}"
                 for k, v in value.items()]
        return "{\n" + ",\n".join(items) + f"\n{pad}}}"
    if isinstance(value, (list, tuple)) and any(isinstance(v, _CONTAINERS) for v in value):
        return "[\n" + ",\n".join(inner + dumps(v, indent + 2) for v in value) + f"\n{pad}]"
    return _encode(value)



def kingdom_json(score: KingdomScore) -> dict[str, Any]:
    k = score.kingdom
    bonuses: dict[str, int] = {}
    for line in score.lines:
        bonuses[line.name] = bonuses.get(line.name, 0) + line.points
    return {
        "name": k.name,
        "size": k.size,
        "extent": list(occupied_extent(k)),
        "terrain": [[s.terrain.value for s in row] for row in k.rows],
        "crowns": [[s.crowns for s in row] for row in k.rows],
        "giants": [[s.giants for s in row] for row in k.rows],
        "uncertain": [[r, c] for r, c in k.uncertain()],
        "properties": [
            {"terrain": p.terrain.value, "squares": p.squares, "crowns": p.crowns, "points": p.points}
            for p in score.properties
        ],
        "bonuses": bonuses,
        "lines": [{"kind": l.kind, "name": l.name, "points": l.points, "reason": l.reason} for l in score.lines],
        "score": score.total,
        "warnings": list(score.warnings),
    }


def place_json(place: Place) -> dict[str, Any]:
    return {"place": place.place, "name": place.name, "score": place.score,
            "tiebreak": place.tiebreak, "detail": place.detail}


def scores_json(scores: Sequence[KingdomScore], ranking: Sequence[Place]) -> dict[str, Any]:
    """The --json document: {"kingdoms": [...], "ranking": [...]} (schema in README)."""
    return {"kingdoms": [kingdom_json(s) for s in scores], "ranking": [place_json(p) for p in ranking]}


def dynasty_json(result: Dynasty, games: Sequence[str], scores: Sequence[Sequence[KingdomScore]]) -> dict[str, Any]:
    return {
        "games": [{"source": name, "kingdoms": [kingdom_json(s) for s in game]} for name, game in zip(games, scores)],
        "players": [{"name": r.name, "games": list(r.games), "score": r.total} for r in result.rows],
        "ranking": [place_json(p) for p in result.ranking],
        "warnings": list(result.warnings),
    }


# ---------------------------------------------------------------- people

#: Terrain colours, distinct even on a 16-colour terminal (swamp and mine were both "white" there):
#: wheat 11, grassland 10, forest 2, lake 12, swamp 3 (brown on most), mine 7.
_STYLE = {
    Terrain.WHEAT: "bold bright_yellow",
    Terrain.GRASSLAND: "bold bright_green",
    Terrain.FOREST: "bold green4",
    Terrain.LAKE: "bold bright_blue",
    Terrain.SWAMP: "bold dark_orange3",
    Terrain.MINE: "bold grey50",
    Terrain.CASTLE: "bold white on red",
    Terrain.EMPTY: "dim",
}


_TERRAIN_BY_NAME = {t.value: t for t in Terrain}


def _token(square, letters) -> str:
    try:
        return square_token(square, letters)
    except ValueError:  # a terrain this game's letters lack (e.g. from a photo): show its word
        return square.terrain.value


def grid_text(score: KingdomScore) -> Text:
    """The kingdom as its text-format tokens, coloured by terrain."""
    letters = letters_for_game(score.rules.game)
    tokens = [[_token(s, letters) for s in row] for row in score.kingdom.rows]
    width = max(len(t) for row in tokens for t in row)
    text = Text()
    for r, row in enumerate(score.kingdom.rows):
        for c, square in enumerate(row):
            style = _STYLE.get(square.terrain, "bold") + (" reverse" if square.uncertain else "")  # unsure: stands out
            text.append(tokens[r][c], style)
            text.append(" " * (width - len(tokens[r][c]) + 1))
        text.append("\n")
    text.rstrip()
    return text


def line_text(line) -> Text:
    """`+10 middle-kingdom (bonus): castle on ...`; information lines (giants: 0 points, already in the
    properties) without a `+0`, and the kind only when the name does not say it."""
    if line.kind == "giants" and line.points == 0:
        return Text.assemble(("giants", "bold"), f": {line.reason}", style="dim")
    kind = f" ({line.kind})" if line.kind != line.name else ""
    return Text.assemble(f"{line.points:+d} ", (line.name, "bold"), f"{kind}: {line.reason}")


def kingdom_panel(score: KingdomScore) -> Panel:
    table = Table(box=None, pad_edge=False, show_footer=False)
    table.add_column("property")
    table.add_column("squares", justify="right")
    crowns = registry.GAMES[score.rules.game].crown_word + "s" if score.rules.game in registry.GAMES else "crowns"  # Origins: fires
    table.add_column(crowns, justify="right")
    table.add_column("points", justify="right")
    for p in sorted((p for p in score.properties if p.points), key=lambda p: (-p.points, -p.squares)):
        where = square_name(p.positions[0])
        table.add_row(f"{p.terrain.value} (from {where})", str(p.squares), str(p.crowns), str(p.points))
    bare = [p for p in score.properties if not p.points]
    if bare:  # a 7x7 kingdom has a dozen; one line says what they add to the tiebreak
        table.add_row(f"{len(bare)} without {crowns} (largest {max(p.squares for p in bare)} squares)", "", "", "0",
                      style="dim")
    table.add_row("[b]properties[/b]", "", "", f"[b]{score.property_points}[/b]")
    parts: list[Any] = [grid_text(score), Text(), table]
    for line in score.lines:
        parts.append(line_text(line))
    parts.append(Text(f"total {score.total}", style="bold"))
    unsure = score.kingdom.uncertain()
    if unsure:
        letters = letters_for_game(score.rules.game)
        parts.append(Text("\nunsure squares (scored as written, check them): "
                          + "; ".join(f"{square_name(p)} ({_token(score.kingdom[p], letters)})" for p in unsure),
                          style="yellow"))
    for warning in score.warnings:
        parts.append(Text(f"warning: {warning}", style="red"))
    k = score.kingdom
    return Panel(Group(*parts), title=Text.assemble((k.name, "bold"), f"  {size_words(k)}  ", (f"{score.total} points", "bold")),
                 title_align="left", expand=False)


def size_words(kingdom: Kingdom) -> str:
    """'5x5', or '4x5 in 5x5' for a kingdom laid smaller than its frame (rows x columns)."""
    frame = f"{kingdom.size}x{kingdom.size}"
    rows, cols = occupied_extent(kingdom)
    return frame if (rows, cols) == (kingdom.size, kingdom.size) else f"{rows}x{cols} in {frame}"


def ranking_table(ranking: Sequence[Place], title: str = "ranking") -> Table:
    table = Table(title=title, title_justify="left")
    table.add_column("place", justify="right")
    table.add_column("player")
    table.add_column("score", justify="right")
    table.add_column("decided by")
    for p in ranking:
        decided = p.tiebreak if not p.detail else f"{p.tiebreak} ({p.detail})"
        table.add_row(str(p.place), escape(p.name), str(p.score), escape(decided))  # names shown as written
    return table


#: rich's SIMPLE_HEAD with a rule above the total too (a section line), like a paper pad.
_PAD = box.Box("    \n    \n ── \n    \n ── \n ── \n    \n    \n")


def game_title(sources: Sequence[str], rules) -> str:
    """`game.kingdom · kingdomino · middle-kingdom, harmony`: what was scored, under which rules."""
    from pathlib import Path

    names = list(dict.fromkeys(Path(s).name for s in sources))
    where = ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")
    extra = sorted(rules.variants) + list(rules.quests)
    return " · ".join(part for part in (where, rules.game, ", ".join(extra)) if part)


def sheet_table(sheet: Sheet) -> Table:
    """The score pad: a column per player, a row per terrain and per line, then total, place, tiebreak.

    Sized for 80 columns with 4 players (names cut to fit, never wrapped) and readable with 6."""
    table = Table(box=_PAD,
                  pad_edge=False, show_edge=False, collapse_padding=True)
    table.add_column("", no_wrap=True, overflow="ellipsis", min_width=8)
    winners = set(sheet.winners)
    for i, name in enumerate(sheet.players):
        table.add_column(escape(name), justify="right", no_wrap=True, overflow="ellipsis", max_width=14,
                         header_style="bold green" if i in winners else "bold")
    for row in sheet.rows:
        label = Text(row.label, style=_STYLE.get(_TERRAIN_BY_NAME.get(row.key), "") if row.kind == "terrain" else "")
        cells = [("" if v is None else (str(v) if row.kind == "terrain" else f"{v:+d}")) for v in row.values]
        table.add_row(label, *cells, style="dim" if row.kind == "giants" else None)
    table.add_section()
    table.add_row(Text("total", style="bold"),
                  *(Text(str(t), style="bold green" if i in winners else "bold") for i, t in enumerate(sheet.totals)))
    if sheet.ranked:
        table.add_row("place", *(Text(place_word(p), style="bold green" if i in winners else "")
                                 for i, p in enumerate(sheet.places)))
        table.add_row("decided by", *map(escape, sheet.tiebreaks))
    if any(sheet.warnings):
        table.add_row(Text("warnings", style="red"), *(str(n) if n else "" for n in sheet.warnings))
    return table


def sheet_footer(sheet: Sheet, scores: Sequence[KingdomScore]) -> list[Text]:
    """Under the pad: the winner, each player's unsure squares, why each line in play scored 0 (a line each)."""
    lines = [Text(winner_sentence(sheet), style="bold green")] if sheet.ranked else []
    for score in scores:
        unsure = score.kingdom.uncertain()
        if unsure:
            letters = letters_for_game(score.rules.game)
            lines.append(Text(f"{score.kingdom.name}, unsure (scored as written, check them): " + "; ".join(
                f"{square_name(p)} ({_token(score.kingdom[p], letters)})" for p in unsure), style="yellow"))
    for note in sheet.notes:
        lines.append(Text(f"{note.player}, {note.label} +0: {note.reason}", style="dim", overflow="ellipsis",
                          no_wrap=True))
    return lines


def print_sheet(console: Console, sheet: Sheet, scores: Sequence[KingdomScore], detail_hint: bool = True) -> None:
    if sheet.title:
        console.print(Text(sheet.title, style="bold"), overflow="ellipsis", no_wrap=True, crop=True)
    console.print(sheet_table(sheet))
    for line in sheet_footer(sheet, scores):
        console.print(line, overflow="ellipsis", no_wrap=True, crop=True)
    if detail_hint and (any(sheet.unsure) or any(sheet.warnings) or sheet.notes):
        console.print(Text("--detail shows each kingdom's grid, properties, unsure squares and warnings", style="dim"))


def print_scores(console: Console, scores: Sequence[KingdomScore], ranking: Sequence[Place], *,
                 detail: bool = False, title: str = "") -> None:
    """Several players: the sheet first (who won and how, on one screen), each kingdom's panel only with
    `detail`. One kingdom: its panel, which is its sheet and shows the grid to check against the photo."""
    if len(scores) == 1:
        console.print(kingdom_panel(scores[0]))
        return
    sheet = build_sheet(scores, ranking, title)
    print_sheet(console, sheet, scores, detail_hint=not detail)
    if detail:
        for score in scores:
            console.print(kingdom_panel(score))
        console.print(ranking_table(ranking))


def print_dynasty(console: Console, result: Dynasty, games: Sequence[str]) -> None:
    table = Table(title="dynasty", title_justify="left")
    table.add_column("player")
    for name in games:
        table.add_column(escape(name), justify="right")
    table.add_column("total", justify="right")
    for row in result.rows:
        table.add_row(escape(row.name), *("-" if v is None else str(v) for v in row.games), f"[b]{row.total}[/b]")
    console.print(table)
    console.print(ranking_table(result.ranking, "dynasty ranking"))
    for warning in result.warnings:
        console.print(Text(f"warning: {warning}", style="red"))
