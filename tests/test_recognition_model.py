"""Recognition models: loading, versioning, and training on a small real subset."""

from __future__ import annotations

import json

import numpy as np
import pytest

from conftest import TEST_DATA
from kscore.game.kingdom import Terrain
from kscore.vision.read import model as model_module
from kscore.vision.read.features import FEATURE_VERSION
from kscore.vision.read.model import MODEL_FILE, ModelError, load_models

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
    from kscore.vision.read.reader import read_board
    from kscore.lab.train import train

    import cv2

    first = train(BOARDS, None, tmp_path / "a", doubt_bars=True)
    second = train(BOARDS, None, tmp_path / "b", doubt_bars=True)
    with np.load(first) as a, np.load(second) as b:
        assert a.files == b.files
        for key in a.files:
            assert np.array_equal(a[key], b[key]), key
    models = load_models(first)
    assert models.info["board_samples"] == 4  # each board as labelled and re-cut at its found grid
    # The doubt bars are chosen out of fold and never mark more than their share of right squares.
    for which, held in models.info["doubt_out_of_fold"].items():
        assert held["right"] > 0 and held["right_marked"] <= 0.04 + 1e-9, which
    assert set(models.info["doubt"]) == {"terrain_below", "crowns_below"}
    # Trained on these two boards, it must at least read one of them back.
    image = cv2.imread(str(BOARDS / "boards" / "12.jpg"))
    labels = json.loads((BOARDS / "labels.json").read_text())["boards"]["12"]
    reading = read_board(image, tileset=None, models=models)
    terrains = [[s.terrain.value for s in row] for row in reading.kingdom.rows]
    assert terrains == labels["terrain"]


def test_eval_command_prints_the_figures(capsys):
    from kscore.app.cli import main

    with pytest.raises(SystemExit) as done:
        main(["eval", str(BOARDS)])
    assert done.value.code in (0, None)
    out = capsys.readouterr().out
    assert "2 boards, 50 squares" in out
    assert "boards exact score    2/2" in out
    assert "terrain confusion" in out and "slowest board" in out


def test_eval_cv_on_two_kingdoms_reports_held_out_boards():
    from kscore.lab.evaluate_squares import evaluate_boards

    report = evaluate_boards(BOARDS, cv=True, folds=2, echo=False)
    assert [r.board_id for r in report.results] == ["2", "12"]
    assert "grouped CV by kingdom, 2 folds" in report.mode
    # Each fold really retrains on the other kingdom alone: the shipped model (trained on
    # both boards among others) reads them perfectly, one kingdom alone cannot.
    assert 0.5 < report.terrain_accuracy < 1.0


def test_eval_on_photo_items_dispatches_to_the_photo_branch(tmp_path, monkeypatch):
    from kscore.lab import evaluate as evaluation

    (tmp_path / "labels.json").write_text(json.dumps({"items": {}}))
    called = {}
    monkeypatch.setattr(evaluation, "evaluate_photo_items", lambda folder, **options: called.setdefault("folder", folder))
    evaluation.evaluate(tmp_path)
    assert called["folder"] == tmp_path


def test_models_from_kscore_models_folder(tmp_path, monkeypatch):
    from kscore.vision.read import reader

    monkeypatch.setenv("KSCORE_MODELS", str(tmp_path))
    reader.default_models.cache_clear()
    try:
        with pytest.raises(ModelError, match=str(tmp_path)):
            reader.default_models()
    finally:
        monkeypatch.delenv("KSCORE_MODELS")
        reader.default_models.cache_clear()


def test_eval_on_a_photo_folder_runs_the_photo_evaluation(capsys):
    from kscore.app.cli import main

    with pytest.raises(SystemExit) as done:
        main(["eval", str(TEST_DATA / "photo")])
    assert done.value.code in (0, None)
    assert "kingdoms found: 1/1" in capsys.readouterr().out


def test_eval_cv_on_a_photo_folder_is_refused(capsys):
    from kscore.app.cli import main

    with pytest.raises(SystemExit) as done:
        main(["eval", str(TEST_DATA / "photo"), "--cv"])
    assert done.value.code == 2
    assert "labelled boards" in capsys.readouterr().err


def _network(rng, inputs: int, classes: np.ndarray) -> model_module.Network:
    return model_module.Network(rng.normal(size=inputs).astype(np.float32), np.ones(inputs, np.float32),
                                (rng.normal(size=(inputs, 4)).astype(np.float32), rng.normal(size=(4, len(classes))).astype(np.float32)),
                                (np.zeros(4, np.float32), rng.normal(size=len(classes)).astype(np.float32)), classes)


def test_experts_add_their_logits_and_are_saved_and_loaded_whole(tmp_path):
    """The terrain experts: the whole network on every column, the shapes one on the columns from `shapes_from`
    on; their logits add (the shapes expert's weighed), a temperature divides the sum, and a model file keeps
    both (one without the shapes expert, as trained before it, loads as the whole network alone)."""
    rng = np.random.default_rng(1)
    classes = np.array([0, 2, 3])
    whole, shapes = _network(rng, 6, classes), _network(rng, 2, classes)
    experts = model_module.Experts(whole, shapes, 4, 0.5)
    x = rng.normal(size=(5, 6)).astype(np.float32)
    assert np.allclose(experts.logits(x), whole.logits(x) + 0.5 * shapes.logits(x[:, 4:]))
    assert np.allclose(experts.tempered(2.0).logits(x), experts.logits(x) / 2.0, atol=1e-5)
    full = experts.predict_full(x, 4)
    assert np.allclose(full.sum(axis=1), 1.0) and not full[:, 1].any()  # class 1 never trained
    shipped = load_models()
    abstaining = model_module.Experts(whole, shapes, 4, 0.5, abstains=(3,)).tempered(2.0)
    for terrain, kind in ((experts, model_module.Experts), (abstaining, model_module.Experts),
                          (whole, model_module.Network)):
        folder = tmp_path / kind.__name__
        model_module.Models(terrain, shipped.crown_template, shipped.candidate, shipped.count, shipped.info).save(folder)
        loaded = load_models(folder).terrain
        assert type(loaded) is kind
        assert np.array_equal(loaded.predict_full(x, 4), terrain.predict_full(x, 4))


def test_a_shapes_expert_that_abstains_leaves_that_class_its_odds_under_the_whole_network():
    """Castle is the whole network's call: with the shapes expert abstaining on class 3, P(3) is the whole
    network's (at the same temperature), while the other classes' odds move with the shapes expert's vote."""
    rng = np.random.default_rng(2)
    classes = np.array([0, 2, 3])
    whole, shapes = _network(rng, 6, classes), _network(rng, 2, classes)
    x = rng.normal(size=(50, 6)).astype(np.float32)
    both = model_module.Experts(whole, shapes, 4, 1.0, abstains=(3,)).tempered(1.5)
    alone = whole.tempered(1.5).predict_proba(x)
    p = both.predict_proba(x)
    assert np.allclose(p[:, 2], alone[:, 2], atol=1e-5)
    assert np.allclose(p.sum(axis=1), 1.0)
    voting = model_module.Experts(whole, shapes, 4, 1.0).tempered(1.5).predict_proba(x)
    assert not np.allclose(voting[:, 2], alone[:, 2], atol=1e-3)  # without abstaining the vote moves it
    odds = np.log(p[:, 0] / p[:, 1]) - np.log(alone[:, 0] / alone[:, 1])
    s = shapes.logits(x[:, 4:])
    assert np.allclose(odds, (s[:, 0] - s[:, 1]) / 1.5, atol=1e-3)


def _samples(rng, n: int) -> list:
    """Small kingdoms of random squares whose class shows in both the colour and the texture columns."""
    from kscore.lab.train import Sample
    from kscore.vision.read.classes import TERRAIN_CLASSES
    from kscore.vision.read.features import COLOUR_FEATURES

    out = []
    for i in range(n):
        y = rng.integers(0, len(TERRAIN_CLASSES), 9)
        x = np.zeros((9, COLOUR_FEATURES + 6), np.float32)
        x[:, 0] = y + rng.normal(scale=0.1, size=9)
        x[:, COLOUR_FEATURES] = y + rng.normal(scale=0.1, size=9)
        out.append(Sample(f"k{i}", 3, np.zeros((1, 1, 3), np.uint8), x, y, np.zeros(9, np.int64), "board"))
    return out


@pytest.mark.filterwarnings("ignore:Stochastic Optimizer")  # a few squares: the MLPs stop at max_iter
def test_the_terrain_recipe_builds_the_texture_expert_only_when_it_is_given_a_weight(monkeypatch):
    """At weight 0 the recipe fits the one network; with a weight (0.5 as shipped), the experts, the classes
    of train.SHAPES_ABSTAIN (castle and empty square among them) left to the whole network, tempered out of
    fold by the whole network's temperature and the vote's."""
    from kscore.lab import train
    from kscore.vision.read.classes import CASTLE, EMPTY

    samples = _samples(np.random.default_rng(3), 12)
    monkeypatch.setattr(train, "SHAPES_WEIGHT", 0.0)
    alone, top, right = train._calibrated_terrain(samples, folds=3)
    assert type(alone) is model_module.Network and len(top) == len(right) == 12 * 9
    monkeypatch.setattr(train, "SHAPES_WEIGHT", 0.5)
    experts, top, right = train._calibrated_terrain(samples, folds=3)
    assert type(experts) is model_module.Experts
    assert experts.shapes_weight == 0.5 and experts.abstains == train.SHAPES_ABSTAIN
    assert CASTLE in experts.abstains and EMPTY in experts.abstains
    # The whole network is fitted as it is alone, and keeps that temperature for the classes it keeps.
    assert experts.whole_temperature == pytest.approx(alone.temperature)
    assert experts.vote_temperature > 0 and right.mean() > 0.5


@pytest.mark.filterwarnings("ignore:Stochastic Optimizer")  # two boards: the MLPs stop at max_iter
def test_training_terrain_alone_keeps_the_crowns_of_the_file_it_is_given(tmp_path):
    """`kscore train --crowns-from FILE` (how the shipped file is built, models/README.md): terrain fitted anew on
    the boards, with its bar; crown template, crown models and crown bar exactly those of FILE."""
    from kscore.lab.train import train

    shipped = load_models()
    shipped_file = model_module.shipped_file(MODEL_FILE)
    path = train(BOARDS, None, tmp_path, quiet=True, doubt_bars=True, crowns_from=shipped_file)
    built = load_models(path)
    assert np.array_equal(built.crown_template, shipped.crown_template)
    for name in ("candidate", "count"):
        assert getattr(built, name).to_arrays(name).keys() == getattr(shipped, name).to_arrays(name).keys()
        for key, array in getattr(built, name).to_arrays(name).items():
            assert np.array_equal(array, getattr(shipped, name).to_arrays(name)[key]), key
    assert built.info["doubt"]["crowns_below"] == shipped.info["doubt"]["crowns_below"]
    assert built.info["doubt_out_of_fold"]["crowns"] == shipped.info["doubt_out_of_fold"]["crowns"]
    # Terrain is new: fitted on two boards and their copies (hundreds of squares), not the shipped ~30,000.
    assert built.info["doubt_out_of_fold"]["terrain"]["right"] < 2000 < shipped.info["doubt_out_of_fold"]["terrain"]["right"]
    assert 0 < built.info["doubt"]["terrain_below"] <= 1


def test_train_refuses_a_crowns_file_that_is_not_there(tmp_path, capsys):
    from kscore.app.cli import main

    with pytest.raises(SystemExit) as done:
        main(["train", str(BOARDS), "--no-phone", "--out", str(tmp_path),
              "--crowns-from", str(tmp_path / "nothing.npz")])
    assert done.value.code == 2
    assert "no recognition model there" in capsys.readouterr().err
    assert not (tmp_path / "recognition.npz").exists()


def test_the_shipped_texture_expert_only_shares_out_forest_lake_swamp_and_mine():
    """As shipped, wheat, grassland, castle and empty square keep the probability the whole terrain network gives
    them alone; the texture expert only moves the odds among the textured prints, whose share it keeps."""
    from kscore.lab.train import load_board_samples
    from kscore.vision.read.classes import TERRAIN_INDEX

    terrain = load_models().terrain
    assert isinstance(terrain, model_module.Experts)
    x = np.vstack([s.terrain_x for s in load_board_samples(BOARDS)])
    voted = np.array([TERRAIN_INDEX[t] for t in (Terrain.FOREST, Terrain.LAKE, Terrain.SWAMP, Terrain.MINE)])
    kept = np.setdiff1d(np.arange(len(terrain.classes)), voted)
    alone = terrain.whole.tempered(terrain.whole_temperature).predict_proba(x)
    both = terrain.predict_proba(x)
    assert np.allclose(both[:, kept], alone[:, kept], atol=1e-5)
    assert np.allclose(both[:, voted].sum(axis=1), alone[:, voted].sum(axis=1), atol=1e-5)
    assert np.abs(both[:, voted] - alone[:, voted]).max() > 1e-3  # the vote moves them
