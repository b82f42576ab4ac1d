"""The kingdom text format: reading, errors with file:line:col, writing, round trip."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import TEST_DATA
from kscore.errors import KingdomFormatError
from kscore.game.kingdom import BASE_LETTERS, Kingdom, Square, Terrain
from kscore.game.rules import Game, GameRules
from kscore.game.textformat import KINGDOM_KEYS, letters_for_game, parse_game, parse_square, read_game, write_game, write_kingdom

ALICE_GRID = """\
W1 W0 F0 F1 L0
G0 G2 C  L0 L1
G0 S0 S1 L0 L0
M2 S0 W0 W0 .
M0 W1 W0 F0 .
"""


def error_of(text: str, source: str = "t.kingdom") -> str:
    with pytest.raises(KingdomFormatError) as info:
        parse_game(text, source)
    return str(info.value)


def test_issue_example_reads_square_by_square():
    game = read_game(TEST_DATA / "alice.kingdom")
    assert [k.name for k in game.kingdoms] == ["alice"]  # no [Name]: named after the file
    k = game.kingdoms[0]
    assert k.size == 5
    assert k[0, 0] == Square(Terrain.WHEAT, 1)
    assert k[1, 1] == Square(Terrain.GRASSLAND, 2)
    assert k[1, 2] == Square(Terrain.CASTLE)
    assert k[3, 4] == Square(Terrain.EMPTY)
    assert k[3, 0] == Square(Terrain.MINE, 2)
    assert game.rules == GameRules()


def test_bare_letter_lower_case_and_unsure_mark():
    assert parse_square("f") == Square(Terrain.FOREST, 0)
    assert parse_square("m3") == Square(Terrain.MINE, 3)
    assert parse_square("F1?") == Square(Terrain.FOREST, 1, uncertain=True)
    assert parse_square("c") == Square(Terrain.CASTLE)


def test_giants_suffix():
    assert parse_square("M2g") == Square(Terrain.MINE, 2, giants=1)
    assert parse_square("M3g2?") == Square(Terrain.MINE, 3, giants=2, uncertain=True)
    assert parse_square("G1g") == Square(Terrain.GRASSLAND, 1, giants=1)  # letter first, g after the digit


def test_output_is_upper_case():
    game = parse_game(ALICE_GRID.lower(), "x.kingdom")
    assert write_kingdom(game.kingdoms[0]).splitlines()[1].split() == ["W1", "W0", "F0", "F1", "L0"]


def test_sections_header_and_comments():
    text = """
    # a game
    variants: middle-kingdom, harmony   # both
    [Alice Smith]
    frame: given
    """ + ALICE_GRID + "\n[Bob]\n" + ALICE_GRID
    game = parse_game(text, "g.kingdom")
    assert [k.name for k in game.kingdoms] == ["Alice Smith", "Bob"]
    assert game.rules.variants == {"middle-kingdom", "harmony"}
    assert game.kingdoms[0].extras == {"frame": "given"}
    assert game.kingdoms[1].extras == {}
    assert game.header == {"variants": "middle-kingdom, harmony"}


def test_variants_separated_by_spaces_and_tileset_none():
    game = parse_game("variants: harmony middle-kingdom\ntileset: none\n" + ALICE_GRID)
    assert game.rules.variants == {"harmony", "middle-kingdom"}
    assert game.rules.use_tileset is False


def test_base_rules_from_the_command_line_are_kept():
    game = parse_game("variants: harmony\n" + ALICE_GRID, base=GameRules(variants=frozenset({"middle-kingdom"})))
    assert game.rules.variants == {"harmony", "middle-kingdom"}


def test_seven_by_seven():
    game = read_game(TEST_DATA / "duel.kingdom")
    assert game.kingdoms[0].size == 7
    assert game.kingdoms[0][3, 3].terrain is Terrain.CASTLE


def test_unknown_terrain_error_names_file_line_column():
    text = "W1 W0 F0 F1 L0\nG0 G2 C  L0 L1\nG0 S0 X1 L0 L0\n"
    assert error_of(text, "alice.kingdom") == (
        "alice.kingdom:3:7: unknown terrain 'X' (expected one of W G F L S M, C or .)"
    )


@pytest.mark.parametrize(
    "text, where, words",
    [
        ("W4 W0 F0 F1 L0\n" + ALICE_GRID.split("\n", 1)[1], "t.kingdom:1:1:", "4 crowns"),
        ("W1 W0 F0 F1\n" + ALICE_GRID.split("\n", 1)[1], "t.kingdom:1:12:", "row has 4 squares but the other rows have 5"),
        # the first row is the one too long: it is blamed, not the four rows after it
        ("W1 W0 F0 F1 L0 L0\n" + ALICE_GRID.split("\n", 1)[1], "t.kingdom:1:16:",
         "row has 6 squares but the other rows have 5"),
        ("W W W W\nW W W W\nC W W W\nW W W W\n", "t.kingdom:1:", "4 rows of 4 squares (expected 5x5 or 7x7)"),
        ("W W W W W\nW W W W W\nW W C W W\nW W W W W\n", "t.kingdom:1:", "4 rows of 5 squares"),
        (ALICE_GRID.replace("C ", "C1"), "t.kingdom:2:7:", "carries no crowns"),
        (ALICE_GRID.replace("M2", "M1g2"), "t.kingdom:4:1:", "2 giants but 1 crown"),
        (ALICE_GRID.replace("M2", "M2x"), "t.kingdom:4:1:", "cannot read square 'M2x'"),
        (ALICE_GRID.replace("M2", "M2g0"), "t.kingdom:4:1:", "g0 means no giant"),
        ("colour: red\n" + ALICE_GRID, "t.kingdom:1:1:", "unknown key 'colour' (expected one of game, variants"),
        ("colour: red\n[A]\n" + ALICE_GRID, "t.kingdom:1:1:", "unknown header key 'colour'"),
        ("variants: harmony, chaos\n" + ALICE_GRID, "t.kingdom:1:11:", "unknown variant 'chaos'"),
        ("game: chess\n" + ALICE_GRID, "t.kingdom:1:7:", "unknown game 'chess'"),
        ("tileset: lego\n" + ALICE_GRID, "t.kingdom:1:10:", "unknown tile set 'lego'"),
        ("quests: lost-corners\n" + ALICE_GRID, "t.kingdom:1:9:", "unknown quest 'lost-corners'"),
        ("variants: harmony\nvariants: harmony\n" + ALICE_GRID, "t.kingdom:2:1:", "given twice"),
        ("[A]\nvariants: harmony\n" + ALICE_GRID, "t.kingdom:2:1:", "applies to the whole game"),
        ("frame: given\n[A]\n" + ALICE_GRID, "t.kingdom:1:1:", "belongs to one kingdom"),
        ("[A]\ngold: 3\n" + ALICE_GRID, "t.kingdom:2:1:", "unknown kingdom key 'gold'"),
        ("[A]\nframe: maybe\n" + ALICE_GRID, "t.kingdom:2:8:", "unknown frame 'maybe'"),
        (ALICE_GRID + "[A]\n" + ALICE_GRID, "t.kingdom:1:1:", "before the first [Name] line"),
        ("[A]\n" + ALICE_GRID + "[A]\n" + ALICE_GRID, "t.kingdom:7:1:", "two kingdoms named 'A'"),
        ("[A]\n" + ALICE_GRID + "[B]\n", "t.kingdom:7:", "kingdom 'B' has no rows"),
        ("[ ]\n" + ALICE_GRID, "t.kingdom:1:1:", "empty kingdom name"),
        ("# only a comment\n", "t.kingdom:", "has no rows of squares"),
    ],
)
def test_parse_errors_say_where_and_what(text, where, words):
    message = error_of(text)
    assert message.startswith(where), message
    assert words in message, message
    assert "\n" not in message


def test_castle_count_is_not_a_parse_error():
    # No castle or two castles: the grid is read; plausibility warns (test_plausibility).
    game = parse_game(ALICE_GRID.replace("C ", "W0"))
    assert game.kingdoms[0].castles() == []


@pytest.mark.parametrize(
    "make, words",
    [
        (lambda p: p.mkdir(), "is a directory"),
        (lambda p: None, "no such file"),
        (lambda p: p.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), "a PNG image, not a kingdom text file"),
        (lambda p: p.write_bytes("W1 é".encode("latin-1")), "not UTF-8"),
        (lambda p: p.write_text(""), "empty file"),
        (lambda p: p.write_text("\n  \n"), "empty file"),
    ],
)
def test_unreadable_files(tmp_path, make, words):
    path = tmp_path / "k.kingdom"
    make(path)
    with pytest.raises(KingdomFormatError) as info:
        read_game(path)
    assert str(info.value).startswith(f"{path}:")  # file:line:col: for a bad byte
    assert words in str(info.value)


def test_utf8_bom_and_crlf_are_fine(tmp_path):
    path = tmp_path / "k.kingdom"
    path.write_bytes(b"\xef\xbb\xbf" + ALICE_GRID.replace("\n", "\r\n").encode())
    assert read_game(path).kingdoms[0][1, 2].terrain is Terrain.CASTLE


def test_letters_table_is_per_game():
    assert letters_for_game("kingdomino") == BASE_LETTERS
    with pytest.raises(ValueError):
        letters_for_game("no-such-game")


# ------------------------------------------------------------------ round trip

_TILE_TERRAINS = [t for t in BASE_LETTERS.values() if t.scores]


@st.composite
def squares(draw) -> Square:
    kind = draw(st.sampled_from(["tile", "tile", "tile", "castle", "empty"]))
    unsure = draw(st.booleans())
    if kind == "castle":
        return Square(Terrain.CASTLE, uncertain=unsure)
    if kind == "empty":
        return Square(Terrain.EMPTY, uncertain=unsure)
    crowns = draw(st.integers(0, 3))
    return Square(draw(st.sampled_from(_TILE_TERRAINS)), crowns, draw(st.integers(0, crowns)), unsure)


@st.composite
def kingdoms(draw, name=None) -> Kingdom:
    size = draw(st.sampled_from([5, 7]))
    rows = [[draw(squares()) for _ in range(size)] for _ in range(size)]
    name = name or draw(st.from_regex(r"[A-Za-z][A-Za-z0-9 '_.-]{0,15}[A-Za-z0-9]", fullmatch=True))
    extras = draw(st.sampled_from([{}, {"frame": "given"}]))
    return Kingdom.from_rows(name, rows, extras)


@st.composite
def games(draw) -> Game:
    count = draw(st.integers(1, 4))
    ks = [draw(kingdoms(name=f"Player {i}")) for i in range(count)]
    rules = GameRules(
        variants=frozenset(draw(st.sets(st.sampled_from(["middle-kingdom", "harmony"])))),
        use_tileset=draw(st.booleans()),
    )
    return Game(rules, tuple(ks))


@settings(max_examples=60, deadline=None)
@given(kingdoms())
def test_writing_a_kingdom_and_reading_it_back_gives_the_same_kingdom(kingdom):
    text = write_kingdom(kingdom)
    assert parse_game(text).kingdoms == (kingdom,)


@settings(max_examples=40, deadline=None)
@given(games())
def test_writing_a_game_and_reading_it_back_gives_the_same_game(game):
    back = parse_game(write_game(game))
    assert back.rules == game.rules
    assert back.kingdoms == game.kingdoms


def test_writer_refuses_names_the_format_cannot_hold():
    k = parse_game(ALICE_GRID).kingdoms[0]
    for bad in ["", " Al", "A]", "#1", "a\nb"]:
        with pytest.raises(ValueError):
            write_kingdom(Kingdom(bad, k.rows))


def test_kingdom_keys_are_documented():
    assert all(isinstance(text, str) and text for text in KINGDOM_KEYS.values())


_ALPHABET = st.sampled_from(list("WGFLSMCwgfl.?0123459 []#:\n\t-xé") + ["variants: ", "frame: given", "[A]\n"])


@settings(max_examples=200, deadline=None)
@given(st.lists(_ALPHABET, max_size=80).map("".join))
def test_any_text_either_parses_or_fails_with_one_line_format_error(text):
    try:
        game = parse_game(text, "f.kingdom")
    except KingdomFormatError as error:
        assert str(error).startswith("f.kingdom") and "\n" not in str(error)
    else:
        assert all(k.size in (5, 7) for k in game.kingdoms)


def test_utf16_from_windows_notepad_is_read(tmp_path):
    for encoding, bom in (("utf-16-le", b"\xff\xfe"), ("utf-16-be", b"\xfe\xff")):
        path = tmp_path / "k.kingdom"
        path.write_bytes(bom + ALICE_GRID.replace("\n", "\r\n").encode(encoding))  # was "a binary file"
        assert read_game(path).kingdoms[0][1, 2].terrain is Terrain.CASTLE


@pytest.mark.parametrize(
    "text, message",
    [
        ("[Alice\n" + ALICE_GRID, "t.kingdom:1:1: a kingdom's name line needs its closing ']' (expected [Alice])"),
        (ALICE_GRID.replace("W1", "1W", 1),
         "t.kingdom:1:1: cannot read square '1W': did you mean 'W1'? (expected the terrain letter first, then its crowns)"),
        (ALICE_GRID.replace("W1 W0", "W1W0", 1),
         "t.kingdom:1:1: cannot read square 'W1W0': did you mean 'W1 W0'? (expected squares separated by spaces)"),
        # a longer row in the middle is still that row's fault
        (ALICE_GRID.replace("L0 L1\n", "L0 L1 L1\n", 1),
         "t.kingdom:2:16: row has 6 squares but the first row (line 1) has 5 (expected rows of equal length)"),
    ],
)
def test_typing_slips_get_a_message_that_says_what_was_meant(text, message):
    assert error_of(text, "t.kingdom") == message
