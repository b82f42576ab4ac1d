"""Expansion games end to end: kingdom files -> parse -> score lines -> ranking (tests/data/expansions)."""

from __future__ import annotations

import pytest

from conftest import TEST_DATA
from conftest import run_kscore as run
from kscore.errors import KingdomFormatError
from kscore.game.ranking import rank
from kscore.game.scoring import score_kingdom
from kscore.game.textformat import parse_game, read_game, write_game

FILES = TEST_DATA / "expansions"


def scored(name: str):
    game = read_game(FILES / name)
    return game, [score_kingdom(k, game.rules) for k in game.kingdoms]


def lines_of(score) -> list[tuple[str, str, int]]:
    return [(l.kind, l.name, l.points) for l in score.lines]


def test_giants_file():
    game, [bob] = scored("giants.kingdom")
    assert game.rules.quests == ("folie-des-grandeurs", "local-business-wheat")
    # Properties: swamp 3x1 + wheat 6x1 + mine (row 1) 1x(2-2 under giants) + mine 4x(1+2+2+3-1 giant)
    # = 3 + 6 + 0 + 28 = 37 (the other properties have no crown)
    assert bob.property_points == 37
    assert lines_of(bob) == [
        ("giants", "giants", 0),  # mine at row 1: 1 x 2 = 2 without giants, 1 x 0 = 0 with: cost 2
        ("giants", "giants", 0),  # mine at row 2: 4 x 8 = 32 without, 4 x 7 = 28 with: cost 4
        ("quest", "folie-des-grandeurs", 10),  # column 1, rows 2-4: M1 M2 M2
        ("quest", "local-business-wheat", 15),  # 3 wheat squares among the castle's 8 neighbours
    ]
    assert "cost 2" in bob.lines[0].reason and "cost 4" in bob.lines[1].reason
    assert bob.total == 37 + 10 + 15 == 62
    assert bob.warnings == ()  # a real kingdom: board 2 of the Aalborg dataset


def test_queendomino_file_and_tiebreak():
    game, [carla, dave] = scored("queendomino.kingdom")
    # Carla: forest 3x1 + wheat 5x1 + village 2x1 + village 5x(1+1) + lake 4x1 + swamp 0 + mine 2x2 = 28
    assert carla.property_points == 28
    assert lines_of(carla) == [
        ("coins", "coins", 4),  # 14 // 3
        ("building", "building", 5),  # printed 5
        ("building", "building", 2),  # 2x:forest, 1 forest territory
        ("building", "building", 2),  # 1x:tower, 2 towers
        ("queen", "queen", 5),  # wheat (5, first in reading order) and village (5) tie: +5 either way
    ]
    assert carla.total == 46
    # Dave: wheat 6x1 + mine 5x1 = 11, coins 105 // 3 = 35: 46 too
    assert dave.total == 46
    places = rank([carla, dave], game.rules.game)
    # Queendomino tiebreak: the largest territory, Dave's wheat (6) beats Carla's 5
    assert [(p.name, p.place, p.tiebreak) for p in places] == [("Dave", 1, "largest property"), ("Carla", 2, "largest property")]


def test_origins_totem_file():
    game, [ayla] = scored("origins_totem.kingdom")
    # jungle 3x2 + quarry 3x1 + desert 3x1 + grassland 4x1 + lake 5x1 + jungle 3x0 = 21; volcanoes never score
    assert ayla.property_points == 21
    assert lines_of(ayla) == [("resources", "resources", 7), ("totem", "totem", 3), ("totem", "totem", 6)]
    assert ayla.total == 21 + 7 + 3 + 6 == 37
    assert ayla.warnings == ()  # no Origins box: no box warnings


def test_origins_tribe_file():
    _, [oog] = scored("origins_tribe.kingdom")
    # hunter at (4,4): 4 lake neighbours; warriors 2 and 3 side by side: 2 x (2 + 3) = 10
    assert lines_of(oog) == [("caveman", "hunter-gatherer", 4), ("caveman", "warriors", 10)]
    assert oog.total == 21 + 4 + 10 == 35


@pytest.mark.parametrize("name", ["giants.kingdom", "queendomino.kingdom", "origins_totem.kingdom", "origins_tribe.kingdom"])
def test_files_round_trip(name):
    game = read_game(FILES / name)
    again = parse_game(write_game(game), name)
    assert again.rules == game.rules and again.kingdoms == game.kingdoms


QUEEN_GRID = "F1 F W W V1\nF W W W1 V\nV1 V C L L\nV V1 V L1 L\nS S S M2 M\n"
ORIGINS_GRID = "J2 J Q Q1 D\nJ V Q D D1\nG G C L L\nG1 G V L L\nJ J J L1 V\n"


@pytest.mark.parametrize(
    "text,where,message",
    [
        # a village letter in a kingdomino file names the game it belongs to
        (QUEEN_GRID, "t.kingdom:1:10:", "unknown terrain 'V' in this game (V is village in queendomino; V is volcano in origins"),
        ("game: origins\n" + QUEEN_GRID, "t.kingdom:2:1:", "unknown terrain 'F' in this game (F is forest in kingdomino"),
        ("game: queendomino\n[A]\ncoins: 14\nbuildings: 5, 2x:forrest\n" + QUEEN_GRID, "t.kingdom:4:", "cannot read '2x:forrest'"),
        ("game: queendomino\n[A]\nbuildings: 1x:knight\n" + QUEEN_GRID, "t.kingdom:3:", "no `knights:` line"),
        ("[A]\ncoins: 3\n" + QUEEN_GRID.replace("V", "W"), "t.kingdom:2:", "a queendomino line, but the game is kingdomino"),
        ("game: origins\nquests: harmony\n" + ORIGINS_GRID, "t.kingdom:2:", "quests belong to Age of Giants"),
        ("quests: harmony, lost-corner harmony\n" + QUEEN_GRID.replace("V", "W"), "t.kingdom:1:", "quest named twice: harmony"),
        ("variants: totem\n" + QUEEN_GRID.replace("V", "W"), "t.kingdom:1:", "totem is a Kingdomino Origins mode"),
        ("game: origins\nvariants: tribe\n[A]\ntotems: fish\n" + ORIGINS_GRID, "t.kingdom:4:", "the game is in Tribe mode"),
        ("game: origins\n[A]\ncavemen: warrior:1@9,9\n" + ORIGINS_GRID, "t.kingdom:3:", "outside the 5x5 frame"),
        ("game: origins\n" + ORIGINS_GRID.replace("J2", "J2g"), "t.kingdom:", "giants belong to Age of Giants"),
    ],
)
def test_expansion_errors_name_file_and_line(text, where, message):
    with pytest.raises(KingdomFormatError) as error:
        parse_game(text, "t.kingdom")
    assert str(error.value).startswith(where), str(error.value)
    assert message in str(error.value), str(error.value)


# ------------------------------------------------------------------ the CLI


def test_cli_game_flag_for_a_headerless_file(capsys, tmp_path):
    import json

    path = tmp_path / "carla.kingdom"
    path.write_text("coins: 14\nqueen: yes\n" + QUEEN_GRID)
    code, out, err = run(capsys, path, "--game", "queendomino", "--no-tileset", "--json")
    assert code == 0 and err == ""
    [kingdom] = json.loads(out)["kingdoms"]
    # properties 28 (see test_queendomino_file) + coins 14 // 3 = 4 + queen 5
    assert kingdom["score"] == 37
    assert kingdom["bonuses"] == {"coins": 4, "queen": 5}
    code, _, err = run(capsys, path)  # the same file as kingdomino: V is not a kingdomino letter
    assert code == 2 and "V is village in queendomino" in err


def test_cli_table_shows_the_expansion_lines(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    code, out, err = run(capsys, FILES / "giants.kingdom", "--detail")
    assert code == 0 and err == ""
    assert "folie-des-grandeurs" in out and "the giants cost 4" in out and "total 62" in out


def test_cli_refuses_unknown_game_and_mixed_games(capsys):
    code, _, err = run(capsys, FILES / "giants.kingdom", "--game", "chess")
    assert code == 2 and "unknown game 'chess'" in err
    code, _, err = run(capsys, FILES / "giants.kingdom", FILES / "origins_totem.kingdom")
    assert code == 2 and "different games (kingdomino, origins)" in err


def test_cli_origins_table_says_fires(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    code, out, _ = run(capsys, FILES / "origins_totem.kingdom", "--detail")
    assert code == 0 and "fires" in out and "crowns" not in out and "total 37" in out


# Twelve distinct dominoes of tiles.md's Queendomino list (30 46 31 1 47 37 9 11 45 17 5 34),
# with building crowns on two village squares (V1, V2) that no tile prints.
REAL_QUEENDOMINO = """\
game: queendomino
F1 V  V1 V  L1
W  W  V  V2 V
G1 V  C  L  L
G  G  M3 V  S
W1 S  M2 W  S
"""


def test_building_crowns_do_not_trip_the_box_checks():
    from kscore.game.plausibility import crown_warnings
    from kscore.game.tileset import QUEENDOMINO

    game = parse_game(REAL_QUEENDOMINO, "real.kingdom")
    assert game.rules.tileset == "queendomino"  # the game's box by default
    score = score_kingdom(game.kingdoms[0], game.rules)
    assert score.warnings == ()
    # the village territory: 6 squares x (1 + 2) building crowns = 18
    assert max(p.points for p in score.properties if p.terrain.value == "village") == 18
    # read naively, the two crowned villages would look impossible
    assert len(crown_warnings(game.kingdoms[0], QUEENDOMINO)) == 2


def test_origins_ties_use_the_kingdomino_tiebreak():
    filler = "G L G L G\nL G C G L\nG L G L G\nL G L G L\n"  # single squares, no fire
    game = parse_game(f"game: origins\n[A]\nJ1 J J J J\n{filler}[B]\nQ1 Q Q Q D1\n{filler}", "t.kingdom")
    a, b = (score_kingdom(k, game.rules) for k in game.kingdoms)
    # A: jungle 5 x 1 = 5; B: quarry 4 x 1 + desert 1 x 1 = 5. Tied: A's largest property 5 beats B's 4
    assert a.total == b.total == 5
    places = rank([a, b], "origins")
    assert [(p.name, p.place, p.tiebreak) for p in places] == [("A", 1, "largest property"), ("B", 2, "largest property")]
