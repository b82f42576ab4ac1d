"""Rendering scores for people (rich tables) and for programs (one JSON document).

Pure data in, text out: the CLI decides where it goes.
"""

from __future__ import annotations

import json
from typing import Any, Sequence

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from kscore.game import registry
from kscore.game.kingdom import Terrain, square_name
from kscore.game.ranking import Dynasty, Place
from kscore.game.scoring import KingdomScore
from kscore.game.textformat import letters_for_game, square_token

# ---------------------------------------------------------------- JSON


def dumps(value: Any, indent: int = 0) -> str:
    """JSON with dicts and lists of containers spread over lines, lists of plain values on one
    line (a grid row per line), so a person can read --json too."""
    pad, inner = " " * indent, " " * (indent + 2)
    if isinstance(value, dict) and value and not any(isinstance(v, (dict, list, tuple)) for v in value.values()):
        flat = json.dumps(value, ensure_ascii=False)
        if len(flat) <= 100:  # a small record (a property, a place) reads best on one line
            return flat
    if isinstance(value, dict) and value:
        items = [f"{inner}{json.dumps(str(k), ensure_ascii=False)}: {dumps(v, indent + 2)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + f"\n{pad}}}"
    if isinstance(value, (list, tuple)) and any(isinstance(v, (dict, list, tuple)) for v in value):
        return "[\n" + ",\n".join(inner + dumps(v, indent + 2) for v in value) + f"\n{pad}]"
    return json.dumps(value, ensure_ascii=False)



def kingdom_json(score: KingdomScore) -> dict[str, Any]:
    k = score.kingdom
    bonuses: dict[str, int] = {}
    for line in score.lines:
        bonuses[line.name] = bonuses.get(line.name, 0) + line.points
    return {
        "name": k.name,
        "size": k.size,
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

_STYLE = {
    Terrain.WHEAT: "bold yellow",
    Terrain.GRASSLAND: "bold bright_green",
    Terrain.FOREST: "bold green4",
    Terrain.LAKE: "bold bright_blue",
    Terrain.SWAMP: "bold tan",
    Terrain.MINE: "bold grey50",
    Terrain.CASTLE: "bold white on red",
    Terrain.EMPTY: "dim",
}


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
            text.append(tokens[r][c].ljust(width), _STYLE.get(square.terrain, "bold"))
            text.append(" ")
        text.append("\n")
    text.rstrip()
    return text


def kingdom_panel(score: KingdomScore) -> Panel:
    table = Table(box=None, pad_edge=False, show_footer=False)
    table.add_column("property")
    table.add_column("squares", justify="right")
    crowns = registry.GAMES[score.rules.game].crown_word + "s" if score.rules.game in registry.GAMES else "crowns"  # Origins: fires
    table.add_column(crowns, justify="right")
    table.add_column("points", justify="right")
    for p in sorted(score.properties, key=lambda p: (-p.points, -p.squares)):
        style = None if p.points else "dim"
        where = square_name(p.positions[0])
        table.add_row(f"{p.terrain.value} (from {where})", str(p.squares), str(p.crowns), str(p.points), style=style)
    table.add_row("[b]properties[/b]", "", "", f"[b]{score.property_points}[/b]")
    parts: list[Any] = [grid_text(score), Text(), table]
    for line in score.lines:
        parts.append(Text.assemble(f"{line.points:+d} ", (f"{line.name}", "bold"), f" ({line.kind}): {line.reason}"))
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
    return Panel(Group(*parts), title=f"[b]{k.name}[/b]  {k.size}x{k.size}  [b]{score.total} points[/b]",
                 title_align="left", expand=False)


def ranking_table(ranking: Sequence[Place], title: str = "ranking") -> Table:
    table = Table(title=title, title_justify="left")
    table.add_column("place", justify="right")
    table.add_column("player")
    table.add_column("score", justify="right")
    table.add_column("decided by")
    for p in ranking:
        decided = p.tiebreak if not p.detail else f"{p.tiebreak} ({p.detail})"
        table.add_row(str(p.place), p.name, str(p.score), decided)
    return table


def print_scores(console: Console, scores: Sequence[KingdomScore], ranking: Sequence[Place]) -> None:
    for score in scores:
        console.print(kingdom_panel(score))
    if len(scores) > 1:
        console.print(ranking_table(ranking))


def print_dynasty(console: Console, result: Dynasty, games: Sequence[str]) -> None:
    table = Table(title="dynasty", title_justify="left")
    table.add_column("player")
    for name in games:
        table.add_column(name, justify="right")
    table.add_column("total", justify="right")
    for row in result.rows:
        table.add_row(row.name, *("-" if v is None else str(v) for v in row.games), f"[b]{row.total}[/b]")
    console.print(table)
    console.print(ranking_table(result.ranking, "dynasty ranking"))
    for warning in result.warnings:
        console.print(Text(f"warning: {warning}", style="red"))
