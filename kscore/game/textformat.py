"""The kingdom text format (`*.kingdom`): read and write games a person can fix by hand.

    # comments start with #
    variants: middle-kingdom, harmony      <- header: `key: value` before the first kingdom
    [Alice]                                <- each kingdom starts with [Name]
    W1 W0 F0 F1 L0                         <- one row per line, squares split by spaces
    G0 G2 C  L0 L1
    ...

A square token is: a terrain letter (table per game, see `letters_for_game`),
optional crowns 0-3, optional giants `g` (one) or `gN`, optional trailing `?`
(the recogniser was unsure). Lower case is accepted; output is upper case
(giants stay a lower-case `g` so `G1g` reads as grassland, 1 crown, 1 giant).
Without any `[Name]` line the file holds one kingdom named after the file.

Extending: add a game's letters to GAME_LETTERS, a header key to HEADER_KEYS
(handler `(rules, value) -> rules`, raising ValueError/`Problem` for bad values),
a per-kingdom key to KINGDOM_KEYS (its value lands in Kingdom.extras as written).
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable, Mapping

from kscore.errors import KingdomFormatError
from kscore.filetypes import DECODABLE_SUFFIXES
from kscore.game import registry
from kscore.game.expansions.errors import ExpansionError
from kscore.game.kingdom import BASE_LETTERS, MAX_CROWNS, SUPPORTED_SIZES, Kingdom, Square, Terrain
from kscore.game.rules import Game, GameRules
from kscore.game.scoreline import count
from kscore.game.tileset import TILESETS

__all__ = [
    "KingdomFormatError", "Problem", "GAME_LETTERS", "HEADER_KEYS", "KINGDOM_KEYS",
    "letters_for_game", "parse_game", "read_game", "write_game", "write_kingdom", "parse_square",
]

#: Terrain letters per game. Expansions add their games here.
GAME_LETTERS: dict[str, Mapping[str, Terrain]] = {name: game.letters for name, game in registry.GAMES.items()}


def letters_for_game(game: str) -> Mapping[str, Terrain]:
    """The letter -> terrain table the text format uses for `game`."""
    try:
        return GAME_LETTERS[game]
    except KeyError:
        raise Problem(f"unknown game '{game}'", "one of " + ", ".join(GAME_LETTERS)) from None


class Problem(ValueError):
    """A problem found in one value or token; the parser adds file, line and column."""

    def __init__(self, message: str, expected: str | None = None) -> None:
        super().__init__(message)
        self.message, self.expected = message, expected


# ---------------------------------------------------------------- header keys


def _words(value: str) -> list[str]:
    """`a, b c` -> ['a', 'b', 'c'] (commas and/or spaces), lower case."""
    return [w for w in re.split(r"[,\s]+", value.strip().lower()) if w]


def _set_game(rules: GameRules, value: str) -> GameRules:
    game = value.strip().lower()
    letters_for_game(game)  # validates
    return replace(rules, game=game)


def _set_variants(rules: GameRules, value: str) -> GameRules:
    names = _words(value)
    for name in names:
        if name not in registry.VARIANTS:
            raise Problem(f"unknown variant '{name}'", "one of " + ", ".join(registry.VARIANTS))
    return rules.with_variants(*names)


def _set_quests(rules: GameRules, value: str) -> GameRules:
    names = _words(value)
    for name in names:
        if name not in registry.QUESTS:
            known = ", ".join(registry.QUESTS) or "none in this build"
            raise Problem(f"unknown quest '{name}'", f"one of: {known}")
    return replace(rules, quests=tuple(names))


def _set_tileset(rules: GameRules, value: str) -> GameRules:
    name = value.strip().lower()
    if name == "none":
        return replace(rules, use_tileset=False)
    if name not in TILESETS:
        raise Problem(f"unknown tile set '{name}'", "one of " + ", ".join([*TILESETS, "none"]))
    return replace(rules, tileset=name)


HeaderHandler = Callable[[GameRules, str], GameRules]

#: Header keys (before the first kingdom). Handlers run in this dict's order.
HEADER_KEYS: dict[str, HeaderHandler] = {
    "game": _set_game,
    "variants": _set_variants,
    "quests": _set_quests,
    "tileset": _set_tileset,
}

#: Per-kingdom keys (inside a [Name] section) -> what they mean. Values go to Kingdom.extras.
KINGDOM_KEYS: dict[str, str] = {
    "frame": "'given': the grid as written is the kingdom's 5x5/7x7 frame, even with an empty edge row",
    **registry.KINGDOM_KEYS,  # Queendomino and Origins lines
}

#: Default tile box per game when the header names none.
DEFAULT_TILESET: dict[str, str] = {"kingdomino": "kingdomino", "queendomino": "queendomino",
                                   "origins": "none"}  # no Origins box list: no box checks


# ---------------------------------------------------------------- squares

#: One square's token inside a run of squares written without spaces (`W1W0` = `W1 W0`).
_SQUARES_RUN = re.compile(r"[A-Za-z][0-9]?(?:g[0-9]?)?\??")
# ASCII digits only: "\d" takes any script's digits, which no one types for a crown.
_REST = re.compile(r"(?P<crowns>[0-9]+)?(?:[gG](?P<giants>[0-9]+)?(?P<g>))?(?P<unsure>\?)?")


def _letters_hint(letters: Mapping[str, Terrain]) -> str:
    tiles = [k for k, t in letters.items() if t.scores]
    others = [k for k, t in letters.items() if not t.scores]
    return "one of " + " ".join(tiles) + (", " + " or ".join(others) if others else "")


def parse_square(token: str, letters: Mapping[str, Terrain] = BASE_LETTERS) -> Square:
    """One square token (`F1`, `m2g?`, `C`, `.`) -> Square; raises Problem."""
    letter = token[0].upper()
    swapped = re.fullmatch(r"(\d)([A-Za-z])", token)
    if swapped and swapped[2].upper() in letters:  # `1W`: the crowns written first
        raise Problem(f"cannot read square '{token}': did you mean '{swapped[2].upper()}{swapped[1]}'?",
                      "the terrain letter first, then its crowns")
    if letter not in letters:
        elsewhere = [f"{letter} is {t[letter].value} in {g}" for g, t in GAME_LETTERS.items() if letter in t]
        other_game = f" in this game ({'; '.join(elsewhere)}: set `game:` in the header)" if elsewhere else ""
        raise Problem(f"unknown terrain '{token[0]}'{other_game}", _letters_hint(letters))
    terrain = letters[letter]
    match = _REST.fullmatch(token[1:])
    joined = [] if match else _SQUARES_RUN.findall(token)
    if len(joined) > 1 and "".join(joined) == token and all(piece[0].upper() in letters for piece in joined):
        raise Problem(f"cannot read square '{token}': did you mean '{' '.join(joined)}'?",
                      "squares separated by spaces")
    if not match:
        raise Problem(f"cannot read square '{token}'",
                      "a terrain letter, crowns 0-3, optional giants g or gN, optional ?, like F1, M2g or L0?")
    crowns = _small(match["crowns"] or "0", token)
    has_giants = match["g"] is not None
    giants = _small(match["giants"], token) if match["giants"] else (1 if has_giants else 0)
    if crowns > MAX_CROWNS:
        raise Problem(f"{crowns} crowns on '{token}'", f"crowns 0-{MAX_CROWNS}")
    if not terrain.scores and (crowns or giants):
        raise Problem(f"'{token}': a {terrain.value} square carries no crowns or giants",
                      f"'{letter}' alone")
    if giants > crowns:
        raise Problem(f"'{token}': {count(giants, 'giant')} but {count(crowns, 'crown')}",
                      "at most one giant per crown")
    if has_giants and giants == 0:
        raise Problem(f"'{token}': g0 means no giant", "g, or gN with N >= 1, or nothing")
    return Square(terrain, crowns, giants, bool(match["unsure"]))


def _small(digits: str, token: str) -> int:
    """Crowns or giants: a few digits at most (int() of 4,300+ digits is an error of its own)."""
    if len(digits.lstrip("0")) > 2:
        raise Problem(f"'{token}': {len(digits)} digits of crowns or giants", f"crowns 0-{MAX_CROWNS}")
    return int(digits)


def square_token(square: Square, letters: Mapping[str, Terrain] = BASE_LETTERS) -> str:
    """The token for a square: the inverse of parse_square."""
    letter = next((k for k, t in letters.items() if t is square.terrain), None)
    if letter is None:
        raise ValueError(f"no letter for {square.terrain.value} in this game's table")
    text = letter
    if square.terrain.scores:
        text += str(square.crowns)
        if square.giants:
            text += "g" if square.giants == 1 else f"g{square.giants}"
    return text + ("?" if square.uncertain else "")


# ---------------------------------------------------------------- reading

_KEY = re.compile(r"\s*(?P<key>[A-Za-z][\w-]*)\s*:\s*(?P<value>.*?)\s*$")
_SECTION = re.compile(r"\s*\[(?P<name>[^\]]*)\]\s*$")


@dataclass
class _Section:
    name: str
    line: int
    col: int = 1  # of the `[`
    extras: dict[str, str] = field(default_factory=dict)
    extras_at: dict[str, tuple[int, int]] = field(default_factory=dict)  # key -> (line, column of the value)
    rows: list[tuple[int, list[tuple[int, str]]]] = field(default_factory=list)  # (line, [(col, token)])


def parse_game(text: str, source: str = "<text>", base: GameRules | None = None) -> Game:
    """Parse a whole kingdom file. `source` names it in errors and names a sectionless kingdom.

    `base` holds rules set elsewhere (CLI flags); the header adds to them.
    """
    def fail(message: str, line: int | None = None, col: int | None = None, expected: str | None = None):
        raise KingdomFormatError(message, source, line, col, expected)

    if "\x00" in text:
        fail("this is a binary file, not a kingdom text file")
    header: dict[str, str] = {}
    header_at: dict[str, tuple[int, int]] = {}  # key -> (line, column of the value)
    sections: list[_Section] = []
    lines = text_lines(text)
    sectioned = any(_SECTION.fullmatch(_strip_comment(line)) for line in lines)
    if not sectioned:
        sections.append(_Section("stdin" if source == "-" else Path(source).stem or source, 1))

    names = {s.name for s in sections}  # a file may hold thousands of kingdoms: no list scan per name
    for number, raw in enumerate(lines, start=1):
        line = _strip_comment(raw)
        if not line.strip():
            continue
        if line.lstrip().startswith("[") and not _SECTION.fullmatch(line):
            fail("a kingdom's name line needs its closing ']'", number, line.index("[") + 1,
                 f"[{line.strip().lstrip('[').rstrip(']').strip() or 'Alice'}]")
        if m := _SECTION.fullmatch(line):
            name = m["name"].strip()
            if not name:
                fail("empty kingdom name", number, line.index("[") + 1, "a name like [Alice]")
            if name in names:
                fail(f"two kingdoms named '{name}'", number, line.index("[") + 1, "one [Name] per player")
            sections.append(_Section(name, number, line.index("[") + 1))
            names.add(name)
            continue
        if m := _KEY.fullmatch(line):
            key, value, col = m["key"].lower(), m["value"], m.start("key") + 1
            in_header = not sections or (not sectioned and key in HEADER_KEYS)
            if in_header:
                if key not in HEADER_KEYS:
                    if key in KINGDOM_KEYS:
                        fail(f"'{key}' belongs to one kingdom", number, col, "it inside a [Name] section")
                    fail(f"unknown header key '{key}'", number, col, "one of " + ", ".join(HEADER_KEYS))
                if key in header:
                    fail(f"'{key}' given twice (first on line {header_at[key][0]})", number, col)
                header[key], header_at[key] = value, (number, m.start("value") + 1)
            else:
                if key not in KINGDOM_KEYS:
                    if not sectioned:  # one kingdom: header and kingdom keys mix
                        fail(f"unknown key '{key}'", number, col, "one of " + ", ".join([*HEADER_KEYS, *KINGDOM_KEYS]))
                    if key in HEADER_KEYS:
                        fail(f"'{key}' applies to the whole game", number, col,
                             "it before the first [Name] line")
                    fail(f"unknown kingdom key '{key}'", number, col, "one of " + ", ".join(KINGDOM_KEYS))
                extras = sections[-1].extras
                if key in extras:
                    fail(f"'{key}' given twice for '{sections[-1].name}'", number, col)
                extras[key] = value
                sections[-1].extras_at[key] = (number, m.start("value") + 1)
            continue
        if not sections:
            fail("a row of squares before the first [Name] line", number, 1, "[Name] first")
        tokens = [(m.start() + 1, m.group()) for m in re.finditer(r"\S+", line)]
        sections[-1].rows.append((number, tokens))

    rules = base or GameRules()
    for key in HEADER_KEYS:
        if key in header:
            try:
                rules = HEADER_KEYS[key](rules, header[key])
            except ValueError as problem:
                fail(str(problem), *header_at[key], getattr(problem, "expected", None))
    if "tileset" not in header and rules.game in DEFAULT_TILESET:
        rules = replace(rules, tileset=DEFAULT_TILESET[rules.game])
    letters = letters_for_game(rules.game)
    try:
        registry.check_rules(rules)
    except ExpansionError as problem:
        fail(str(problem), *header_at.get(problem.key or "game", (None, None)))  # a game that cannot combine: its line

    kingdoms = []
    for section in sections:
        kingdom = _build_kingdom(section, letters, fail, sectioned)
        try:  # the game's own lines (coins, buildings, cavemen...) and limits (giants)
            registry.check_kingdom(kingdom, rules)
        except ExpansionError as problem:
            fail(str(problem), *_where(problem, section, sectioned))
        kingdoms.append(kingdom)
    if not kingdoms:
        fail("no kingdom in this file", None, None, "rows of squares like 'W1 G0 C L0 .'")
    return Game(rules, tuple(kingdoms), source, header)


def _where(problem: ExpansionError, section: _Section, sectioned: bool) -> tuple[int | None, int | None]:
    """(line, column) of what a kingdom's check blames: its square, its key's value, else its [Name] line."""
    if problem.position is not None:
        row, col = problem.position
        line, tokens = section.rows[row]
        return line, tokens[col][0]
    return section.extras_at.get(problem.key or "", (section.line if sectioned else None, None))


def text_lines(text: str) -> list[str]:
    """The file's lines: only \n (or \r\n) ends one. str.splitlines() also splits at VT, FF, NEL,
    U+2028..., which a photo's name may hold: kscore writes such names and must read them back."""
    return [line[:-1] if line.endswith("\r") else line for line in text.split("\n")]


def _strip_comment(line: str) -> str:
    return line.split("#", 1)[0]


def _build_kingdom(section: _Section, letters, fail, sectioned: bool) -> Kingdom:
    if not section.rows:
        where = f"kingdom '{section.name}'" if sectioned else "this file"
        fail(f"{where} has no rows of squares", *((section.line, section.col) if sectioned else (None, None)),
             "rows of squares like 'W1 G0 C L0 .'")
    first_line, first = section.rows[0]
    # The odd row out is the one to blame: a first row one square too long is the first row's fault.
    lengths = [len(tokens) for _, tokens in section.rows]
    width = max(lengths, key=lambda n: (lengths.count(n), n == len(first)))
    grid = []
    for number, tokens in section.rows:
        row = []
        for col, token in tokens:  # first: `W1W0` is a missing space, which also shortens the row
            try:
                row.append(parse_square(token, letters))
            except Problem as problem:
                fail(problem.message, number, col, problem.expected)
        if len(tokens) != width:
            col = tokens[width][0] if len(tokens) > width else len(_line_end(tokens)) + 1
            others = (f"the first row (line {first_line}) has {width}" if width == len(first)
                      else f"the other rows have {width}")
            fail(f"row has {len(tokens)} squares but {others}", number, col, "rows of equal length")
        grid.append(row)
    height = len(grid)
    if height != width or width not in SUPPORTED_SIZES:
        sizes = " or ".join(f"{n}x{n}" for n in SUPPORTED_SIZES)
        fail(f"kingdom '{section.name}' is {height} rows of {width} squares", section.rows[0][0], section.rows[0][1][0][0],
             sizes)
    frame = section.extras.get("frame")
    if frame is not None and frame.strip().lower() != "given":
        fail(f"unknown frame '{frame}'", *section.extras_at["frame"], "'frame: given'")
    return Kingdom.from_rows(section.name, grid, section.extras)


def _line_end(tokens: list[tuple[int, str]]) -> str:
    if not tokens:
        return ""
    col, token = tokens[-1]
    return " " * (col - 1) + token


def read_game(path: Path | str, base: GameRules | None = None) -> Game:
    """Read and parse a kingdom file (`-`: standard input); every problem becomes a KingdomFormatError."""
    path = Path(path)
    source = str(path)
    try:
        data = _standard_input() if source == "-" else path.read_bytes()
    except IsADirectoryError:
        raise KingdomFormatError("is a directory, not a kingdom file", source) from None
    except FileNotFoundError:
        raise KingdomFormatError("no such file", source) from None
    except OSError as error:
        raise KingdomFormatError(f"cannot read: {error.strerror or error}", source) from None
    try:  # Windows Notepad's "Unicode" is UTF-16 with a byte-order mark
        text = data.decode("utf-16") if data[:2] in (b"\xff\xfe", b"\xfe\xff") else data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        text, bad = "\x00", error.start + (3 if data.startswith(b"\xef\xbb\xbf") else 0)  # utf-8-sig counts after its BOM
    if "\x00" in text:  # not text: a photo under another name gets told so
        image = _image_kind(data)
        if image:
            names = ", ".join(DECODABLE_SUFFIXES[:-1]) + " or " + DECODABLE_SUFFIXES[-1]
            raise KingdomFormatError(f"this is a {image} image, not a kingdom text file; kscore reads photos named "
                                     f"{names} (rename or convert it)", source)
        if b"\x00" in data:
            raise KingdomFormatError("this is a binary file, not a kingdom text file", source)
        line_start = data.rfind(b"\n", 0, bad) + 1
        col = len(data[line_start:bad].decode("utf-8", "replace")) + 1  # in characters, as an editor counts
        raise KingdomFormatError(f"not UTF-8 text (byte 0x{data[bad]:02x} at offset {bad})", source,
                                 data.count(b"\n", 0, bad) + 1, col, "the file saved as UTF-8")
    if not text.strip():
        raise KingdomFormatError("empty file", source, None, None, "rows of squares like 'W1 G0 C L0 .'")
    return parse_game(text, source, base)


def _standard_input() -> bytes:
    """The kingdom piped in (`... | kscore -`); a terminal would wait for typing no one knows to do."""
    if sys.stdin is None or sys.stdin.isatty():
        raise KingdomFormatError("standard input is a terminal: pipe a kingdom in", "-", None, None,
                                 "kscore - < game.kingdom")
    return sys.stdin.buffer.read()


#: File signatures of images, for a photo named like a text file (`photo.kingdom`, `scan.gif`).
_IMAGE_MAGIC = ((b"\xff\xd8\xff", "JPEG"), (b"\x89PNG", "PNG"), (b"GIF8", "GIF"), (b"BM", "BMP"),
                (b"II*\x00", "TIFF"), (b"MM\x00*", "TIFF"), (b"\x00\x00\x00\x0cjP", "JPEG 2000"))


def _image_kind(data: bytes) -> str | None:
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "WEBP"
    if data[4:8] == b"ftyp" and data[8:12] in (b"heic", b"heix", b"mif1", b"msf1", b"avif"):
        return "HEIC/AVIF"
    return next((kind for magic, kind in _IMAGE_MAGIC if data.startswith(magic)), None)


# ---------------------------------------------------------------- writing


def write_kingdom(kingdom: Kingdom, game: str = "kingdomino") -> str:
    """A `[Name]` section: extras, then the grid with aligned columns."""
    if not kingdom.name.strip() or kingdom.name != kingdom.name.strip() or any(c in kingdom.name for c in "[]#\n\r"):
        raise ValueError(f"kingdom name {kingdom.name!r} cannot be written in a [Name] line")
    letters = letters_for_game(game)
    lines = [f"[{kingdom.name}]"]
    lines += [f"{key}: {value}" for key, value in kingdom.extras.items()]
    tokens = [[square_token(s, letters) for s in row] for row in kingdom.rows]
    width = max((len(t) for row in tokens for t in row), default=1)
    lines += [" ".join(t.ljust(width) for t in row).rstrip() for row in tokens]
    return "\n".join(lines) + "\n"


def write_game(game: Game) -> str:
    """The whole file: header lines that differ from the defaults, then each kingdom."""
    rules = game.rules
    header = []
    if rules.game != "kingdomino":
        header.append(f"game: {rules.game}")
    if rules.variants:
        header.append("variants: " + ", ".join(sorted(rules.variants)))
    if rules.quests:
        header.append("quests: " + ", ".join(rules.quests))
    if not rules.use_tileset:
        header.append("tileset: none")
    elif rules.tileset != DEFAULT_TILESET.get(rules.game, "kingdomino"):
        header.append(f"tileset: {rules.tileset}")
    parts = ["\n".join(header) + "\n"] if header else []
    parts += [write_kingdom(k, rules.game) for k in game.kingdoms]
    return "\n".join(parts)
