"""The game: the kingdom model, the text format, tile sets, rules, scoring and ranking.

Pure Python (no numpy, no OpenCV): scoring a text grid loads nothing else. Read
bottom up: kingdom.py, scoreline.py, tileset.py; rules.py, properties.py,
registry.py (where expansions plug in); expansions/ (registered on import, below);
plausibility.py, scoring.py, ranking.py, textformat.py, which read the registry.
"""

from kscore.game import expansions  # noqa: F401  fills kscore.game.registry before any reader uses it
