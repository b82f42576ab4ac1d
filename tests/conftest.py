"""Shared fixtures: where the shared data sets live, skipping visibly without them."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parents[1]
SHARED_DATA = PROJECT.parent / "shared" / "data"
TEST_DATA = PROJECT / "tests" / "data"


def sigint_as_at_a_terminal() -> None:
    """For a child that a test interrupts (Popen's preexec_fn): SIGINT back to its default.

    A shell starts background jobs with SIGINT ignored and children inherit that, so under
    `pytest &` or `nohup ... &` kscore would never see the test's Ctrl-C.
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def run_kscore(capsys, *args) -> tuple[int, str, str]:
    """kscore's command line on args (paths made strings): exit code, stdout, stderr."""
    from kscore.app.cli import main

    try:
        main([str(a) for a in args])
        code = 0
    except SystemExit as done:
        code = done.code or 0
    out, err = capsys.readouterr()
    return code, out, err


def _shared(name: str) -> Path:
    folder = SHARED_DATA / name
    if not folder.is_dir():
        pytest.skip(f"shared data set not present here: {folder}")
    return folder


@pytest.fixture(scope="session")
def kingdomino_data() -> Path:
    """../shared/data/kingdomino: 54 labelled 500x500 boards."""
    return _shared("kingdomino")


@pytest.fixture(scope="session")
def photos_data() -> Path:
    """../shared/data/photos: 3 labelled real photos."""
    return _shared("photos")


@pytest.fixture(scope="session")
def tiles_phone_data() -> Path:
    """../shared/data/tiles-phone: 5,655 labelled squares."""
    return _shared("tiles-phone")


@pytest.fixture(scope="session")
def photos_loose_data() -> Path:
    """../shared/data/photos-loose: 5 photos of one hand-laid kingdom, labelled by its extent."""
    return _shared("photos-loose")


@pytest.fixture(scope="session")
def bank(kingdomino_data, tiles_phone_data):
    """The synthetic scenes' square bank (kscore.lab.loose_scenes.SquareBank) as the tests draw from it: every
    labelled board's squares and the phone castles; made once (nothing draws into it)."""
    from kscore.lab.dataset import load_boards
    from kscore.lab.loose_scenes import SquareBank

    return SquareBank.from_boards(load_boards(kingdomino_data), tiles_phone_data / "castle")
