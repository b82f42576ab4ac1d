"""kscore: score finished Kingdomino kingdoms from a photo or a text grid.

Data flows one way: photo -> board (photo/) -> squares (recognition/) ->
kingdom (kingdom.py) -> score (scoring.py).
"""

__version__ = "0.1.0"
