"""kscore serve's JSON API through Starlette's TestClient, on the real sample photo (no mocks).

The upload checks (format by content, pixel size by header) are tested on images
OpenCV encodes; the documents are the CLI's --json ones.
"""

from __future__ import annotations

import json
import warnings

import cv2
import numpy as np
import pytest

pytest.importorskip("starlette", reason="kscore[web] is not installed: pip install '.[test,web]'")
pytest.importorskip("httpx", reason="httpx (for Starlette's TestClient) is not installed: pip install '.[test,web]'")

from conftest import run_kscore
from kscore.app.web.app import create_app
from kscore.app.web.uploads import MAX_PHOTO_BYTES, UploadRefused, check_photo, photo_kind, pixel_size
from photo_helpers import PHOTO_DATA, SAMPLE_PHOTO

with warnings.catch_warnings():  # Starlette 1.x prefers httpx2; httpx still works
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

JPEG = SAMPLE_PHOTO.read_bytes()
HEIC_PHOTO = PHOTO_DATA / "table_5x5_turned.heic"  # the sample table, smaller, saved as HEIC


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """One game folder with the sample photo uploaded once (reading takes ~0.4 s, done once here)."""
    folder = tmp_path_factory.mktemp("game")
    client = TestClient(create_app(folder))
    answer = client.post("/api/photos", files={"photo": ("../../IMG_1234.jpg", JPEG, "image/jpeg")})
    return folder, client, answer


def post_text(client, text: str, kind: str = "text/plain"):
    return client.post("/api/score", content=text.encode(), headers={"content-type": kind})


def test_a_photo_upload_gives_the_cli_document_with_corners_views_and_ranking(served):
    folder, client, answer = served
    assert answer.status_code == 200, answer.text
    document = answer.json()
    (kingdom,) = document["kingdoms"]
    assert kingdom["score"] == 16
    assert kingdom["name"] == "Player 1"
    assert len(kingdom["corners"]) == 4 and all(len(p) == 2 for p in kingdom["corners"])
    assert kingdom["source"] == "photos/photo-001.jpg"  # the server's name, never the client's '../../IMG_1234.jpg'
    assert len(kingdom["terrain"]) == 5 and "uncertain" in kingdom and kingdom["properties"]
    assert document["ranking"][0] | {"detail": ""} == {"place": 1, "name": "Player 1", "score": 16,
                                                       "tiebreak": "points", "detail": ""}
    view = client.get("/" + kingdom["view"])
    assert view.status_code == 200 and view.content[:3] == b"\xff\xd8\xff"
    assert cv2.imdecode(np.frombuffer(view.content, np.uint8), cv2.IMREAD_COLOR).shape[:2] == (400, 400)
    assert sorted(p.name for p in folder.rglob("*") if p.is_file()) == [
        "game.json", "game.kingdom", "photo-001-1.jpg", "photo-001.jpg"]


def test_the_saved_game_rescores_on_the_command_line_and_after_a_reload(served, capsys):
    folder, client, _ = served
    code, out, _ = run_kscore(capsys, folder / "game.kingdom", "--json")
    assert code == 0 and json.loads(out)["kingdoms"][0]["score"] == 16
    again = client.get("/api/game").json()
    assert again["kingdoms"][0]["score"] == 16 and again["kingdoms"][0]["view"] == "views/photo-001-1.jpg"


def test_score_rescores_an_edited_game_and_keeps_its_photo(tmp_path):
    client = TestClient(create_app(tmp_path))
    assert client.post("/api/photos", files={"photo": ("a.jpg", JPEG, "image/jpeg")}).status_code == 200
    text = (tmp_path / "game.kingdom").read_text()
    rows = [line for line in text.splitlines() if line[:1] in "WGFLSM"]
    first = rows[0].split()
    assert first[0] == "W0"  # the sample's top-left square: a lone wheat square beside the 3 swamp squares (2+1 crowns)
    edited = text.replace(rows[0], " ".join(["S0", *first[1:]]), 1).replace("[Player 1]", "[Alice]")
    answer = post_text(client, "variants: harmony\n" + edited)
    assert answer.status_code == 200, answer.text
    (kingdom,) = answer.json()["kingdoms"]
    assert kingdom["name"] == "Alice"
    assert kingdom["score"] == 16 - 9 + 4 * 3 + 5  # swamp 3x3 -> 4x3; harmony +5 (no empty square)
    assert kingdom["view"] == "views/photo-001-1.jpg" and kingdom["corners"]
    assert answer.json()["rules"]["variants"] == ["harmony"]
    assert client.get("/api/game").json()["kingdoms"][0]["score"] == kingdom["score"]


def test_several_photos_in_one_upload_are_one_game_ranked_together(tmp_path):
    client = TestClient(create_app(tmp_path))
    answer = client.post("/api/photos", files=[("photo", ("a.jpg", JPEG, "image/jpeg")),
                                               ("photo", ("b.jpg", JPEG, "image/jpeg")),
                                               ("photo", ("c.txt", b"not a photo", "text/plain"))])
    assert answer.status_code == 200
    document = answer.json()
    assert [k["name"] for k in document["kingdoms"]] == ["Player 1", "Player 2"]
    assert [p["place"] for p in document["ranking"]] == [1, 1] and document["ranking"][0]["tiebreak"] == "shared"
    # named as the player named it (messages only: the file is stored as the folder names it)
    assert document["failures"][0]["error"] == "c.txt: not a photo (JPEG, HEIC, PNG, WebP or BMP expected)"


def jpeg_claiming(width: int, height: int) -> bytes:
    """A real small JPEG whose frame header is rewritten to claim width x height."""
    data = bytearray(cv2.imencode(".jpg", np.full((64, 64, 3), 128, np.uint8))[1].tobytes())
    sof = data.index(b"\xff\xc0")
    data[sof + 5 : sof + 9] = height.to_bytes(2, "big") + width.to_bytes(2, "big")
    return bytes(data)


@pytest.mark.parametrize("name, data, status, words", [
    ("text", b"W0 S0 S2 S1 M1\n", 415, "not a photo"),
    ("damaged heic", b"\x00\x00\x00\x18ftypheic" + b"\x00" * 64, 400, "HEIC header cannot be read"),
    ("other iso-bmff (mp4)", b"\x00\x00\x00\x18ftypisom" + b"\x00" * 64, 415, "not a photo"),
    ("empty", b"", 400, "empty"),
    ("truncated jpeg", JPEG[:4000], 400, "cut short"),
    ("100 MP jpeg", jpeg_claiming(12000, 8400), 413, "101 MP"),
    ("huge", b"\xff\xd8\xff" + b"\x00" * MAX_PHOTO_BYTES, 413, "25 MB"),
])
def test_bad_uploads_are_refused_with_a_clear_json_error(tmp_path, name, data, status, words):
    client = TestClient(create_app(tmp_path))
    answer = client.post("/api/photos", files={"photo": ("photo.jpg", data, "image/jpeg")})
    assert answer.status_code == status, answer.text
    assert words in answer.json()["error"]
    assert str(tmp_path) not in answer.text  # messages name files as the game folder does
    assert not (tmp_path / "game.kingdom").exists()


def test_a_photo_with_no_kingdom_says_how_to_retake_it(tmp_path):
    client = TestClient(create_app(tmp_path))
    blank = cv2.imencode(".jpg", np.full((900, 1200, 3), (40, 90, 160), np.uint8))[1].tobytes()
    answer = client.post("/api/photos", files={"photo": ("x.jpg", blank, "image/jpeg")})
    assert answer.status_code == 400 and "no kingdom found" in answer.json()["error"]
    assert "retake" in answer.json()["error"]


def test_requests_that_are_not_uploads_or_texts(tmp_path):
    client = TestClient(create_app(tmp_path))
    assert client.post("/api/photos", content=b"x", headers={"content-type": "image/jpeg"}).status_code == 415
    assert client.post("/api/photos", files={"other": ("a.jpg", JPEG, "image/jpeg")}).status_code == 400
    assert post_text(client, '{"kingdoms": []}', "application/json").status_code == 415
    assert post_text(client, "x" * 70_000).status_code == 413
    bad = post_text(client, "[A]\nW0 X1 . . .\n")
    assert bad.status_code == 400 and bad.json()["error"].startswith("game.kingdom:2:4: unknown terrain 'X'")
    assert client.get("/views/..%2Fgame.kingdom").status_code == 404
    assert client.get("/views/photo-001-1.jpg").json() == {"error": "no such view"}
    assert client.get("/api/nothing").status_code == 404 and client.get("/api/nothing").json()["error"]


def test_the_page_and_its_files_are_served_from_the_package(tmp_path):
    client = TestClient(create_app(tmp_path))
    page = client.get("/").text
    assert 'capture="environment"' in page and 'accept="image/*"' in page and "multiple" in page
    for name in ("app.js", "style.css"):
        assert client.get(f"/static/{name}").status_code == 200
    assert "http" not in page.replace('href="/static', "").split("<body>")[0]  # nothing fetched from outside


@pytest.mark.parametrize("suffix", [".jpg", ".png", ".webp", ".bmp"])
def test_pixel_size_is_read_from_each_format_header(suffix):
    image = np.random.default_rng(1).integers(0, 255, (37, 53, 3), np.uint8)
    data = cv2.imencode(suffix, image)[1].tobytes()
    assert photo_kind(data) == suffix
    assert pixel_size(data, suffix) == (53, 37)
    assert check_photo(data) == suffix


def test_a_heic_upload_is_read_as_the_command_line_reads_it(tmp_path, served):
    heic = HEIC_PHOTO.read_bytes()
    assert photo_kind(heic) == ".heic" and pixel_size(heic, ".heic") == (1000, 750)
    client = TestClient(create_app(tmp_path))
    answer = client.post("/api/photos", files={"photo": ("IMG_0001.jpg", heic, "image/jpeg")})  # the name is not trusted
    assert answer.status_code == 200, answer.text
    (kingdom,) = answer.json()["kingdoms"]
    assert kingdom["score"] == 16 and kingdom["source"] == "photos/photo-001.heic"
    assert kingdom["terrain"] == served[2].json()["kingdoms"][0]["terrain"]  # the same table as a JPEG


def test_a_png_claiming_100_megapixels_is_refused_before_decoding():
    data = bytearray(cv2.imencode(".png", np.zeros((8, 8, 3), np.uint8))[1].tobytes())
    data[16:24] = (10_000).to_bytes(4, "big") + (10_000).to_bytes(4, "big")
    with pytest.raises(UploadRefused) as refused:
        check_photo(bytes(data))
    assert refused.value.status == 413 and "10000x10000" in refused.value.message


def test_a_game_file_that_cannot_be_written_is_a_json_error_not_a_500(tmp_path):
    client = TestClient(create_app(tmp_path), raise_server_exceptions=False)
    (tmp_path / "game.kingdom").mkdir()  # something in the way of the game file
    for answer in (client.get("/api/game"), post_text(client, "[A]\nW0 W0 W0 W0 W0\n" + "W0 W0 W0 W0 W0\n" * 3 + "W0 W0 C W0 W0\n"),
                   client.post("/api/photos", files={"photo": ("a.jpg", JPEG, "image/jpeg")})):
        assert answer.status_code == 400 and "game.kingdom" in answer.json()["error"], answer.text
