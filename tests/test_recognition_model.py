"""Recognition models: loading, versioning, and training on a small real subset."""

from __future__ import annotations

import json

import numpy as np
import pytest

from conftest import TEST_DATA
from kscore.recognition import model as model_module
from kscore.recognition.features import FEATURE_VERSION
from kscore.recognition.model import MODEL_FILE, ModelError, load_models

BOARDS = TEST_DATA / "recognition"


def test_shipped_model_loads_small_and_current():
    models = load_models()
    assert models.info["feature_version"] == FEATURE_VERSION
    path = model_module.shipped_file(MODEL_FILE)
    assert path.stat().st_size < 5 * 1024 * 1024


def _rewrite_version(src, dst, version):
    with np.load(src) as data:
        arrays = {k: data[k] for k in data.files}
    info = json.loads(str(arrays["info"]))
    info["feature_version"] = version
    arrays["info"] = np.array(json.dumps(info))
    with open(dst, "wb") as f:
        np.savez_compressed(f, **arrays)


def test_version_mismatch_is_a_clear_error(tmp_path):
    _rewrite_version(model_module.shipped_file(MODEL_FILE), tmp_path / MODEL_FILE, FEATURE_VERSION + 100)
    with pytest.raises(ModelError, match="kscore train"):
        load_models(tmp_path)


def test_missing_model_names_the_train_command(tmp_path):
    with pytest.raises(ModelError, match="kscore train"):
        load_models(tmp_path)


def test_train_on_two_boards_is_deterministic_and_reads_them(tmp_path):
    from kscore.recognition.reader import read_board
    from kscore.recognition.train import train

    import cv2

    first = train(BOARDS, None, tmp_path / "a")
    second = train(BOARDS, None, tmp_path / "b")
    with np.load(first) as a, np.load(second) as b:
        assert a.files == b.files
        for key in a.files:
            assert np.array_equal(a[key], b[key]), key
    models = load_models(first)
    assert models.info["boards"] == 2
    # Trained on these two boards, it must at least read one of them back.
    image = cv2.imread(str(BOARDS / "boards" / "12.jpg"))
    labels = json.loads((BOARDS / "labels.json").read_text())["boards"]["12"]
    reading = read_board(image, tileset=None, models=models)
    terrains = [[s.terrain.value for s in row] for row in reading.kingdom.rows]
    assert terrains == labels["terrain"]
