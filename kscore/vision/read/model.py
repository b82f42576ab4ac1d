"""Small classifiers stored as plain arrays, and the model files' loading and versioning.

Models are saved as numpy arrays (standardisation, layer weights), not pickles:
they load with any scikit-learn version (or none), cannot run code, and stay
tiny. Inference is a few matrix products.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from importlib import resources
from pathlib import Path

import numpy as np

from kscore.errors import KscoreError
from kscore.vision.read.features import FEATURE_VERSION

MODEL_FILE = "recognition.npz"


class ModelError(KscoreError):
    """The model files are missing or were made by another version of the feature code."""


class _Softmax:
    """Probabilities from a classifier's logits (its `logits(x)` and `classes`)."""

    def predict_proba(self, x: np.ndarray) -> np.ndarray:
        h = self.logits(x)
        h = h - h.max(axis=1, keepdims=True)
        e = np.exp(h)
        return e / e.sum(axis=1, keepdims=True)

    def predict_full(self, x: np.ndarray, n_classes: int) -> np.ndarray:
        """Probabilities over classes 0..n_classes-1 (classes never seen in training get 0)."""
        p = self.predict_proba(x)
        out = np.zeros((p.shape[0], n_classes), np.float32)
        out[:, self.classes] = p
        return out


@dataclass(frozen=True)
class Network(_Softmax):
    """Standardise, then dense layers (ReLU between), softmax at the end."""

    mean: np.ndarray
    scale: np.ndarray
    weights: tuple[np.ndarray, ...]
    biases: tuple[np.ndarray, ...]
    classes: np.ndarray  # the class index each output column stands for
    temperature: float = 1.0  # already folded into the last layer; kept for the record

    def logits(self, x: np.ndarray) -> np.ndarray:
        h = (np.asarray(x, np.float32) - self.mean) / self.scale
        for i, (w, b) in enumerate(zip(self.weights, self.biases)):
            h = h @ w + b
            if i < len(self.weights) - 1:
                h = np.maximum(h, 0.0)
        return h

    def tempered(self, temperature: float) -> "Network":
        """The same network with its logits divided by `temperature` (calibration)."""
        weights = self.weights[:-1] + (self.weights[-1] / np.float32(temperature),)
        biases = self.biases[:-1] + (self.biases[-1] / np.float32(temperature),)
        return Network(self.mean, self.scale, weights, biases, self.classes, self.temperature * temperature)

    @classmethod
    def from_sklearn(cls, scaler, model) -> "Network":
        """From a fitted StandardScaler and a LogisticRegression or MLPClassifier (relu)."""
        if hasattr(model, "coefs_"):
            weights = [np.asarray(w, np.float32) for w in model.coefs_]
            biases = [np.asarray(b, np.float32) for b in model.intercepts_]
        else:
            weights = [np.asarray(model.coef_.T, np.float32)]
            biases = [np.asarray(model.intercept_, np.float32)]
        if weights[-1].shape[1] == 1:  # binary: logistic = softmax over (0, z)
            weights[-1] = np.hstack([np.zeros_like(weights[-1]), weights[-1]])
            biases[-1] = np.concatenate([np.zeros(1, np.float32), biases[-1]])
        scale = np.where(scaler.scale_ > 0, scaler.scale_, 1.0)
        return cls(
            np.asarray(scaler.mean_, np.float32),
            np.asarray(scale, np.float32),
            tuple(weights),
            tuple(biases),
            np.asarray(model.classes_, np.int64),
        )

    def to_arrays(self, prefix: str) -> dict[str, np.ndarray]:
        arrays = {f"{prefix}.mean": self.mean, f"{prefix}.scale": self.scale, f"{prefix}.classes": self.classes}
        for i, (w, b) in enumerate(zip(self.weights, self.biases)):
            arrays[f"{prefix}.w{i}"] = w
            arrays[f"{prefix}.b{i}"] = b
        return arrays

    @classmethod
    def from_arrays(cls, arrays, prefix: str) -> "Network":
        n = 0
        while f"{prefix}.w{n}" in arrays:
            n += 1
        return cls(
            arrays[f"{prefix}.mean"],
            arrays[f"{prefix}.scale"],
            tuple(arrays[f"{prefix}.w{i}"] for i in range(n)),
            tuple(arrays[f"{prefix}.b{i}"] for i in range(n)),
            arrays[f"{prefix}.classes"],
        )


@dataclass(frozen=True)
class Experts(_Softmax):
    """Two networks that vote on the same classes: `whole` reads every feature, `shapes` only the columns from
    `shapes_from` on; their logits add, the shapes expert's times `shapes_weight` (a weighted product of
    experts), so a class wins where both find it likely. The vote is tempered by `vote_temperature`.

    Terrain's shapes expert reads the print's texture alone (features.print_texture), blind to colour: a veil
    of glare or a colour cast the whole network never learnt moves the colour features, not the drawing, and
    the texture then outvotes them (photos-loose: forests under a blue sheen read lake or castle on colour).

    The classes in `abstains` (terrain as shipped: wheat, grassland, castle and empty square, train.SHAPES_ABSTAIN)
    are the whole network's alone: each keeps the probability the whole network gives it, tempered by
    `whole_temperature` as when it read terrain by itself, and the vote shares out the rest among the others
    (forest, lake, swamp, mine). Busy drawings (stones, a grid cut across several tiles) look castle-like to
    texture alone, and the decoder's and the localiser's choices hinge on which square is the castle.

    >>> import numpy as np
    >>> one = lambda w: Network(np.zeros(1, np.float32), np.ones(1, np.float32), (np.array([w], np.float32),),
    ...                         (np.zeros(3, np.float32),), np.arange(3))
    >>> both = Experts(one([0.0, 1.0, 0.0]), one([2.0, 0.0, 2.0]), 0, 1.0, abstains=(2,))
    >>> p, alone = both.predict_proba([[1.0]])[0], one([0.0, 1.0, 0.0]).predict_proba([[1.0]])[0]
    >>> bool(np.isclose(p[2], alone[2])), bool(p[0] > alone[0])
    (True, True)
    """

    whole: Network
    shapes: Network
    shapes_from: int
    shapes_weight: float
    abstains: tuple[int, ...] = ()  # classes (values of `classes`) the shapes expert leaves to the whole network
    whole_temperature: float = 1.0  # the whole network's alone (for the classes in `abstains`)
    vote_temperature: float = 1.0

    @property
    def classes(self) -> np.ndarray:
        return self.whole.classes

    @property
    def temperature(self) -> float:
        return self.vote_temperature

    def logits(self, x: np.ndarray) -> np.ndarray:
        x = np.asarray(x, np.float32)
        return experts_vote(self.whole.logits(x), self.shapes.logits(x[:, self.shapes_from:]), self.shapes_weight,
                            ~np.isin(self.classes, self.abstains), self.whole_temperature, self.vote_temperature)

    def tempered(self, whole: float, vote: float | None = None) -> "Experts":
        """The experts with these temperatures (the vote's the whole network's if not given)."""
        return replace(self, whole_temperature=whole, vote_temperature=vote or whole)

    def to_arrays(self, prefix: str) -> dict[str, np.ndarray]:
        return {**self.whole.to_arrays(prefix), **self.shapes.to_arrays(f"{prefix}.shapes"),
                f"{prefix}.shapes_from": np.array(self.shapes_from),
                f"{prefix}.shapes_weight": np.array(self.shapes_weight),
                f"{prefix}.abstains": np.array(self.abstains, np.int64),
                f"{prefix}.whole_temperature": np.array(self.whole_temperature),
                f"{prefix}.vote_temperature": np.array(self.vote_temperature)}

    @classmethod
    def from_arrays(cls, arrays, prefix: str) -> "Experts | Network":
        """The experts saved under `prefix`, or the one network where a model file has no shapes expert."""
        whole = Network.from_arrays(arrays, prefix)
        if f"{prefix}.shapes_from" not in arrays:
            return whole
        return cls(whole, Network.from_arrays(arrays, f"{prefix}.shapes"), int(arrays[f"{prefix}.shapes_from"]),
                   float(arrays[f"{prefix}.shapes_weight"]), tuple(int(c) for c in arrays[f"{prefix}.abstains"]),
                   float(arrays[f"{prefix}.whole_temperature"]), float(arrays[f"{prefix}.vote_temperature"]))


def experts_vote(whole: np.ndarray, shapes: np.ndarray, weight: float, voted: np.ndarray,
                 whole_temperature: float = 1.0, vote_temperature: float = 1.0) -> np.ndarray:
    """The logits of two experts voting (see Experts): (whole + weight * shapes) / vote_temperature on the
    `voted` columns, scaled so that together they keep the share the whole network alone (whole /
    whole_temperature) leaves them; the other columns are the whole network's alone.

    >>> import numpy as np
    >>> experts_vote(np.array([[0.0, 1.0]]), np.array([[3.0, 0.0]]), 0.5, np.array([True, True]))
    array([[1.5, 1. ]])
    """
    vote = (whole + np.float32(weight) * shapes) / np.float32(vote_temperature)
    if voted.all():
        return vote
    out = whole / np.float32(whole_temperature)
    out[:, voted] = vote[:, voted] + _log_sum_exp(out[:, voted]) - _log_sum_exp(vote[:, voted])
    return out


def _log_sum_exp(z: np.ndarray) -> np.ndarray:
    top = z.max(axis=1, keepdims=True)
    return top + np.log(np.exp(z - top).sum(axis=1, keepdims=True))


@dataclass(frozen=True)
class Models:
    """Everything the reader needs: terrain classifier, crown template, crown classifiers."""

    terrain: Experts | Network
    crown_template: np.ndarray  # gray float32, search scale
    candidate: Network  # patch descriptor -> P(not crown, crown)
    count: Network  # per-square candidate summary -> P(0..3 crowns)
    info: dict

    def save(self, folder: Path | str) -> Path:
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        arrays = {
            **self.terrain.to_arrays("terrain"),
            **self.candidate.to_arrays("candidate"),
            **self.count.to_arrays("count"),
            "crown_template": self.crown_template.astype(np.float32),
            "info": np.array(json.dumps({**self.info, "feature_version": FEATURE_VERSION}, sort_keys=True)),
        }
        path = folder / MODEL_FILE
        with open(path, "wb") as f:  # a file object keeps np.savez from renaming it
            np.savez_compressed(f, **arrays)
        return path


def shipped_file(name: str):
    """A model file shipped with kscore: package kscore.models when installed, repo models/ in a checkout."""
    try:
        return resources.files("kscore.models").joinpath(name)
    except ModuleNotFoundError:  # a source checkout: models/ sits beside kscore/, three folders up
        return Path(__file__).resolve().parents[3] / "models" / name


def load_models(path: Path | str | None = None) -> Models:
    """Load the models (default: the ones shipped in kscore.models), checking their version."""
    if path is None:
        ref = shipped_file(MODEL_FILE)
        if not ref.is_file():
            raise ModelError(f"no recognition model shipped ({MODEL_FILE} missing): build it with `kscore train`")
        with resources.as_file(ref) as real:
            return load_models(real)
    path = Path(path)
    if path.is_dir():
        path = path / MODEL_FILE
    if not path.is_file():
        raise ModelError(f"recognition model not found at {path}: build it with `kscore train`")
    with np.load(path, allow_pickle=False) as data:
        arrays = {k: data[k] for k in data.files}
    info = json.loads(str(arrays["info"]))
    version = info.get("feature_version")
    if version != FEATURE_VERSION:
        raise ModelError(
            f"recognition model {path} was made by feature code version {version}, "
            f"this kscore computes version {FEATURE_VERSION}: rebuild it with `kscore train`"
        )
    return Models(
        Experts.from_arrays(arrays, "terrain"),
        arrays["crown_template"],
        Network.from_arrays(arrays, "candidate"),
        Network.from_arrays(arrays, "count"),
        info,
    )
