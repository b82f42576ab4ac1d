"""Class orders shared by the square recogniser and the tile-set decoder.

The probability arrays that cross from recogniser to decoder are indexed by
these tuples, so both sides import them from here and never hard-code an order.
"""

from __future__ import annotations

from kscore.game.kingdom import BASE_TERRAINS, Terrain

#: Terrain probability axis: wheat, grassland, forest, lake, swamp, mine, castle, empty.
TERRAIN_CLASSES: tuple[Terrain, ...] = BASE_TERRAINS + (Terrain.CASTLE, Terrain.EMPTY)

#: Crown probability axis: P(0), P(1), P(2), P(3) crowns.
CROWN_CLASSES: tuple[int, ...] = (0, 1, 2, 3)

TERRAIN_INDEX = {terrain: i for i, terrain in enumerate(TERRAIN_CLASSES)}

#: Where the castle and the empty square (table) sit on the terrain axis: the two every reader and the
#: decoder treat apart (one castle a kingdom; no crowns on either).
CASTLE = TERRAIN_INDEX[Terrain.CASTLE]
EMPTY = TERRAIN_INDEX[Terrain.EMPTY]
