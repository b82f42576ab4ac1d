"""Small classifiers stored as plain arrays, and the model files' loading and versioning.

Models are saved as numpy arrays (standardisation, layer weights), not pickles:
they load with any scikit-learn version (or none), cannot run code, and stay
tiny. Inference is a few matrix products.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import numpy as np

from kscore.errors import KscoreError
from kscore.vision.read.features import FEATURE_VERSION

MODEL_FILE = "recognition.npz"


class ModelError(KscoreError):
    """The model files are missing or were made by another version of the feature code."""


@dataclass(frozen=True)
class Network:
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
        n = sum(1 for k in arrays if k.startswith(f"{prefix}.w"))
        return cls(
            arrays[f"{prefix}.mean"],
            arrays[f"{prefix}.scale"],
            tuple(arrays[f"{prefix}.w{i}"] for i in range(n)),
            tuple(arrays[f"{prefix}.b{i}"] for i in range(n)),
            arrays[f"{prefix}.classes"],
        )


@dataclass(frozen=True)
class Models:
    """Everything the reader needs: terrain classifier, crown template, crown classifiers."""

    terrain: Network
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
        Network.from_arrays(arrays, "terrain"),
        arrays["crown_template"],
        Network.from_arrays(arrays, "candidate"),
        Network.from_arrays(arrays, "count"),
        info,
    )
