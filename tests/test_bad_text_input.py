"""Hostile text input (issue 16): every bad value one short line with file:line:col, exit 2,
never Python's own limits surfacing as an internal error; every name kscore writes reads back."""

from __future__ import annotations

import pytest

from conftest import run_kscore as run
from kscore.errors import KingdomFormatError
from kscore.game.kingdom import Kingdom
from kscore.game.rules import Game, GameRules
from kscore.game.textformat import parse_game, read_game, write_game

GRID = "W1 W0 F0 F1 L0\nG0 G2 C  L0 L1\nG0 S0 S1 L0 L0\nM2 S0 W0 W0 .\nM0 W1 W0 F0 .\n"
ORIGINS_GRID = "G1 G0 G0 G1 L0\nG0 G2 C  L0 L1\nG0 D0 D1 L0 L0\nQ2 D0 G0 G0 .\nQ0 G1 G0 G0 .\n"
HUGE = "9" * 5000  # past Python's 4,300-digit int() limit


def error_of(text: str) -> str:
    with pytest.raises(KingdomFormatError) as info:
        parse_game(text, "t.kingdom")
    return str(info.value)


@pytest.mark.parametrize(
    "text, where, words",
    [
        (GRID.replace("M2", "M" + HUGE), "t.kingdom:4:1:", "digits of crowns"),
        (GRID.replace("M2", "M2g" + HUGE), "t.kingdom:4:1:", "digits of crowns or giants"),
        (GRID.replace("M2", "M²"), "t.kingdom:4:1:", "cannot read square"),
        ("game: queendomino\n[A]\nbuildings: ²\n" + GRID, "t.kingdom:3:12:", "buildings: cannot read '²'"),
        ("game: queendomino\n[A]\nbuildings: 5, " + HUGE + "\n" + GRID, "t.kingdom:3:12:", "too large"),
        ("game: queendomino\n[A]\nbuildings: " + HUGE + "x:tower\ntowers: 1\n" + GRID, "t.kingdom:3:12:", "too large"),
        ("game: queendomino\n[A]\ncoins: " + HUGE + "\n" + GRID, "t.kingdom:3:8:", "too large"),
        ("game: queendomino\n[A]\ncoins: x\n" + GRID, "t.kingdom:3:8:", "coins: expected a whole number"),
        ("game: queendomino\n" + GRID + "coins: ³\n", "t.kingdom:7:8:", "coins: expected a whole number"),
        ("game: origins\n[A]\ncavemen: warrior:" + HUGE + "@1,1\n" + ORIGINS_GRID, "t.kingdom:3:10:", "too large"),
        ("game: origins\n[A]\ncavemen: warrior:2@1," + HUGE + "\n" + ORIGINS_GRID, "t.kingdom:3:10:", "too large"),
        ("game: origins\n[A]\nresources: " + HUGE + "\n" + ORIGINS_GRID, "t.kingdom:3:12:", "too large"),
        ("[A]\n" + GRID + "frame: maybe\n", "t.kingdom:7:8:", "unknown frame 'maybe'"),
        # A giant in a game without giants: the first square carrying one, sectioned or not (fuzzed, issue 16).
        ("game: origins\n" + ORIGINS_GRID.replace("D1", "D1g" + HUGE), "t.kingdom:4:7:", "digits of crowns or giants"),
        ("game: origins\n" + ORIGINS_GRID.replace("D1", "D1g"), "t.kingdom:4:7:", "giants belong to Age of Giants"),
        ("game: origins\n[A]\n" + ORIGINS_GRID.replace("L1", "L1g"), "t.kingdom:4:13:", "giants belong to Age"),
        ("game: origins\n" + ORIGINS_GRID.replace("Q2", "Q2g").replace("L1", "L1g"), "t.kingdom:3:13:", "giants belong"),
        ("variants: " + "x" * 10_000_000 + "\n" + GRID, "t.kingdom:1:11:", "unknown variant"),
    ],
)
def test_bad_values_say_line_and_column_in_one_short_line(text, where, words):
    message = error_of(text)
    assert message.startswith(where), message[:300]
    assert words in message, message[:300]
    assert "\n" not in message and len(message) < 400, len(message)


def test_a_huge_number_from_the_command_line_exits_2_with_one_line(capsys, tmp_path):
    path = tmp_path / "big.kingdom"
    path.write_text("game: queendomino\n[A]\nbuildings: " + HUGE + "\n" + GRID)
    code, out, err = run(capsys, path)
    assert code == 2 and out == ""
    assert err.startswith(f"kscore: {path}:3:12: buildings:") and err.count("\n") == 1 and len(err) < 300


def test_not_utf8_names_line_and_column(tmp_path):
    path = tmp_path / "k.kingdom"
    path.write_bytes(b"\xef\xbb\xbfW1 W0\nG0 \xe9S1 L0\n")
    with pytest.raises(KingdomFormatError) as info:
        read_game(path)
    assert str(info.value).startswith(f"{path}:2:4: not UTF-8"), str(info.value)


@pytest.mark.parametrize("odd", ["\x0b", "\x0c", "\x1c", "\x85", "\u2028", "\u2029"])
def test_names_holding_characters_str_splitlines_splits_at_read_back(odd):
    kingdom = parse_game(GRID).kingdoms[0]
    named = Kingdom.from_rows(f"a{odd}b", kingdom.rows)
    text = write_game(Game(GameRules(), (named, Kingdom.from_rows("c", kingdom.rows))))
    assert [k.name for k in parse_game(text).kingdoms] == [f"a{odd}b", "c"]


def test_only_newline_and_crlf_end_a_line():
    assert parse_game(GRID.replace("\n", "\r\n")).kingdoms[0].rows == parse_game(GRID).kingdoms[0].rows
    message = error_of(GRID.replace("\n", "\x0c", 1))  # a form feed does not end the first row
    assert message.startswith("t.kingdom:") and "10 squares" in message, message  # the row the FF did not end


@pytest.mark.parametrize("stem", ["[red]r", "a[b]c", "x:smile:", "[b]bold", "[link=x]y"])
def test_names_are_shown_literally_in_the_terminal(capsys, tmp_path, stem):
    path = tmp_path / f"{stem}.kingdom"
    path.write_text(GRID)
    other = tmp_path / "other.kingdom"
    other.write_text(GRID.replace("M2", "M3"))
    code, out, err = run(capsys, path, other)
    assert code == 0, err
    assert out.count(stem) >= 2, out  # the panel's title and the ranking


def test_control_characters_in_a_quoted_token_are_shown_escaped():
    message = error_of("game: que\u2028en\rdomino\n" + GRID)
    assert "que\\u2028en\\rdomino" in message and "\u2028" not in message and "\r" not in message, message
    assert error_of("[A]\n\n" + GRID.replace("W1 W0 F0 F1 L0\n", "")).startswith("t.kingdom:3:1: kingdom 'A' is 4 rows")
