"""`kscore serve` for real: the command started on a free port, then a browser and raw clients against it.

The browser is Debian's chromium driven by Playwright (never `playwright install`:
it downloads a browser). Only 127.0.0.1 is ever contacted.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

pytest.importorskip("uvicorn", reason="kscore[web] is not installed: pip install '.[test,web]'")
httpx = pytest.importorskip("httpx", reason="httpx is not installed: pip install '.[test,web]'")

from conftest import TEST_DATA, run_kscore
from photo_helpers import SAMPLE_PHOTO

LOOSE = TEST_DATA / "loose"

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Server:
    """`kscore serve --port N FOLDER` in a child process, stopped (and waited for) on close."""

    def __init__(self, folder: Path) -> None:
        self.folder, self.port = folder, free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        kscore = Path(sys.executable).with_name("kscore")
        self.process = subprocess.Popen([str(kscore), "serve", "--port", str(self.port), str(folder)],
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"kscore serve stopped: {self.process.stderr.read()}")
            try:
                if httpx.get(self.url + "/api/options", timeout=2).status_code == 200:
                    return
            except httpx.TransportError:
                time.sleep(0.2)
        self.close()
        raise RuntimeError("kscore serve did not answer within 30 s")

    def close(self) -> tuple[str, str]:
        self.process.terminate()
        try:
            return self.process.communicate(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return self.process.communicate()


@pytest.fixture
def server(tmp_path):
    running = Server(tmp_path / "game")
    yield running
    running.close()


def upload(url: str, data: bytes, name: str = "table.jpg") -> httpx.Response:
    return httpx.post(url + "/api/photos", files={"photo": (name, data, "image/jpeg")}, timeout=120)


def test_serve_prints_where_the_game_is_and_how_phones_connect(server):
    out, err = server.close()
    assert f"the game is kept in {server.folder}" in out
    assert f"open http://127.0.0.1:{server.port}/" in out
    assert "--host 0.0.0.0" in out  # phones need it: said at start
    assert "Traceback" not in err


def test_ten_parallel_uploads_and_a_client_that_disconnects_mid_upload(server):
    photo = SAMPLE_PHOTO.read_bytes()
    # A phone that goes away halfway through a 5 MB upload.
    with socket.create_connection(("127.0.0.1", server.port)) as raw:
        boundary = "b0und4ry"
        raw.sendall((f"POST /api/photos HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5000000\r\n"
                     f"Content-Type: multipart/form-data; boundary={boundary}\r\n\r\n--{boundary}\r\n"
                     'Content-Disposition: form-data; name="photo"; filename="x.jpg"\r\n'
                     "Content-Type: image/jpeg\r\n\r\n").encode() + photo[:100_000])
    with ThreadPoolExecutor(10) as pool:
        answers = list(pool.map(lambda i: upload(server.url, photo, f"{i}.jpg"), range(10)))
    assert [a.status_code for a in answers] == [200] * 10
    document = httpx.get(server.url + "/api/game").json()
    assert sorted(k["name"] for k in document["kingdoms"]) == sorted(f"Player {i}" for i in range(1, 11))
    assert {k["score"] for k in document["kingdoms"]} == {16}
    assert len(list((server.folder / "photos").iterdir())) == 10  # the cut-off upload left nothing
    out, err = server.close()
    assert "Traceback" not in err and "Exception" not in err


@pytest.fixture
def browser():
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium; .ci/run does)")
    playwright = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    with playwright.sync_playwright() as driver:
        launched = driver.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield launched
        launched.close()


def test_the_page_scores_a_photo_and_a_tapped_square_changes_score_and_ranking(server, browser, tmp_path, capsys):
    page = browser.new_page(viewport={"width": 390, "height": 844})
    outside = []
    page.on("request", lambda r: r.url.startswith(server.url) or r.url.startswith("data:") or outside.append(r.url))
    page.goto(server.url + "/")
    second = tmp_path / "second.jpg"
    shutil.copy(SAMPLE_PHOTO, second)
    page.set_input_files("#camera", [str(SAMPLE_PHOTO), str(second)])
    page.wait_for_selector(".kingdom >> nth=1")
    points = page.locator(".kingdom .points")
    assert points.all_inner_texts() == ["16", "16"]
    assert ranking(page) == [["1", "Player 1", "16", "shared"], ["1", "Player 2", "16", "shared"]]

    # Player 2's top-left square is a lone wheat square beside three swamp squares (3 crowns): make it swamp.
    page.locator(".kingdom").nth(1).locator(".cell").first.click()
    page.locator("#picker .terrain[data-letter=S]").click()
    page.wait_for_function("document.querySelectorAll('.kingdom .points')[1].textContent === '19'")
    assert ranking(page) == [["1", "Player 2", "19", "points"], ["2", "Player 1", "16", "points"]]
    page.locator("#picker .crown[data-crowns='1']").click()  # one crown more on that square: 4 squares x 4 crowns
    page.wait_for_function("document.querySelectorAll('.kingdom .points')[1].textContent === '23'")
    page.click("#picker-done")

    name = page.locator(".kingdom").nth(1).locator("input")
    name.fill("Alice")
    name.press("Enter")
    page.wait_for_function("document.querySelector('#ranking tbody td:nth-child(2)').textContent === 'Alice'")
    page.click("#undo")  # the name
    page.wait_for_function("document.querySelector('#ranking tbody td:nth-child(2)').textContent === 'Player 2'")
    page.click("#redo")
    page.wait_for_function("document.querySelector('#ranking tbody td:nth-child(2)').textContent === 'Alice'")

    page.screenshot(path=str(tmp_path / "phone.png"))
    page.reload()  # the game is on the server: nothing lost
    page.wait_for_selector(".kingdom >> nth=1")
    assert ranking(page) == [["1", "Alice", "23", "points"], ["2", "Player 1", "16", "points"]]
    assert outside == []  # works offline: nothing but the server was asked for

    code, out, _ = run_kscore(capsys, server.folder / "game.kingdom", "--json")
    assert code == 0 and [(p["name"], p["score"]) for p in json.loads(out)["ranking"]] == [("Alice", 23), ("Player 1", 16)]


def test_game_options_set_on_the_page_score_the_variants(server, browser):
    assert upload(server.url, SAMPLE_PHOTO.read_bytes()).status_code == 200
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(server.url + "/")
    page.wait_for_selector(".kingdom")
    page.click("#options summary")
    page.check("#variants input[data-name=harmony]")  # the sample has no empty square: +5
    page.wait_for_function("document.querySelector('.kingdom .points').textContent === '21'")
    assert "variants: harmony" in (server.folder / "game.kingdom").read_text()
    assert "harmony: +5" in page.locator(".kingdom .lines").inner_text()


def ranking(page) -> list[list[str]]:
    return [row.locator("td").all_inner_texts() for row in page.locator("#ranking tbody tr").all()]


def test_unsure_squares_are_framed_until_the_player_sets_them(server, browser):
    typed = "[Bob]\nW1 W0 F0 F1 L0\nG0 G2 C  L0 L1\nG0 S0 S1 L0 L0\nM2 S0 W0 W0 .\nM0 W1 W0 F0? .\n"
    answer = httpx.post(server.url + "/api/score", content=typed, headers={"content-type": "text/plain"})
    assert answer.status_code == 200 and answer.json()["kingdoms"][0]["uncertain"] == [[4, 3]]
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(server.url + "/")
    page.wait_for_selector(".kingdom")
    assert page.locator(".board.typed").count() == 1  # typed in: coloured squares, no photo behind them
    unsure = page.locator(".cell.unsure")
    assert unsure.count() == 1 and unsure.get_attribute("data-r") == "4" and unsure.get_attribute("data-c") == "3"
    assert "1 square to check" in page.locator(".kingdom .legend").inner_text()
    unsure.click()
    page.locator("#picker .terrain[data-letter=F]").click()  # the player looked: it is forest, as read
    page.wait_for_function("document.querySelectorAll('.cell.unsure').length === 0")
    page.wait_for_function("document.getElementById('status').className === ''")  # the server has answered
    assert "F0?" not in (server.folder / "game.kingdom").read_text()


def test_a_kingdom_laid_smaller_than_its_frame_says_its_extent(server, browser):
    typed = "[Cleo]\nW1 W0 F0 F1 L0\nG0 G2 C  L0 L1\nG0 S0 S1 L0 L0\nM2 S0 W0 W0 L0\n.  .  .  .  .\n"
    answer = httpx.post(server.url + "/api/score", content=typed, headers={"content-type": "text/plain"})
    assert answer.status_code == 200 and answer.json()["kingdoms"][0]["extent"] == [4, 5]
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(server.url + "/")
    page.wait_for_selector(".kingdom")
    assert page.locator(".kingdom .extent").inner_text() == (
        "Laid 4x5 in a 5x5 grid (rows x columns); the rest is table.")
    whole = "[Cleo]\nW1 W0 F0 F1 L0\nG0 G2 C  L0 L1\nG0 S0 S1 L0 L0\nM2 S0 W0 W0 L0\nM0 W1 W0 F0 L0\n"
    httpx.post(server.url + "/api/score", content=whole, headers={"content-type": "text/plain"})
    page.reload()
    page.wait_for_selector(".kingdom")
    assert page.locator(".kingdom .extent").count() == 0  # a full grid needs no word about it


def test_each_failure_and_note_after_an_upload_is_a_line_naming_the_players_photo(server, browser, tmp_path):
    import cv2
    import numpy as np

    grey = tmp_path / "grey.jpg"
    cv2.imwrite(str(grey), np.full((600, 800, 3), 128, np.uint8))  # a real JPEG, in black and white
    not_a_photo = tmp_path / "notes.jpg"
    not_a_photo.write_text("a shopping list, not a photo\n")
    kingdom = tmp_path / "IMG_5.jpg"
    shutil.copy(LOOSE / "carpet_step5.jpg", kingdom)  # read with a change note (a second castle read)
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(server.url + "/")
    page.set_input_files("#camera", [str(kingdom), str(grey), str(not_a_photo)])
    page.wait_for_selector(".kingdom")
    page.wait_for_function("document.querySelectorAll('#status .line').length > 0")
    bad = page.locator("#status .line.bad").all_inner_texts()
    said = page.locator("#status .line:not(.bad)").all_inner_texts()
    assert [line.split(" ")[0] for line in bad] == ["notes.jpg:", "grey.jpg"], bad
    assert "not a photo" in bad[0] and "black and white" in bad[1]
    assert said and all(line.startswith("IMG_5.jpg: ") for line in said), said
    assert not any("photo-00" in line for line in bad + said)  # the folder's names mean nothing to the player
    boxes = [page.locator("#status .line").nth(i).bounding_box() for i in range(len(bad) + len(said))]
    assert all(a["y"] + a["height"] <= b["y"] for a, b in zip(boxes, boxes[1:]))  # one under the other
