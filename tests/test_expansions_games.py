"""The three games: letters per game, the one entry point, and game/feature mismatches."""

from __future__ import annotations

import pytest

from expansions_grid import grid
from kscore.game.expansions.errors import ExtrasError, GameError, GiantsError
from kscore.game.expansions.games import GAMES, expansion_lines, get_game, terrain_for_letter, tiebreak_key
from kscore.game.kingdom import Kingdom, Square, Terrain

BASE = "W1 W F F F\nW W F1 F F\nL L C L L\nM2g L L L L\nM L L L L"


def test_letters_per_game():
    assert terrain_for_letter("V", "queendomino") is Terrain.VILLAGE
    assert terrain_for_letter("v", "origins") is Terrain.VOLCANO
    assert terrain_for_letter("J", "origins") is Terrain.JUNGLE
    assert set(GAMES["kingdomino"].letters) == set("WGFLSMC.")


def test_a_letter_of_another_game_names_that_game():
    with pytest.raises(GameError, match="'V' is not a kingdomino letter.*V is village in queendomino.*volcano in origins"):
        terrain_for_letter("V", "kingdomino")
    with pytest.raises(GameError, match="'J' is not a queendomino letter.*jungle in origins"):
        terrain_for_letter("J", "queendomino")
    with pytest.raises(GameError, match="unknown letter 'X'"):
        terrain_for_letter("X", "kingdomino")
    with pytest.raises(GameError, match="unknown game 'chess'"):
        get_game("chess")


def test_kingdomino_with_giants_and_quests():
    lines = expansion_lines(grid(BASE), "kingdomino", ("lost-corner", "local-business-lake"))
    kinds = [(l.kind, l.name, l.points) for l in lines]
    # mine: 2 squares x 2 crowns = 4 without the giant, 2 x 1 = 2 with: information line
    assert kinds[0] == ("giants", "giants", 0)
    # castle at the centre: not a corner; of its 8 neighbours (W F1 F / L . L / L L L)
    # 5 are lake: 5 x 5 = 25
    assert kinds[1:] == [("quest", "lost-corner", 0), ("quest", "local-business-lake", 25)]


def test_queendomino_lines_and_tiebreak():
    k = grid(BASE.replace("M2g", "V1"), "queendomino", {"coins": "9", "queen": "yes"})
    lines = expansion_lines(k, "queendomino")
    # 9 coins // 3 = 3; queen on the largest territory (lake: 4 + 4 + 4 squares, joined): +12
    assert [(l.kind, l.points) for l in lines] == [("coins", 3), ("queen", 12)]
    assert tiebreak_key(k, "queendomino") == (12,)
    assert tiebreak_key(k, "kingdomino") is None


def test_origins_has_no_giants_or_quests():
    k = grid("J1g J Q Q D\n" * 2 + "G G C L L\n" + "G G V L L\n" * 2, "origins")
    with pytest.raises(GameError, match="giants belong to Age of Giants"):
        expansion_lines(k, "origins")
    plain = grid("J1 J Q Q D\n" * 2 + "G G C L L\n" + "G G V L L\n" * 2, "origins")
    with pytest.raises(GameError, match="quests belong to Age of Giants"):
        expansion_lines(plain, "origins", ("harmony",))
    assert expansion_lines(plain, "origins") == []


def test_extras_of_another_game_name_it():
    with pytest.raises(ExtrasError, match="coins: a queendomino line, but the game is kingdomino") as error:
        expansion_lines(grid(BASE, extras={"coins": "3"}), "kingdomino")
    assert error.value.key == "coins"
    # keys no game owns (the core's `frame:`) are not the expansions' business
    assert expansion_lines(grid(BASE, extras={"frame": "given"}), "kingdomino")[0].kind == "giants"


def test_terrain_of_another_game_in_the_grid():
    k = Kingdom.from_rows("k", [[Square(Terrain.VILLAGE)] * 5] * 5)
    with pytest.raises(GameError, match="village is not a terrain of kingdomino"):
        expansion_lines(k, "kingdomino")


def test_too_many_giants_caught_by_the_entry_point():
    k = Kingdom.from_rows("k", [[Square(Terrain.MINE, 1, 2)] * 5] * 5)
    with pytest.raises(GiantsError):
        expansion_lines(k, "kingdomino")


def test_expansion_errors_reach_the_user_as_bad_input_not_internal_errors():
    from kscore.errors import KscoreError
    from kscore.game.expansions.errors import ExpansionError, GiantsError

    assert issubclass(GiantsError, KscoreError) and issubclass(GiantsError, ValueError)
    assert ExpansionError.exit_code == 2
