"""The examples in docstrings are run, so they stay true."""

import doctest
import importlib
import pkgutil

import pytest

import kscore


def _modules_with_examples() -> list[str]:
    names = []
    for info in pkgutil.walk_packages(kscore.__path__, "kscore."):
        spec = importlib.util.find_spec(info.name)
        if spec and spec.origin and spec.origin.endswith(".py") and ">>>" in open(spec.origin, encoding="utf-8").read():
            names.append(info.name)
    return names


def test_some_modules_have_examples():
    assert "kscore.game.properties" in _modules_with_examples()


@pytest.mark.parametrize("name", _modules_with_examples())
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0
