"""The score sheet: on one 80x24 terminal for four players, as a picture, and as CSV columns."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import select
import subprocess
import sys
import time

import cv2
import numpy as np

from conftest import PROJECT, TEST_DATA
from conftest import run_kscore as run
from kscore.app.sheet import build_sheet
from kscore.app.sheet_image import FONT, INK, PAPER, WIN, draw_sheet, render_png, text_width
from kscore.game.ranking import rank
from kscore.game.scoring import score_kingdom
from kscore.game.textformat import read_game

FOUR = TEST_DATA / "four-players.kingdom"  # four real kingdoms (Aalborg boards), both variants, three missed
SAMPLE = PROJECT / "sample_images" / "two-player-game.kingdom"
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07")


def on_terminal(args: list[str], columns: int = 80, rows: int = 24) -> str:
    """kscore's screen on a real pseudo-terminal of columns x rows (colours and all), escapes removed."""
    import fcntl
    import struct
    import termios

    leader, follower = os.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "NO_COLOR")}
    env["TERM"] = "xterm-256color"
    process = subprocess.Popen([sys.executable, "-m", "kscore.app.cli", *args], stdin=follower, stdout=follower,
                               stderr=follower, cwd=PROJECT, env=env, close_fds=True)
    os.close(follower)
    chunks, deadline = [], time.monotonic() + 60
    while time.monotonic() < deadline:
        ready, _, _ = select.select([leader], [], [], 1)
        if ready:
            try:
                data = os.read(leader, 65536)
            except OSError:  # the terminal closed: kscore is done
                break
            if not data:
                break
            chunks.append(data)
        elif process.poll() is not None:
            break
    process.wait(10)
    os.close(leader)
    assert process.returncode == 0
    return ANSI.sub("", b"".join(chunks).decode()).replace("\r\n", "\n")


def test_a_four_player_game_fits_one_80x24_screen_with_the_winner():
    screen = on_terminal([str(FOUR)])
    lines = screen.rstrip("\n").split("\n")
    assert len(lines) <= 23, screen  # and one line left for the prompt: nothing scrolls away
    assert max(len(line) for line in lines) <= 80
    assert "Dmitri wins with 61 points" in lines
    header = next(line for line in lines if "Anna" in line)
    assert header.split() == ["Anna", "Ben", "Carla", "Dmitri"]
    total = next(line for line in lines if line.startswith("total"))
    assert total.split() == ["total", "47", "49", "54", "61"]
    assert next(line for line in lines if line.startswith("place")).split() == ["place", "4th", "3rd", "2nd", "1st"]
    # Each variant missed shows +0, and why, on the sheet.
    assert next(line for line in lines if line.startswith("harmony")).split() == ["harmony", "+5", "+0", "+0", "+5"]
    assert "Ben, harmony +0: 2 empty squares, first at row 5, column 1" in lines
    assert "Anna, middle-kingdom +0: castle at row 5, column 3, not on the centre square" in lines


def test_six_players_stay_readable_in_80_columns(capsys, tmp_path):
    six = tmp_path / "six.kingdom"
    extra = (TEST_DATA / "dynasty1.kingdom").read_text().replace("[Alice]", "[Ferdinand]").replace("[Bob]", "[Gwendolyn]")
    six.write_text(FOUR.read_text() + "\n" + extra.split("\n", 1)[1])
    code, out, err = run(capsys, six)
    assert code == 0
    lines = out.rstrip("\n").split("\n")
    assert max(len(line) for line in lines) <= 80
    header = next(line for line in lines if "Anna" in line)
    assert header.split() == ["Anna", "Ben", "Carla", "Dmitri", "Ferdinand", "Gwendolyn"]  # whole names
    assert next(line for line in lines if line.startswith("total")).split()[1:] == ["47", "49", "54", "61", "51", "58"]


def test_detail_adds_each_kingdom_after_the_sheet(capsys):
    code, out, _ = run(capsys, FOUR, "--detail")
    assert code == 0
    assert out.index("Dmitri wins") < out.index("Anna  5x5  47 points") < out.index("Dmitri  5x5  61 points")
    assert "--detail shows" not in out


def sheet_of(path):
    game = read_game(path)
    scores = [score_kingdom(k, game.rules) for k in game.kingdoms]
    return build_sheet(scores, rank(scores), "test"), scores


def test_sheet_rows_add_up_to_the_totals():
    sheet, scores = sheet_of(FOUR)
    assert sheet.players == ("Anna", "Ben", "Carla", "Dmitri")
    assert [r.key for r in sheet.rows] == ["wheat", "grassland", "forest", "lake", "swamp", "mine",
                                           "middle-kingdom", "harmony"]
    for i, s in enumerate(scores):
        assert sum(r.values[i] or 0 for r in sheet.rows) == s.total == sheet.totals[i]
    assert [(n.player, n.label) for n in sheet.notes] == [("Anna", "middle-kingdom"), ("Ben", "middle-kingdom"),
                                                          ("Ben", "harmony"), ("Carla", "harmony")]
    assert sheet.winners == [3] and sheet.tiebreaks == ("points",) * 4


def test_sheet_says_which_tiebreak_decided():
    sheet, _ = sheet_of(SAMPLE)  # both on 67: the largest property decides
    assert sheet.tiebreaks == ("largest 11", "largest 8")
    assert [p.place for p in sheet.places] == [1, 2]


def test_giants_cost_is_its_own_row_and_quests_their_lines():
    sheet, _ = sheet_of(TEST_DATA / "expansions" / "giants.kingdom")
    rows = {r.key: r.values[0] for r in sheet.rows}
    assert rows["giants-cost"] == -6  # 1 x 2 + 4 x 1: already missing from the mine row
    assert rows["folie-des-grandeurs"] == 10 and rows["local-business-wheat"] == 15
    assert rows["mine"] == 28


# ---------------------------------------------------------------- the picture


def _drawn(text: str, scale: float, colour) -> np.ndarray:
    """`text` as the sheet draws a value, on the sheet's paper, trimmed to its ink."""
    (w, h), base = cv2.getTextSize(text, FONT, scale, 2)
    patch = np.full((h + base + 8, w + 8, 3), PAPER, np.uint8)
    cv2.putText(patch, text, (4, h + 4), FONT, scale, colour, 2, cv2.LINE_AA)
    ys, xs = np.nonzero(np.any(patch != PAPER, axis=2))
    return patch[ys.min() - 1 : ys.max() + 2, xs.min() - 1 : xs.max() + 2]


def test_the_png_sheet_is_a_real_image_with_each_players_total_drawn(capsys, tmp_path):
    out = tmp_path / "sheet.png"
    code, _, err = run(capsys, FOUR, "--sheet", out)
    assert code == 0 and f"wrote the score sheet {out}" in err
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    image = cv2.imread(str(out))
    assert image is not None and image.shape[1] >= 4 * 150 and image.shape[0] >= 400
    # Each total is found where its column is, at the total's size; a number nobody scored is not.
    height, width = image.shape[:2]
    columns = [(i, total) for i, total in enumerate([47, 49, 54, 61])]
    found_x = []
    for i, total in columns:
        colour = WIN if total == 61 else INK
        match = cv2.matchTemplate(image, _drawn(str(total), 1.0, colour), cv2.TM_CCOEFF_NORMED)
        _, best, _, (x, _) = cv2.minMaxLoc(match)
        assert best > 0.97, (total, best)
        found_x.append(x)
    assert found_x == sorted(found_x)  # Anna's column left of Ben's, ...: each total under its player
    never = cv2.matchTemplate(image, _drawn("83", 1.0, INK), cv2.TM_CCOEFF_NORMED).max()
    assert never < 0.8


def test_the_sheet_draws_each_kingdom_small_above_its_column():
    sheet, scores = sheet_of(FOUR)
    size, shapes = draw_sheet(sheet, scores)
    pictures = [s for s in shapes if hasattr(s, "image")]
    assert len(pictures) == 4 and all(p.image.shape[0] >= 100 for p in pictures)
    canvas = render_png(size, shapes)
    # Dmitri's bottom-left square is a mine with 3 crowns: dark grey in his thumbnail.
    d = pictures[3]
    cell = d.image.shape[0] // 5
    corner = canvas[d.y + 4 * cell + cell // 2 + 3, d.x + cell // 2 + 5]
    assert np.all(np.abs(corner.astype(int) - 70) < 20)


def test_the_winners_sentence_is_drawn_whole_on_a_two_player_pad():
    # Two columns make a narrow pad: the sentence with its tiebreak ran past the edge and was cut at
    # "largest property ...". It is wrapped over lines now, each inside the pad.
    sheet, scores = sheet_of(SAMPLE)
    size, shapes = draw_sheet(sheet, scores)
    lines = [s for s in shapes if getattr(s, "colour", None) == WIN and getattr(s, "scale", 0) == 0.55]
    sentence = " ".join(line.text for line in lines)
    assert sentence == "Alice wins with 67 points (tied on 67 points with Bob; largest property 11 vs 8)"
    assert len(lines) == 2 and all(text_width(line.text, line.scale) <= size[0] - 2 * line.x for line in lines)


def test_svg_sheet_holds_the_same_values(capsys, tmp_path):
    out = tmp_path / "sheet.svg"
    code, _, _ = run(capsys, FOUR, "--sheet", out)
    text = out.read_text()
    assert code == 0 and text.startswith("<svg")
    for total in ("47", "49", "54", "61", "Dmitri wins with 61 points"):
        assert f">{total}</text>" in text
    assert text.count("<image ") == 4


def test_sheet_of_photos_cuts_the_kingdoms_from_the_photo(capsys, tmp_path):
    import shutil

    photo = tmp_path / "table.jpg"
    shutil.copy(PROJECT / "sample_images" / "table_5x5.jpg", photo)
    shutil.copy(SAMPLE, tmp_path / "game.kingdom")
    code, _, _ = run(capsys, photo, tmp_path / "game.kingdom", "--sheet", tmp_path / "s.png")
    assert code == 0
    game = read_game(tmp_path / "game.kingdom")
    from kscore.app.pipeline import read_photo

    photo_game = read_photo(photo)
    scores = [score_kingdom(k, g.rules) for g in (photo_game, game) for k in g.kingdoms]
    sheet = build_sheet(scores, rank(scores))
    _, shapes = draw_sheet(sheet, scores, [photo_game, game])
    pictures = [s.image for s in shapes if hasattr(s, "image")]
    def flat(picture) -> bool:  # a drawn grid: a dozen colours cover nearly every pixel; a photo has texture
        _, counts = np.unique(picture.reshape(-1, 3), axis=0, return_counts=True)
        return np.sort(counts)[-12:].sum() > 0.9 * counts.sum()

    drawn = [p for p in pictures if flat(p)]
    assert len(pictures) == 3 and len(drawn) == 2  # the photo's kingdom is a cut of the photo, with its texture


def test_sheet_needs_a_picture_type(capsys, tmp_path):
    code, out, err = run(capsys, FOUR, "--sheet", tmp_path / "sheet.txt")
    assert (code, out) == (2, "") and err == f"kscore: --sheet {tmp_path / 'sheet.txt'}: draw it as .png, .jpg or .svg\n"
    code, _, err = run(capsys, FOUR, "--sheet", FOUR.with_suffix(".png"), "--csv", FOUR.with_suffix(".png"))
    assert code == 2 and "name the same file" in err


# ---------------------------------------------------------------- CSV


def test_csv_has_a_column_per_terrain_and_per_bonus(capsys, tmp_path):
    out = tmp_path / "r.csv"
    code, _, _ = run(capsys, FOUR, "--csv", out)
    rows = list(csv.DictReader(out.open()))
    assert code == 0 and [r["kingdom"] for r in rows] == ["Anna", "Ben", "Carla", "Dmitri"]
    assert list(rows[0])[:13] == ["source", "kingdom", "place", "score", "decided_by", "wheat", "grassland", "forest",
                                  "lake", "swamp", "mine", "middle-kingdom", "harmony"]
    dmitri = rows[3]
    assert (dmitri["place"], dmitri["score"], dmitri["mine"], dmitri["middle-kingdom"]) == ("1", "61", "28", "10")
    assert rows[1]["harmony"] == "0"


def test_csv_dash_writes_the_csv_alone_to_standard_output(capsys):
    code, out, err = run(capsys, FOUR, "--csv", "-")
    assert code == 0 and err == ""
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [(r["kingdom"], r["score"]) for r in rows] == [("Anna", "47"), ("Ben", "49"), ("Carla", "54"), ("Dmitri", "61")]


def test_csv_dash_with_json_is_refused(capsys):
    code, out, err = run(capsys, FOUR, "--csv", "-", "--json")
    assert (code, out) == (2, "")
    assert err == "kscore: --csv - and --json both want standard output: choose one (or --csv FILE)\n"


# ---------------------------------------------------------------- dynasty


def test_dynasty_counts_a_game_given_twice_once(capsys):
    files = [TEST_DATA / f"dynasty{i}.kingdom" for i in (1, 2, 3)]
    code, out, err = run(capsys, "dynasty", *files, files[0], "--json")
    assert code == 0 and "given twice" in err
    document = json.loads(out)
    assert len(document["games"]) == 3
    assert {p["name"]: p["score"] for p in document["players"]} == {"Alice": 120, "Bob": 84, "Carol": 43}


def test_dynasty_names_differing_in_case_are_one_player_or_an_error(capsys, tmp_path):
    one, two = tmp_path / "g1.kingdom", tmp_path / "g2.kingdom"
    one.write_text((TEST_DATA / "dynasty1.kingdom").read_text())
    two.write_text((TEST_DATA / "dynasty2.kingdom").read_text().replace("[Alice]", "[ALICE]"))
    code, out, _ = run(capsys, "dynasty", one, two, "--json")
    players = {p["name"]: p["games"] for p in json.loads(out)["players"]}
    assert code == 0 and players["Alice"] == [36, 48] and "ALICE" not in players  # across games: one player
    clash = tmp_path / "clash.kingdom"
    clash.write_text((TEST_DATA / "dynasty1.kingdom").read_text().replace("[Bob]", "[alice]"))
    code, out, err = run(capsys, "dynasty", clash, two)
    assert (code, out) == (2, "")  # in one game: never one score silently dropped
    assert err == (f"kscore: {clash}: 'Alice' and 'alice' are one player in a dynasty (names match ignoring case "
                   "and spaces): rename one\n")


def test_terrain_colours_stay_distinct_on_a_16_colour_terminal_and_unsure_squares_stand_out():
    from rich.color import ColorSystem
    from rich.style import Style

    from kscore.app.report import _STYLE, grid_text
    from kscore.game.kingdom import BASE_TERRAINS

    standard = [Style.parse(_STYLE[t]).color.downgrade(ColorSystem.STANDARD).number for t in BASE_TERRAINS]
    assert len(set(standard)) == len(BASE_TERRAINS)  # swamp and mine were both plain white here
    game = read_game(SAMPLE)
    text = grid_text(score_kingdom(game.kingdoms[1], game.rules))  # Bob: G2? at row 4, column 4
    styled = {text.plain[span.start:span.end]: str(span.style) for span in text.spans}
    assert "reverse" in styled["G2?"]
    assert "reverse" not in styled["G0"]


def test_detail_says_giants_lines_as_information_not_plus_zero(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    code, out, _ = run(capsys, TEST_DATA / "expansions" / "giants.kingdom", "--detail")
    assert code == 0
    assert "+0 giants" not in out and "(giants)" not in out
    assert "giants: the mine territory at row 2, column 1 (4 squares): 4 x 8 = 32 without giants, 4 x 7 = 28 with " \
           "1 crown under a giant: the giants cost 4" in out
    assert "+10 folie-des-grandeurs (quest): Folie des Grandeurs: 1 alignment of three" in out
