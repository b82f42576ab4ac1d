"""Find kingdoms laid by hand, starting from the tiles themselves.

localise.py looks for the outline of a square block of 5x5 or 7x7 squares.
Players' kingdoms are not that: dominoes laid by hand leave gaps and shift rows
by up to a quarter of a square, the outline is ragged, the extent is often
smaller than the frame (a 5x4 kingdom, a 3-square one after the first round),
and the seams do not line up across the kingdom. So here:

1. `tile_mask`: pixels surely unlike the photo's border strip (the table) in
   colour, or showing far more detail than the table ever does
   (`texture_foreground`: a grass tile on green felt, a grey castle on a grey
   mat; measured on the photo `without_specks`, so a dotted carpet's dots do
   not set the bar above a dark forest's or a mine's, and without the tiles
   lying across the strip, `strays_across`: a stray domino's edges set it
   above a dark kingdom's), or whose chromaticity,
   averaged over the speckles, lies beyond any the table's
   (`chroma_foreground`: a grey castle or a mine on beige speckled stone),
   opened with a small disc (1.5% of the short side): a carpet's dots, thin
   printed lines and specks go, tiles stay. When a group reaches the photo's
   edge, or a sizeable piece reads as no kingdom (wider than 7 squares), all
   is done again with the colour of those pieces kept only near solid detail
   (`tied_to_detail`: a carpet's wedges and bands of dots, taken for tiles,
   carried the kingdom to the edge or beyond seven squares), and kept if it
   holds a larger whole kingdom.
2. The square's pitch, once per photo, from every sizeable piece of tiles
   together (a loosely laid kingdom falls apart into dominoes): the
   autocorrelation of the edges along the rows and down the columns (summed
   row by row, so rows shifted against each other still agree on it), bounded
   by the box: at most 7 squares across the largest piece, at least one, at
   most 49 squares (and a few strays) of tile; a period about half that one
   under the short side's bound alone is taken instead (table joined to the
   piece lengthens its long side, and the bound then excludes the square's
   side, so twice it was found). Lone dominoes among the pieces say the
   square's side too, from their outline alone (`domino_side`: the long side
   less the short), and overrule a period more than 5% from it (a cloth's
   or a print's period; a few tiles laid apart with wide gaps, whose period
   came out short and whose four squares in a row spanned five cells).
   Then the tiles are opened
   again in proportion to a square, with the squares the detail outlines
   (`solid_detail`: outlines enclosing up to a domino, not a carpet's wedge)
   that the mask lacks added (a dark tile on a dark carpet: the forest or
   flat castle a row hangs on), pieces under half a square or small and
   not solid (clusters of dots) are dropped (the sure mask with them: it is
   judged by the pieces it lies in), and pieces up to half a square
   apart are one group: a candidate kingdom or a stray. Per group, its turn:
   the peak of its edge directions modulo 90 degrees (tile edges and seams
   dominate a kingdom's edges, whatever its outline), the table's thin marks
   left out (`table_marks`: a mat's printed lines are all one way).
3. A coarse lattice (the offset, and the pitch from a tile's side to 6%
   longer, whose cells are most clearly all-tile or all-table, weighed by
   their area), then every cell is fitted on its own: the square of any size
   (+-15%) within 0.3 of a square of its lattice place whose four sides lie
   on the most edge (tile edges and seams). A similarity through those fits
   (squares are square; RANSAC), then a homography through its inliers when
   it agrees with as many and keeps squares square-ish, is the kingdom's
   perspective; each cell is then fitted again
   within a quarter square of where the homography puts it, at the size it
   says. A domino laid a quarter square off is read where it lies. The
   autocorrelation's peak is a tile's side, a few % short of the lattice's
   pitch (the gaps between tiles), so the coarse lattice tries longer ones
   (else 5 squares at 0.95 of the pitch gain a sixth row or column, and the
   fits, pulled to their places, agree with it); when the similarity's square
   still differs from it, the lattice is laid again at the group's own pitch.
4. The extent is the rows and columns holding cells that are clearly tile,
   and the cells in doubt beside them that the detail outlines all round
   (`maybe_beside`: a dark tile on a dotted carpet, its print opened away
   with the dots), within the frame the sure tiles imply; cells inside it
   that are clearly table are empty squares ('.'). Holes in
   the tiles are filled only up to half a square: an empty square the
   kingdom surrounds stays empty.

The squares just outside the extent beside a tile are kept as `ring`: where a
castle the tile mask missed would lie (app.pipeline asks the reader).

A grid the block finder found whole over a kingdom laid by hand frames its empty squares too; `grid_tables`
gives app.pipeline the tile mask's verdict on them (table: read as empty), as a group's cells get it.

A group that reaches the photo's edge is partial. Which group is a kingdom
and which a stray (the draft line, discards) is left to the reading: a
kingdom has a castle (app.pipeline).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import cv2
import numpy as np

from kscore.game.kingdom import sides_of
from kscore.vision.geometry import scaled_quad, side_length
from kscore.vision.morphology import with_disc
from kscore.vision.load import Photo
from kscore.vision.find.localise import TILE_DETAIL, Working, _local_contrast, border_mask, foreground, working_image
from kscore.vision.find.occlusion import board_homography

#: Foreground (see localise.foreground) above which a pixel is surely not table.
SURE_FOREGROUND = 0.85
#: Opening disc for the tile mask, as a share of the working image's short side.
OPEN_SHARE = 0.015
#: Smallest piece of tiles to start from, as a share of the working image (a square of a 5x5 kingdom a third
#: of the photo across is ~0.3%).
MIN_GROUP_SHARE = 0.003
#: Smallest group read once the pitch is known, in squares (a domino is 2).
MIN_GROUP_SQUARES = 1.5
#: Once the pitch is known, the openings' discs, in squares: for grouping pieces, and for the
#: tile mask a cell must be covered by to be surely tile (a carpet's dot clusters gone).
PIECE_OPEN = 0.12
SURE_OPEN = 0.16
#: Gap (in squares) up to which pieces of tiles are one group.
JOIN_GAP = 0.5
#: Opening disc (in squares) of the outlined squares the tile mask lacks or has in spots, before they join it
#: (with_outlined_tiles): a square's body stays, a tile's outlined rim or shadow beside its mask goes (0.25 on
#: dev rug seed 13: extent wrong 9 -> 7; the rims kept, with no opening, joined strays into false kingdoms:
#: dev seed 2 false finds 1 -> 3).
OUTLINED_OPEN = 0.25
#: Largest hole in a group's tiles filled as tile, in squares (a house on a tile; an empty square is ~1).
HOLE_SQUARES = 0.5
#: Least solidity of a small piece of tiles (under 2.5 squares) for it to join a group.
PIECE_SOLIDITY = 0.85
#: Largest extent a kingdom may have (7x7, Mighty Duel).
MAX_EXTENT = 7
#: A group is cut by a side of the photo only if its tile squares come within this many squares of it
#: (cut_sides): a square cut in half reads as table, and a gap may lie before it.
CUT_REACH = 1.0
#: Squares a kingdom's piece of tiles may span beyond its extent (gaps between tiles, dominoes laid a
#: quarter square off or turned): a 7x7 laid by hand spans up to ~7.8 squares.
SPAN_SLACK = 1.5
#: Fewest working-image pixels a square may have (a kingdom read needs far more; under this, texture).
MIN_PITCH = 8
#: Ratio to the pitch found under the largest piece's bounds within which a period found under its short side's
#: alone is taken instead (that pitch was twice the square's: table joined to the piece).
HALF_PITCH = (0.4, 0.6)
#: How far (a share) the pitch of rows and columns together and that of the columns' spacing across the photo
#: alone may differ before the photo is taken as drawn from a chair and the groups are found at both
#: (_groups), and no farther than the second bound: an across peak at several squares is no square.
AXIS_SPLIT = (0.05, 0.3)
#: How much stronger the seams under the largest group's cells must be at the across pitch (_on_seams) for
#: the groups found at it to be kept.
SEAMS_BETTER = 1.05
#: _period's check for a pitch read at two squares: a peak within this share of the lag from half of it,
#: higher and standing at least this share as proud as the proudest, is the square (the seams' second
#: harmonic; a print's seam inside a square is lower than the tile's edges).
SUBHARMONIC_SLACK = 0.1
SUBHARMONIC_PROUD = 0.5
#: A lone domino among the tile mask's pieces: its outline fills at least this share of its bounding rectangle
#: (a clean domino's fills 0.97, its corners rounded by the opening; one with a carpet's dots joined to an end,
#: longer by a third of a square, 0.91),
#: its long side over its short lies in this range (2 squares by 1, each plus the same rim: 1.6-2.1), and the
#: rim (short side less the square's) is within this share of a square (the mask's blur, a tile's shadow).
DOMINO_FILL = 0.95
DOMINO_RATIO = (1.6, 2.1)
DOMINO_RIM = (-0.05, 0.3)
#: Relative difference between the autocorrelation's pitch and the lone dominoes' side above which the latter is taken.
DOMINO_AGREE = 0.05
#: Offsets tried per axis for the coarse lattice (each cell is then fitted on its own).
LATTICE_OFFSETS = 16
#: Relative difference between the photo's pitch and the one a group's own fits say above which the
#: group's lattice is laid again at its own.
REFIT_PITCH = 0.015
# keystone_flattening: a group whose squares change size (or shape) by less than KEYSTONE_MIN from its centre
# to its farthest pixel is left flat; from a chair (12-25 degrees) a 7x7's near squares are ~15% larger than
# its far ones. Only groups KEYSTONE_SPAN squares across both ways: halves of under ~3 squares (close 5x5s
# from a chair) gave pitches 12-20% apart, more than the camera drew. A slope drawing more than KEYSTONE_MAX
# across the group is the halves' pitches wrong, not the camera. A half's peak with a rival RIVAL_PEAK as
# high is no pitch.
KEYSTONE_MIN = 0.03
KEYSTONE_SPAN = 5.5
#: The fewest squares across a group whose whole band's rows' and columns' pitches (not its halves') are
#: compared for a camera's foreshortening (_fit_group).
FORESHORTENED_SPAN = 3.5
KEYSTONE_MAX = 0.15
RIVAL_PEAK = 0.7
#: How far a cell's own fit may move from its lattice place (pass 1) and from the homography's (pass 2), in squares.
FIRST_REACH = 0.3
SECOND_REACH = 0.25
#: Distance (squares) within which a cell's own fit agrees with the lattice's similarity.
SIM_REACH = 0.2
FIRST_SCALES = (0.86, 0.93, 1.0, 1.07, 1.14)
#: Lattice pitches tried, as multiples of the photo's pitch (a tile's side): the gap between tiles is 0-7% of it.
GAP_PITCHES = (1.0, 1.02, 1.04, 1.06)
#: Share of a cell (its central 80%) that must be tile for it to count as tile / at most for it to be table.
TILE_SHARE = 0.6
TABLE_SHARE = 0.2
#: Window of the texture foreground, as a share of the working image's short side; detail this many
#: times the table's 99th percentile counts as surely tile.
TEXTURE_SHARE = 0.012
TEXTURE_BAR = 2.0
#: The chromaticity foreground's bar: this many times the table's 99th percentile distance from its median
#: chromaticity, which is at least CHROMA_NOISE (JPEG noise on a plain table).
CHROMA_BAR = 2.0
CHROMA_NOISE = 0.01
#: Window (px) of the local grey contrast a piece's print is judged by (localise.foreground's, with TILE_DETAIL).
CONTRAST_WINDOW = 7
#: Mean foreground of a cell the tile mask misses above which the reader decides whether it is a tile.
MAYBE_TILE = 0.5
#: Width (in tile-mask opening discs) of the disc solid detail is dilated by: how far a colour piece reaching the
#: photo's edge is kept beyond it (a tile's rim, a tile whose outline did not close).
NEAR_DETAIL = 3
#: Share of the photo's short side that is its border strip, where the table's colours and detail are learnt.
TABLE_STRIP = 0.04
#: Detail (texture foreground) that outlines a tile for `solid_detail`: the table's own 99th percentile.
OUTLINE_DETAIL = 1.0 / TEXTURE_BAR
#: Largest hole (squares) an outline encloses that `solid_detail` fills once the pitch is known: a domino whose
#: seam shows no detail, with its gaps; a carpet's wedge, outlined by its own edges, encloses far more.
OUTLINE_HOLES = 2.5


@dataclass(frozen=True)
class LooseKingdom:
    """A group of tiles fitted square by square.

    cells: (row, col) inside the extent -> the square's corners TL, TR, BR, BL
    in original photo pixels; tile: (row, col) -> share of it that is tile
    (1 tile ... 0 table; cells between TABLE_SHARE and TILE_SHARE are left to
    the reader). extent: (rows, cols) occupied. corners: the extent's outline.
    """

    cells: dict[tuple[int, int], np.ndarray]
    tile: dict[tuple[int, int], float]
    extent: tuple[int, int]
    corners: np.ndarray
    pitch: float  # original photo pixels per square
    partial: bool = False
    missing: str = ""
    #: (row, col) just outside the extent, beside a tile -> where the lattice puts that square: the place
    #: of a castle the tile mask missed (a flat castle coloured like the table), for the reader to look at.
    ring: dict = field(default_factory=dict)
    #: Partial: its tile squares within CUT_REACH squares of the side(s) of the photo that cut it, the
    #: squares the claim rests on (the reader may see them as table: app.pipeline.cut_by_table).
    cut_by: tuple = ()
    #: Where its blob meets the side(s) that cut it: (side, from, to) pixels along that side.
    edge_met: tuple = ()
    #: Found with the table cut back, after the reader saw table where the photo's edge was said to cut a
    #: group of the first reading (app.pipeline.cut_by_table): a cut seen there by the block finder is refuted too.
    cut_refuted: bool = False

    @property
    def squares(self) -> int:
        """Cells that are surely tile."""
        return sum(t >= TILE_SHARE for t in self.tile.values())


def texture_foreground(work: np.ndarray, strip: float = TABLE_STRIP, tiles: np.ndarray | None = None) -> np.ndarray:
    """Per pixel in [0, 1]: how much more detail its neighbourhood shows than the table ever does.

    The colour foreground misses tiles coloured like the table (a grass tile
    on green felt, a grey castle or a dark mine on a grey mat). Tiles are
    printed with detail and edged by seams; the table's own detail is measured
    on the photo's border strip (its 99th percentile): a felt or a plain table
    shows little, so any tile stands out; a dotted carpet or a mat's grid lines
    set the bar high, and then this adds nothing the colours did not. `tiles`: pixels of the strip
    that are tiles, not table (`strays_across`), left out of the bar.
    """
    h, w = work.shape[:2]
    lab = cv2.cvtColor(cv2.GaussianBlur(work, (3, 3), 0), cv2.COLOR_BGR2Lab).astype(np.float32)
    grad = sum(np.abs(cv2.Sobel(lab[..., i], cv2.CV_32F, 1, 0)) + np.abs(cv2.Sobel(lab[..., i], cv2.CV_32F, 0, 1))
               for i in range(3))
    detail = cv2.blur(grad, _texture_window(h, w))
    border = _table_border(h, w, strip)
    if tiles is not None and (border & ~tiles).any():
        border &= ~tiles
    return _beyond_table(detail, border, TEXTURE_BAR, 1.0)


def strays_across(work: np.ndarray, colour: np.ndarray, strip: float = TABLE_STRIP) -> np.ndarray:
    """Tiles lying across the photo's border strip, and the half texture window around them (bool): the colour's
    pieces of tiles reaching into the strip, no larger than the largest wholly inside, printed there.

    A stray domino across the photo's edge is no table: its edges and print (10-80x the strip's median
    detail) set the texture bar, and a dark kingdom then falls under it. The colour finds it as one of
    its pieces of tiles (tile_mask: its colours lie on one side of the photo only). Of those reaching
    the strip, one larger than every piece inside is the kingdom cut by the edge (or the table), and one
    whose part in the strip is flat is no tile (a carpet's wedge, its end cut off by the opening): it shows
    no print, judged as the colour model judges the strip's pieces (localise._tile_segments, TILE_DETAIL)
    on its core, its outline's contrast left out. The detail is a window's mean: a tile's reaches half a
    window past its edge.
    """
    h, w = colour.shape
    border = _table_border(h, w, strip)
    count, pieces, stats, _ = cv2.connectedComponentsWithStats(tile_mask(colour))
    area = stats[:, cv2.CC_STAT_AREA]
    reaching = np.unique(pieces[border])
    inside = np.setdiff1d(np.arange(1, count), reaching)
    out = np.zeros((h, w), np.uint8)
    candidates = reaching[(reaching > 0) & (area[reaching] <= area[inside].max())] if len(inside) else []
    if not len(candidates):
        return out > 0
    grey = cv2.cvtColor(cv2.GaussianBlur(work, (5, 5), 0), cv2.COLOR_BGR2Lab)[..., 0].astype(np.float32)
    _, contrast = _local_contrast(grey, CONTRAST_WINDOW)
    core = np.ones((CONTRAST_WINDOW, CONTRAST_WINDOW), np.uint8)
    for j in candidates:
        x, y, bw, bh = stats[j, :4]
        box = (slice(max(0, y - CONTRAST_WINDOW), y + bh + CONTRAST_WINDOW),  # room to erode from every side
               slice(max(0, x - CONTRAST_WINDOW), x + bw + CONTRAST_WINDOW))
        piece = (pieces[box] == j).astype(np.uint8)
        printed = contrast[box][(cv2.erode(piece, core) > 0) & border[box]]
        if len(printed) and float(np.percentile(printed, 75)) > TILE_DETAIL:
            out[box] |= piece
    k = _texture_window(h, w)[0] | 1
    return with_disc(out, cv2.MORPH_DILATE, k) > 0


def chroma_foreground(work: np.ndarray, strip: float = TABLE_STRIP) -> np.ndarray:
    """Per pixel in [0, 1]: how far its chromaticity lies beyond any the table shows.

    On a speckled stone the table's colours (per pixel, in brightness too)
    span a grey castle's, a mine's, a plain field's, so the colour foreground
    misses them. Speckles are small: a mean over a texture window leaves the
    stone's own colour, which varies little in chromaticity (r, g over
    r + g + b: the same under shade or brighter light), while a tile's print
    differs. The bar is CHROMA_BAR times the border strip's 99th percentile
    distance from its median (the table dominates the border), at least
    CHROMA_NOISE (a plain felt: JPEG noise alone).
    """
    h, w = work.shape[:2]
    b, g, r = cv2.split(cv2.blur(work.astype(np.float32), _texture_window(h, w)) + 1.0)
    total = b + g + r
    r, g = r / total, g / total
    border = _table_border(h, w, strip)
    dist = np.hypot(r - float(np.median(r[border])), g - float(np.median(g[border])))
    return _beyond_table(dist, border, CHROMA_BAR, CHROMA_NOISE)


def _table_border(h: int, w: int, strip: float) -> np.ndarray:
    """The photo's border strip, `strip` of its short side wide (at least 2 px): where the table shows."""
    return border_mask(h, w, _strip_width(h, w, strip))


def _strip_width(h: int, w: int, strip: float = TABLE_STRIP) -> int:
    """The border strip's width in px: `strip` of the short side, at least 2."""
    return max(2, int(strip * min(h, w)))


def _texture_window(h: int, w: int) -> tuple[int, int]:
    """The window (px) a pixel's neighbourhood is averaged over: TEXTURE_SHARE of the short side, at least 3."""
    k = max(3, int(TEXTURE_SHARE * min(h, w)))
    return k, k


def _beyond_table(value: np.ndarray, border: np.ndarray, bar: float, floor: float) -> np.ndarray:
    """`value` in units of `bar` times the border strip's 99th percentile (at least `floor`), clipped to [0, 1].

    The table dominates the photo's border, so what lies well beyond anything seen there is surely tile.

    >>> value = np.zeros((20, 20)); value[5:15, 5:15] = 4.0
    >>> border = border_mask(20, 20, 2)
    >>> _beyond_table(value, border, 2.0, 1.0)[[0, 10], [0, 10]].tolist()
    [0.0, 1.0]
    """
    scale = bar * max(float(np.percentile(value[border], 99)), floor)
    return np.clip(value / scale, 0.0, 1.0).astype(np.float32)


def tile_foreground(work: np.ndarray, made: np.ndarray | None = None) -> np.ndarray:
    """Per pixel in [0, 1]: how surely not table, by colour, detail or chromaticity (whichever is surest).

    Detail is measured on the photo without its specks (`without_specks`): a dotted carpet's dots set
    the detail bar (the border's 99th percentile) above a dark or muted tile's (a forest, a mine, a swamp
    under a warm lamp), whose colours the dots' blur into the carpet spans too. Colour and chromaticity
    stay the photo's own: on the real dotted carpet (photos-loose) the lamp-lit middle is brighter than
    the border's bare carpet and only the blurred dots' colours keep it table; and what the opening
    leaves of a line of dots is a faint tint, which on a dark carpet is a large change of chromaticity.
    made: localise's foreground of `work`, when it made one.
    """
    colour = colour_foreground(work, made)
    return np.maximum(texture_foreground(without_specks(work), tiles=strays_across(work, colour)), colour)


def colour_foreground(work: np.ndarray, made: np.ndarray | None = None) -> np.ndarray:
    """Per pixel in [0, 1]: how surely not table by colour or by chromaticity (see tile_foreground).
    made: localise's foreground of `work` (Working.foreground), when it made one."""
    return np.maximum(foreground(work) if made is None else made, chroma_foreground(work))


def tied_to_detail(colour: np.ndarray, outlined: np.ndarray, unread: np.ndarray | None = None) -> np.ndarray:
    """The colour foreground less the parts of its pieces reaching the photo's edge (or `unread`) that lie far
    from tiles' detail.

    The colour model knows the table only by its border strip: a large patch of a colour the border
    shows little of (a carpet's dark-blue wedge, a band of dot columns under a lamp) passes for tiles,
    joins the kingdom and carries it to the photo's edge (then "cut by the edge", the pitch from that
    piece ~2x). Tiles are squares edged and printed with detail: the detail foreground's outlines,
    filled and opened (`solid_detail`), are the tiles wherever the table is plainer than they are. A
    colour piece that reaches the edge, or overlaps `unread` (pieces no lattice read as one kingdom:
    a wedge joined to it made it wider than seven squares), keeps only what lies within a few opening discs of those
    (a tile whose outline did not close, a kingdom truly cut by the edge); other pieces stay whole
    (on a busy table the detail says nothing, and the colour alone finds the tiles).
    """
    h, w = colour.shape
    # Pieces before the opening: a line of dots joining a wedge or the kingdom to the edge is part of it.
    _, labels = cv2.connectedComponents((soft_foreground(colour) > SURE_FOREGROUND).astype(np.uint8))
    cut_back = np.unique(np.r_[labels[:2].ravel(), labels[-2:].ravel(), labels[:, :2].ravel(), labels[:, -2:].ravel(),
                               labels[unread > 0] if unread is not None else []]).astype(int)
    cut_back = cut_back[cut_back > 0]
    if not len(cut_back):
        return colour
    k = _opening_width(h, w)
    # The pieces' blurred rims too (the tile mask blurs the foreground before its bar).
    reaching = cv2.dilate(np.isin(labels, cut_back).astype(np.uint8), np.ones((3, 3), np.uint8), iterations=k)
    near = with_disc(outlined, cv2.MORPH_DILATE, NEAR_DETAIL * k | 1)
    out = colour.copy()
    out[(reaching > 0) & (near == 0)] = 0.0
    return out


def solid_detail(texture: np.ndarray, largest: float | None = None) -> np.ndarray:
    """Where the detail foreground outlines something solid (a tile's edges and print, holes filled), opened (uint8 0/1).

    A line of detail (a wedge's straight edge, a printed line) is no tile: it encloses nothing and the
    opening takes it away. The outline is closed first with the opening's disc: on a striped rug a tile's
    outline breaks where a stripe crosses it, encloses nothing, and the tile was cut away with the carpet's
    wedge beside it (tied_to_detail). largest: fill only the holes up to this many px (once the pitch is
    known, OUTLINE_HOLES squares): a carpet's wedge is outlined all round by its own edges too, and filled
    it joined the kingdom into a piece wider than seven squares.
    """
    outline = (texture > OUTLINE_DETAIL).astype(np.uint8)
    k = _opening_width(*texture.shape)
    outline = with_disc(outline, cv2.MORPH_CLOSE, k)
    return tile_mask(fill_holes(outline, largest).astype(np.float32))


def without_specks(work: np.ndarray, k: int | None = None) -> np.ndarray:
    """The image less its bright then its dark blobs narrower than the tile mask's opening disc.

    A table's own texture is made of blobs far under a square's size (a carpet's dots, a stone's
    speckles, a wood grain's lines); a tile is a square. A grey-level opening then closing with the
    disc the tile mask is opened with (OPEN_SHARE of the short side) leaves the table's ground there
    and a tile's print on it, at the border as inside, so the border's detail is the table's own, not
    its dots'.
    """
    k = max(3, _opening_width(*work.shape[:2]) if k is None else k)
    return with_disc(with_disc(work, cv2.MORPH_OPEN, k), cv2.MORPH_CLOSE, k)


def soft_foreground(fg: np.ndarray) -> np.ndarray:
    """A foreground blurred at sigma 1: what the tile mask thresholds and cells' shares are measured on."""
    return cv2.GaussianBlur(fg, (0, 0), 1.0)


def tile_mask(fg: np.ndarray, k: int | None = None) -> np.ndarray:
    """Pixels surely unlike the table, opened with a k px disc (default: OPEN_SHARE of the short side) (uint8 0/1)."""
    h, w = fg.shape
    mask = (soft_foreground(fg) > SURE_FOREGROUND).astype(np.uint8)
    k = _opening_width(h, w) if k is None else int(k) | 1
    return with_disc(mask, cv2.MORPH_OPEN, k)


def sure_tiles(fg: np.ndarray, pitch: float) -> np.ndarray:
    """The tile mask opened for a square of `pitch` px (SURE_OPEN of it, at least 5): where a cell is surely tile
    (a group's cells, mask_shares and a grid's squares, grid_tables, all judge their share on it)."""
    return tile_mask(fg, max(5, SURE_OPEN * pitch))


def _opening_width(h: int, w: int) -> int:
    """The tile mask's opening disc (px, odd): OPEN_SHARE of the short side, narrower than any square."""
    return int(OPEN_SHARE * min(h, w)) | 1


def fill_holes(mask: np.ndarray, largest: float | None = None) -> np.ndarray:
    """The mask with the holes it encloses filled (a house or a dark tree on a tile), those up to `largest` px
    only when given (an empty square the kingdom's tiles surround is a hole too, and stays one)."""
    out = mask.astype(np.uint8)  # a copy
    x, y, w, h = cv2.boundingRect(out)
    if w == 0:
        return out
    # Holes lie within the mask's bounding box: flooded from a ring round it, all else is reached as from afar.
    box = out[y:y + h, x:x + w]
    flood = np.pad(box, 1)
    cv2.floodFill(flood, np.zeros((h + 4, w + 4), np.uint8), (0, 0), 1)
    holes = (flood[1:-1, 1:-1] == 0).astype(np.uint8)
    if largest is not None:
        count, labels, stats, _ = cv2.connectedComponentsWithStats(holes)
        holes = np.isin(labels, [j for j in range(1, count) if stats[j, cv2.CC_STAT_AREA] <= largest]).astype(np.uint8)
    box |= holes
    return out


def turn(grey: np.ndarray, mask: np.ndarray) -> float:
    """The group's turn in degrees (-45, 45]: the peak of its strong edges' directions modulo 90.

    Only the tiles' edges say it: a mat's printed grid lines or a carpet's rows of dots between and
    around the tiles are long, straight and all one way, and they outvoted the tiles' own (a kingdom
    turned 10-23 degrees on a mat was laid at 0, the mat's). Those are marks narrower than the tile
    mask's opening disc, which `without_specks` takes away; a tile's edge is a step it keeps. So the
    pixels the two differ at (`table_marks`) are left out.
    """
    x, y, w, h = cv2.boundingRect(mask.astype(np.uint8))
    disc = _opening_width(*grey.shape[:2])
    pad = 2 * disc  # everything is measured round the group alone (cheaper), as in the whole image
    box = (slice(max(0, y - pad), y + h + pad), slice(max(0, x - pad), x + w + pad))
    grey = grey[box]
    gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3)
    mag = cv2.magnitude(gx, gy)
    inside = mask[box].astype(bool)
    clean = inside & ~table_marks(grey, disc)
    inside = clean if clean.any() else inside
    strong = inside & (mag > np.percentile(mag[inside], 70))
    angle = np.degrees(np.arctan2(gy[strong], gx[strong])) % 90.0
    hist = np.bincount((angle * 2).astype(int) % 180, weights=mag[strong], minlength=180)
    kernel = np.array([1, 4, 6, 4, 1], float) / 16
    hist = np.convolve(np.r_[hist[-2:], hist, hist[:2]], kernel, "valid")  # circular
    peak = int(np.argmax(hist))
    a, b, c = hist[peak - 1], hist[peak], hist[(peak + 1) % 180]
    den = a - 2 * b + c
    theta = ((peak + (np.clip(0.5 * (a - c) / den, -0.5, 0.5) if den < 0 else 0.0)) / 2.0) % 90.0
    return theta - 90 if theta > 45 else theta


#: Grey levels by which a pixel must differ from the image without specks to be a table's mark (a mat's
#: printed line, a carpet's dot), not a tile's: JPEG noise and soft print stay well under it.
MARK_CONTRAST = 25


def table_marks(grey: np.ndarray, k: int | None = None) -> np.ndarray:
    """Where the grey image has thin marks `without_specks` takes away (lines, dots), grown by a pixel (bool).

    A tile's edge is a step between two wide regions and stays; a mark narrower than the tile mask's
    opening disc is gone, and so are the gradients at its two sides (hence the pixel of growth).
    k: the disc's width (default: the tile mask's for an image of this size; give the whole image's for a part).
    """
    plain = without_specks(grey, k)
    marks = (cv2.absdiff(grey, plain) > MARK_CONTRAST).astype(np.uint8)
    return cv2.dilate(marks, np.ones((3, 3), np.uint8)) > 0


def _autocorrelation(g: np.ndarray) -> np.ndarray:
    """Autocorrelation along each row, summed over the rows, normalised to 1 at lag 0."""
    g = g - g.mean(axis=1, keepdims=True)
    n = g.shape[1]
    f = np.fft.rfft(g, 2 * n, axis=1)
    # The rows' power spectra summed, then one inverse transform: the transform is linear, so this is the sum
    # of the rows' autocorrelations, without an inverse transform per row.
    ac = np.fft.irfft((f.real ** 2 + f.imag ** 2).sum(axis=0))[:n]
    return ac / max(float(ac[0]), 1e-9)


def pitch_of(gx: np.ndarray, gy: np.ndarray, band: np.ndarray, width: float, height: float,
             area: float = 0.0) -> float | None:
    """Pixels per square from the edges' autocorrelation (rows and columns), within what the box allows.

    width, height: the largest piece of tiles' sides (a kingdom, or a domino of
    one laid loosely): at most 7 squares across it, at least one. area: all
    the pieces' pixels, at most 49 squares and a few strays: a wood grain's or
    a print's period is not a square.
    """
    return pitches_of(gx, gy, band, [(width, height)], area)[0]


def pitches_of(gx: np.ndarray, gy: np.ndarray, band: np.ndarray, sides, area: float = 0.0,
               across: bool = False) -> list:
    """pitch_of within each (width, height) of `sides`, from one autocorrelation (the costly part); with
    `across`, each a pair: that and the pitch of the columns' spacing across the photo alone (gx's).

    Rows (for gx) and columns (for gy) the band misses are all zero and add nothing to the sums: only
    those it crosses are transformed (a kingdom in half the photo's height costs half).
    """
    rows, cols = np.nonzero(band.any(axis=1))[0], np.nonzero(band.any(axis=0))[0]
    if not len(rows):
        return [(None, None) if across else None] * len(sides)
    acx = _autocorrelation(gx[rows[0]:rows[-1] + 1] * band[rows[0]:rows[-1] + 1])
    acy = _autocorrelation((gy[:, cols[0]:cols[-1] + 1] * band[:, cols[0]:cols[-1] + 1]).T)
    n = min(len(acx), len(acy))
    ac = acx[:n] + acy[:n]
    if across:
        return [(_period(ac, width, height, area), _period(acx[:n], width, height, area)) for width, height in sides]
    return [_period(ac, width, height, area) for width, height in sides]


def _period(ac: np.ndarray, width: float, height: float, area: float) -> float | None:
    """The autocorrelation's most prominent peak within the box's bounds for a piece of these sides (pitch_of)."""
    n = len(ac)
    lo = int(max(width / (MAX_EXTENT + SPAN_SLACK), height / (MAX_EXTENT + SPAN_SLACK), np.sqrt(area / (MAX_EXTENT**2 + 12)),
                 MIN_PITCH))
    hi = min(int(min(width, height) / 0.85), n - 2)  # at least one square
    if hi <= lo + 2:
        return None
    # A period is a peak, not the search range's end: edges' autocorrelation falls from lag 0 through the
    # print's and the table's fine texture (a cloth's weave, a carpet's dots), and where the box's bounds
    # cut that slope its highest point is the bound itself (a 2x2 kingdom read at a quarter of its pitch).
    # And a period is a positive peak: photographed from a chair, a kingdom's near squares are larger than its
    # far ones, the side's peak smears into small ones, and a bump in the negative tail (the table between
    # tiles) stood out more: no pitch, no kingdom (eval_loose --close --tilt 25 --seed 629: 4 of 100 scenes).
    lags = np.arange(max(lo, 1), hi)
    peaks = _peaks_at(ac, lags)
    peaks = peaks[ac[peaks] > 0]
    proud = prominence(ac, peaks)
    k = int(peaks[np.argmax(proud)]) if len(peaks) else lo + int(np.argmax(ac[lo:hi]))
    if ac[k] <= 0:
        return None
    # Photographed from a chair, a kingdom's seams drift a little from square to square and its pitch's
    # peak smears, while every second seam still lines up: the peak at two squares can stand prouder (a 7x7
    # read 4x4 and a 5x5 2x2 at twice their pitch, eval_loose --close --tilt 25 --seed 629).
    # A higher peak near half that lag, standing at least half as proud, is the square.
    if len(peaks):
        half = (np.abs(peaks - k / 2) <= SUBHARMONIC_SLACK * k) & (ac[peaks] > ac[k]) \
            & (proud >= SUBHARMONIC_PROUD * proud.max())
        if half.any():
            k = int(peaks[half][np.argmax(ac[peaks[half]])])
    return _refined_peak(ac, k)


def _peaks_at(ac: np.ndarray, lags: np.ndarray) -> np.ndarray:
    """Those of the lags (none the first or last of ac) where the autocorrelation peaks: above the lag before,
    at least the one after."""
    return lags[(ac[lags] > ac[lags - 1]) & (ac[lags] >= ac[lags + 1])]


def _refined_peak(ac: np.ndarray, k: int) -> float:
    """Lag k of a peak, to a fraction of a pixel: the top of the parabola through it and its neighbours."""
    a, b, c = ac[k - 1], ac[k], ac[k + 1]
    den = a - 2 * b + c
    return float(k + (np.clip(0.5 * (a - c) / den, -0.5, 0.5) if den < 0 else 0.0))


def prominence(ac: np.ndarray, peaks: np.ndarray) -> np.ndarray:
    """How far each peak of the autocorrelation stands above the slopes round it: its height over the higher
    of the lowest points between it and a higher value on either side (or the end). A tile's side is the
    peak that rises from a trough; the highest peak in the box's bounds was taken before, and on a kingdom
    photographed close (a castle and a domino, 110 px a square in the 800 px image) that was a ripple on the
    slope falling from lag 0 at a third of a square: a 2x2 kingdom read 6x6 (`eval_loose.py --close
    --dominoes 1-3 --seed 605`: 4 extents of 60 wrong).

    A trough below zero counts as zero: a period is a likeness of the edges a lag apart, and a peak
    that barely rises above none is no period, however deep the unlikeness round it (the table between
    tiles). Measured from its trough, a peak of 0.005 at twice the square stood five times prouder than
    the square's own peak of 0.13 and a 5x4 kingdom on wood was read 2x2 at double its pitch
    (`eval_loose.py --close --tilt 25 --seed 636 --holdout` scene 20).

    >>> ac = np.array([1.0, 0.7, 0.5, 0.52, 0.3, 0.1, 0.0, 0.2, 0.45, 0.3, 0.1])
    >>> prominence(ac, np.array([3, 8])).round(2).tolist()  # a ripple on the slope, a period's peak
    [0.02, 0.35]
    >>> ac = np.array([1.0, 0.5, 0.3, 0.4, 0.1, -0.3, -0.2, 0.02, -0.2])
    >>> prominence(ac, np.array([3, 7])).round(2).tolist()  # the square, a bump barely above zero
    [0.1, 0.02]
    """
    out = np.empty(len(peaks))
    for i, k in enumerate(peaks):
        higher_left = np.nonzero(ac[:k] > ac[k])[0]
        left = ac[higher_left[-1] if len(higher_left) else 0:k + 1].min()
        higher_right = k + 1 + np.nonzero(ac[k + 1:] > ac[k])[0]
        right = ac[k:higher_right[0] + 1 if len(higher_right) else len(ac)].min()
        out[i] = ac[k] - max(left, right, 0.0)
    return out


def _bounds(cells) -> tuple[int, int, int, int]:
    """(first row, last row, first column, last column) of (row, col) cells."""
    rows, cols = [k[0] for k in cells], [k[1] for k in cells]
    return min(rows), max(rows), min(cols), max(cols)


def maybe_beside(share: dict, closed: dict, tiles: list) -> list:
    """The cells in the mask's middle band that the detail outlines all round (`closed`: their share of
    solid_detail, at least TILE_SHARE), reached from the surely-tile ones through such cells, side by side,
    as far as the frame the sure tiles imply allows: the reader says whether each is a tile.

    Kingdoms are laid tile against tile. A dark tile on a dark dotted carpet (a forest, a mine, the castle)
    is unlike the table (its soft foreground is high) yet outside the sure mask: the opening that takes the
    dots away takes its print's detail too, and only its outline stays. Inside the sure tiles' extent such a
    square is the reader's call; just outside it, it was dropped and the kingdom lost a row or a column.
    A tile is a square edged all round: table beside a tile (its blurred rim, a carpet's dots) shows one
    side at most, and the reader, asked about it, made strays and table into castles. A square in doubt
    never makes a 5x5 game's kingdom a 7x7 one (more than 5 squares either way).

    >>> share = {(0, 0): 1.0, (0, 1): 0.4, (0, 2): 0.4, (1, 0): 0.4, (0, 3): 0.0}
    >>> maybe_beside(share, {(0, 1): 0.9, (0, 2): 0.8, (1, 0): 0.1}, [(0, 0)])
    [(0, 1), (0, 2)]
    """
    r0, r1, c0, c1 = _bounds(tiles)
    frame = 5 if max(r1 - r0, c1 - c0) < 5 else MAX_EXTENT
    seen, todo, grown = set(tiles), list(tiles), []
    while todo:
        r, c = todo.pop(0)
        for cell in sides_of((r, c)):
            if cell in seen or not TABLE_SHARE < share.get(cell, 0.0) < TILE_SHARE or closed.get(cell, 0.0) < TILE_SHARE:
                continue
            seen.add(cell)
            b = _bounds([*tiles, *grown, cell])
            if max(b[1] - b[0], b[3] - b[2]) < frame:
                grown.append(cell)
                todo.append(cell)
    return grown


def _box_sums(integral: np.ndarray, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """Sums over the cells between consecutive xs and ys (an integral image, clipped to it): (..., rows, cols).

    Leading axes of xs and ys broadcast, so many lattices are summed at once (see _coarse_lattice).
    """
    xi = np.clip(np.round(xs).astype(int), 0, integral.shape[1] - 1)[..., None, :]
    yi = np.clip(np.round(ys).astype(int), 0, integral.shape[0] - 1)[..., :, None]
    at = integral[yi, xi]  # (..., row line, column line)
    return at[..., 1:, 1:] - at[..., :-1, 1:] - at[..., 1:, :-1] + at[..., :-1, :-1]


def lab_edges(lab: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(gx, gy) float32: the edge strength of a Lab image across x and across y, |Sobel| summed over its
    three channels and blurred at sigma 1 (what tile sides and seams are fitted on: SideEnergy)."""
    def across(dx: int, dy: int) -> np.ndarray:
        # On a uint8 image (both callers pass uint8 Lab) Sobel gives whole numbers of at most 4 x 255 a channel:
        # in int16 they and their three-channel sums are exact, the same numbers float32 held, at half the
        # memory to write and read (lab_edges twice as fast on a squared frame: 7 ms against 14-25 ms). The
        # channels are added one by one: several times faster than .sum(axis=2) (numpy's slow path).
        g = np.abs(cv2.Sobel(lab, cv2.CV_16S, dx, dy, ksize=3))
        return cv2.GaussianBlur((g[..., 0] + g[..., 1] + g[..., 2]).astype(np.float32), (0, 0), 1.0)

    return across(1, 0), across(0, 1)


def seams_widened(gx: np.ndarray, gy: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """lab_edges' (gx, gy) widened a pixel either way across their edges: a seam within a pixel of a
    rectangle's side counts as on it (SideEnergy, _on_seams)."""
    return cv2.dilate(gx, np.ones((1, 3), np.uint8)), cv2.dilate(gy, np.ones((3, 1), np.uint8))


class SideEnergy:
    """Mean edge strength across the sides of axis-aligned rectangles, from running sums (vectorised)."""

    def __init__(self, gx: np.ndarray, gy: np.ndarray):
        gx, gy = seams_widened(gx, gy)
        self.h, self.w = gx.shape
        # Running sums from a row (column) of zeros, summed in place: no copy of the frame-sized sums.
        self.down = np.zeros((self.h + 1, self.w), np.float32)
        np.cumsum(gx, axis=0, out=self.down[1:])
        self.along = np.zeros((self.h, self.w + 1), np.float32)
        np.cumsum(gy, axis=1, out=self.along[:, 1:])

    def _vertical(self, x, y0, y1):
        xi = np.clip(np.round(x).astype(int), 0, self.w - 1)
        a = np.clip(np.round(y0).astype(int), 0, self.h)
        b = np.clip(np.round(y1).astype(int), 0, self.h)
        return (self.down[b, xi] - self.down[a, xi]) / np.maximum(b - a, 1)

    def _horizontal(self, y, x0, x1):
        yi = np.clip(np.round(y).astype(int), 0, self.h - 1)
        a = np.clip(np.round(x0).astype(int), 0, self.w)
        b = np.clip(np.round(x1).astype(int), 0, self.w)
        return (self.along[yi, b] - self.along[yi, a]) / np.maximum(b - a, 1)

    def rect(self, x, y, sw, sh):
        """Edge across the four sides (their central 60%: corners belong to the neighbours too)."""
        return (self._vertical(x, y + 0.2 * sh, y + 0.8 * sh) + self._vertical(x + sw, y + 0.2 * sh, y + 0.8 * sh)
                + self._horizontal(y, x + 0.2 * sw, x + 0.8 * sw) + self._horizontal(y + sh, x + 0.2 * sw, x + 0.8 * sw))

    def moves(self, x: np.ndarray, sw: np.ndarray, y: np.ndarray, sh: np.ndarray) -> np.ndarray:
        """rect over every (x, sw) with every (y, sh): x, sw (..., I, J), y, sh (K, L) -> (..., I, J, K, L).

        The same sums as rect over the broadcast grid, but each side's pixel rows and columns are rounded
        once per position along its own axis, not once per rectangle (fit_cell's many moves and sizes). And
        each side's mean is taken first for every span of it at every place it may stand within the moves'
        reach (a vertical side's row span at every column, a horizontal side's column span at every row),
        then picked per rectangle: the same numbers as summing pixel by pixel over the whole grid, about twice
        as fast with fit_cell's five sizes each way (0.65 -> 0.33 ms a cell), no faster with its one size (on
        bench_photo.py's hand-laid 12 MP photo, 29 -> 19 ms of a read's ~390 ms).
        """
        def pixels(v, n):
            return np.clip(np.round(v).astype(int), 0, n)

        xl, xr = pixels(x, self.w - 1), pixels(x + sw, self.w - 1)
        yt, yb = pixels(y, self.h - 1).ravel(), pixels(y + sh, self.h - 1).ravel()  # (K L)
        ya, yz = pixels(y + 0.2 * sh, self.h).ravel(), pixels(y + 0.8 * sh, self.h).ravel()
        xa, xz = pixels(x + 0.2 * sw, self.w), pixels(x + 0.8 * sw, self.w)
        c0, c1 = int(min(xl.min(), xa.min())), int(max(xr.max(), xz.max())) + 1  # the columns within reach
        # A vertical side's mean over each row span, at every column within reach: (columns, K L).
        down = (self.down[yz, c0:c1] - self.down[ya, c0:c1]) / np.maximum(yz - ya, 1)[:, None]
        down = np.ascontiguousarray(down.T)
        along_span = np.maximum(xz - xa, 1)

        def along(rows: np.ndarray) -> np.ndarray:  # a horizontal side's mean on these rows: (..., I, J, K L)
            sums = self.along[rows, c0:c1]
            return np.moveaxis((sums[:, xz - c0] - sums[:, xa - c0]) / along_span, 0, -1)

        e = down[xl - c0] + down[xr - c0] + along(yt) + along(yb)
        return e.reshape(*x.shape, *y.shape)


def fit_cell(energy: SideEnergy, cx: float, cy: float, sw: float, sh: float, reach: float,
             scales=(1.0,)) -> tuple[float, float, float, float]:
    """The square near centre (cx, cy), size sw x sh, whose sides lie on most edge: (cx, cy, sw, sh).

    Moves up to `reach` squares and sizes by `scales`; a move costs up to half
    the edge at the reach's end, so a square with little edge of its own (a
    lake) stays near its place rather than latching onto a printed detail.
    """
    p = 0.5 * (sw + sh)
    d = np.arange(-reach * p, reach * p + 1e-6, max(1.0, p / 40))
    s = np.asarray(scales, float)
    ws, hs = s * sw, s * sh
    # The rectangles' top-left corners per move and size along each axis: (moves, sizes).
    x0, y0 = (cx + d)[:, None] - ws / 2, (cy + d)[:, None] - hs / 2
    e = energy.moves(x0, np.broadcast_to(ws, x0.shape), y0, np.broadcast_to(hs, y0.shape))  # (dx, sw, dy, sh)
    e = e.transpose(0, 2, 1, 3)  # (dx, dy, sw, sh)
    e = e * (1.0 - 0.5 * (d[:, None, None, None] ** 2 + d[None, :, None, None] ** 2) / (reach * p) ** 2)
    i, k, j, m = np.unravel_index(int(np.argmax(e)), e.shape)
    return float(cx + d[i]), float(cy + d[k]), float(ws[j]), float(hs[m])


def find_loose(photo: Photo, working: Working | None = None) -> list[LooseKingdom]:
    """Every group of tiles in the photo fitted square by square, largest first.

    working: what localise made of this photo (Localisation.working), started from instead of made again.
    """
    return find_loose_or_uncut(photo, working)[0]


def find_loose_or_uncut(photo: Photo, working: Working | None = None) -> tuple[list[LooseKingdom], list[LooseKingdom]]:
    """find_loose's groups, and the groups found with the colour tied to detail when find_loose kept its first
    reading because a group of it is cut by the photo's edge ([] otherwise): the reader, which knows a tile
    from a carpet's band of dots, may see that the cut rests on table (app.pipeline.cut_by_table)."""
    if working is None:
        working = Working(*working_image(photo.image))
    to_original = working.factor * photo.scale
    groups, _, uncut = _groups_not_cut_by_table(working.image, working.foreground)
    return [g.scaled(to_original) for g in groups], [g.scaled(to_original) for g in uncut]


def mask_shares(photo: Photo, quads: dict, pitch: float) -> dict:
    """Each quad's (original photo pixels) share of tile as find_loose gives a cell it fitted there.

    The tile foreground find_loose settles on (tied to detail or not), the sure mask opened for a square of
    `pitch` (original pixels) and the central 80% of each quad: what the reader is told of a square when it
    lies exactly at that quad (benchmarks/eval_loose_reading.py --mask: the tile-or-table call apart from
    finding). The sure mask is not cut to one group's pieces here, as it is for a group found.
    """
    work, factor = working_image(photo.image)
    k = factor * photo.scale
    _, fg, _ = _groups_not_cut_by_table(work)
    p = pitch / k
    sure = fill_holes(_tile_pieces(sure_tiles(fg, p), p), HOLE_SQUARES * p * p).astype(np.float32)
    soft = soft_foreground(fg)
    return {key: _share_at(sure, soft, np.asarray(q, float) / k) for key, q in quads.items()}


def grid_tables(working: Working | None, grids: list[tuple[np.ndarray, int]]) -> list[frozenset[tuple[int, int]]]:
    """For each grid found whole, (corners TL, TR, BR, BL in working pixels, size): the squares (row, col) the
    tile foreground says are surely table.

    A grid laid over a kingdom laid by hand frames its empty squares too, and read alone a bare stone, table
    or cloth passed for a plain meadow, wheat field or lake (the reader knows the table only from the boards'
    crops). The tile path trusts the tile mask's verdict on such a square (cell_share under TABLE_SHARE:
    empty); a grid's squares get the same, only where the table is known: localise made a foreground (no
    tight crop) and the grid keeps clear of the photo's border strip, where the table's colours and detail
    are learnt. The tile foreground is made once for all the photo's grids (~20 ms).
    """
    known = [working is not None and working.foreground is not None and _clear_of_border(working, corners)
             for corners, _ in grids]
    if not any(known):
        return [frozenset() for _ in grids]
    fg = tile_foreground(working.image, working.foreground)
    soft = soft_foreground(fg)
    return [_table_squares(fg, soft, np.asarray(corners, float), size) if ok else frozenset()
            for (corners, size), ok in zip(grids, known)]


def _clear_of_border(working: Working, corners: np.ndarray) -> bool:
    """Whether the quad (working pixels) lies inside the photo clear of its border strip."""
    h, w = working.image.shape[:2]
    corners, strip = np.asarray(corners, float), _strip_width(h, w)
    return bool(corners.min() >= strip and (corners[:, 0] <= w - 1 - strip).all() and (corners[:, 1] <= h - 1 - strip).all())


def _table_squares(fg: np.ndarray, soft: np.ndarray, corners: np.ndarray, size: int) -> frozenset[tuple[int, int]]:
    """The grid's squares whose share of tile (cell_share, the sure mask opened for its square) is under
    TABLE_SHARE; soft: soft_foreground(fg), as the tile path measures it."""
    pitch = side_length(corners) / size
    sure = fill_holes(sure_tiles(fg, pitch), HOLE_SQUARES * pitch * pitch).astype(np.float32)
    lattice = np.float64([[[c, r], [c + 1, r], [c + 1, r + 1], [c, r + 1]] for r in range(size) for c in range(size)])
    quads = cv2.perspectiveTransform(lattice.reshape(1, -1, 2), board_homography(corners, size)).reshape(-1, 4, 2)
    return frozenset(divmod(i, size) for i, quad in enumerate(quads) if _share_at(sure, soft, quad) < TABLE_SHARE)


def _share_at(sure: np.ndarray, soft: np.ndarray, quad: np.ndarray) -> float:
    """cell_share of a quad (TL TR BR BL) from the sure mask (float 0/1) and the soft foreground over its centre."""
    return cell_share(_inner_mean(sure, quad), _inner_mean(soft, quad))


def _inner_mean(image: np.ndarray, quad: np.ndarray, px: int = 16) -> float:
    """The mean of a float image over the central 80% (each way) of a quad TL TR BR BL."""
    inner = np.float32(scaled_quad(quad, 0.8))
    hom = cv2.getPerspectiveTransform(inner, np.float32([[0, 0], [px, 0], [px, px], [0, px]]))
    return float(cv2.warpPerspective(image, hom, (px, px), flags=cv2.INTER_LINEAR).mean())


def cell_share(in_sure: float, in_fg: float) -> float:
    """A cell's share of tile from the sure mask's cover of its centre and the soft foreground's mean there.

    Surely tile only where the tile mask covers it; unlike the table but outside the mask (a dark house
    on a tile, glare): 0.4, for the reader to decide.
    """
    return in_sure if in_sure >= TILE_SHARE else (0.4 if in_fg >= MAYBE_TILE else min(in_sure, in_fg))


def _groups_not_cut_by_table(work: np.ndarray, made: np.ndarray | None = None) -> tuple[list[_Group], np.ndarray, list]:
    """The groups of tiles, the tile foreground they were found on, and the groups found again when a group
    cut by the photo's edge kept the first reading (else []); when one reaches the photo's edge or a
    sizeable piece reads as no kingdom, those found again with the colour tied to detail, if they hold a larger
    whole kingdom (or as large a one, where table joined to the first reading's largest group carried it to
    the edge).

    "Cut by the photo's edge" is a claim about tiles: on a carpet whose wedges and bands of dots the
    colour model takes for tiles, it is the table that carries the kingdom to the edge (tied_to_detail).
    Only then is the colour cut back: where the detail says nothing (a busy table, a tight crop whose
    border is tiles) the first reading stays. made: localise's foreground of `work`, when it made one.
    """
    colour = colour_foreground(work, made)
    texture = texture_foreground(without_specks(work), tiles=strays_across(work, colour))
    fg = np.maximum(texture, colour)
    groups, unread, outlined = _groups(work, fg, texture)
    # Nothing found at all is no answer either: a band of dots joined to the kingdom along the whole photo
    # set the pitch from the band's length, three squares and more, and no piece held a group at that pitch.
    if groups and not any(g.reaches for g in groups) and not unread.any():
        return groups, fg, []
    tied = np.maximum(texture, tied_to_detail(colour, solid_detail(texture) if outlined is None else outlined, unread))
    again, _, _ = _groups(work, tied, texture)
    # A group whose blob runs to the photo's edge though its tiles stop short of it (cut_sides) has table
    # joined to it: its squares are no measure the groups found again must beat, and a whole kingdom as
    # large as the first reading's others, found with the table cut back, is the better reading.
    # So is a group said to be cut whose tiles are all found again whole, no longer reaching the edge: a
    # kingdom photographed close lies within a square of the photo's edge, and a blotch of the table
    # joined it there (kscore then said "cut by the photo's bottom edge" of a kingdom wholly in the photo).
    table_joined = any(g.reaches and not g.touches for g in groups)
    measured = _most_squares([g for g in groups if g.touches or not g.reaches])
    found_again = _most_squares(again, whole=True)
    cut = any(g.touches and _most_squares([g]) == measured for g in groups)
    better = found_again > measured or ((table_joined or cut) and 0 < found_again == measured)
    if better:
        return again, tied, []
    return groups, fg, again if found_again and any(g.touches for g in groups) else []


def _most_squares(groups: list[_Group], whole: bool = False) -> int:
    """Tile squares of the largest group (`whole`: of those not reaching the photo's edge; 0 if none).

    The groups found again win only with a whole kingdom larger than any group of the first reading:
    in a tight crop every group reaches the edge, and a piece of the kingdom is no better reading.
    """
    return max((sum(t >= TILE_SHARE for t in g.tile.values()) for g in groups if not (whole and g.touches)), default=0)


@dataclass(frozen=True)
class _Group:
    cells: dict
    tile: dict
    extent: tuple[int, int]
    corners: np.ndarray
    pitch: float
    touches: list[str]  # the sides of the photo that cut its tiles (cut_sides)
    ring: dict
    reaches: bool = False  # its blob runs to the photo's edge (tiles or table joined to them)
    cut_by: tuple = ()  # its tile cells the claim that the photo's edge cuts it rests on (cut_claim)
    edge_met: tuple = ()  # where its blob meets the sides that cut it: (side, from, to) along them (cut_claim)

    def scaled(self, k: float) -> LooseKingdom:
        from kscore.vision.find.localise import _cut_text

        return LooseKingdom({p: q * k for p, q in self.cells.items()}, dict(self.tile), self.extent,
                            self.corners * k, self.pitch * k, bool(self.touches), _cut_text(self.touches),
                            {p: q * k for p, q in self.ring.items()}, self.cut_by,
                            tuple((side, lo * k, hi * k) for side, lo, hi in self.edge_met))


def _groups(work: np.ndarray, fg: np.ndarray, texture: np.ndarray | None = None) -> tuple[list[_Group], np.ndarray, np.ndarray | None]:
    """The groups of tiles in the working image whose tile foreground (tile_foreground, or tied to detail) is fg,
    the sizeable pieces of tiles no lattice read as one kingdom (uint8 0/1: wider than 7 squares, or no pitch),
    and where the detail foreground `texture` outlines something solid up to OUTLINE_HOLES squares
    (solid_detail; None without a texture or a pitch): tiles the mask lacks, and the squares in doubt beside the
    sure tiles (maybe_beside).

    A kingdom is at most 7x7 squares of one size: a piece the lattice cannot read as that holds table
    (a carpet's wedge or band of dots joined to the kingdom), as a group reaching the photo's edge may.
    The pitch is the photo's (pitches_of); from a chair, where the columns' alone says otherwise, the groups
    are found at both and judged by their seams (see below).
    """
    h, w = fg.shape
    mask = tile_mask(fg)
    unread = np.zeros((h, w), np.uint8)
    count, labels, stats, centres = cv2.connectedComponentsWithStats(mask)
    if count < 2:
        return [], unread, None
    grey = cv2.cvtColor(work, cv2.COLOR_BGR2GRAY)
    lab = cv2.cvtColor(work, cv2.COLOR_BGR2Lab)
    soft = soft_foreground(fg)
    largest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    if stats[largest, cv2.CC_STAT_AREA] < MIN_GROUP_SHARE * h * w:
        return [], unread, None
    # The pitch from every sizeable piece of tiles together (one table, one distance): a kingdom
    # laid loosely falls apart into dominoes here, and one domino alone shows too few seams.
    big = np.isin(labels, [j for j in range(1, count) if stats[j, cv2.CC_STAT_AREA] >= 0.25 * stats[largest, cv2.CC_STAT_AREA]])
    blob = fill_holes(big.astype(np.uint8))
    outline, _ = cv2.findContours((labels == largest).astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    (_, _), (a, b), _ = cv2.minAreaRect(max(outline, key=cv2.contourArea))
    centre = tuple(float(v) for v in centres[largest])
    # The bounds assume the largest piece is tiles; a carpet's band of dots or wedge joined to it makes its long
    # side longer than seven squares, the true side falls under the bound and twice it is taken. A period about
    # half that one, found when only the short side bounds it, is a seam inside every square at that pitch.
    (pitch, across), (half, _) = _fit_group(work, lab, grey, soft, blob, centre, None,
                                            pitch_only=[(a, b), (min(a, b),) * 2])
    both = pitch
    if pitch is not None and half is not None and HALF_PITCH[0] < half / pitch < HALF_PITCH[1]:
        pitch = half
    if pitch is None:
        return [], (labels == largest).astype(np.uint8), None
    side = domino_side(labels, stats)
    if side is not None and abs(pitch / side - 1) > DOMINO_AGREE:
        pitch = side
    found = _groups_at(work, lab, grey, soft, fg, texture, pitch)
    # From a chair every square is drawn shorter down the photo than across it, and each row smaller than the
    # one before: down the photo the edges' autocorrelation is a chirp whose peak smears and wanders, and
    # summed with the one across it moved the pitch by up to a fifth (a 4x5 read 3x3 at 1.17 times its pitch;
    # across, each row's squares are one size: within 5% of the truth in 34 of 40 scenes from a chair).
    # Where the two differ, the groups are found at both, and those at the across pitch kept where their
    # largest group's cells lie on stronger seams (_on_seams, by SEAMS_BETTER): taken alone, the across pitch
    # lost as many kingdoms as it won (a dotted carpet's mask losing a row at it), and judged by the tile
    # the groups cover it won no more (a larger pitch draws larger cells over the same tiles).
    if pitch == both and across is not None and AXIS_SPLIT[0] < abs(both / across - 1) <= AXIS_SPLIT[1]:
        again = _groups_at(work, lab, grey, soft, fg, texture, across)
        if again[0] and found[0]:
            photo = _Frame(np.eye(3), (w, h), lab, blob)
            if _on_seams(_largest(again[0]), photo) > SEAMS_BETTER * _on_seams(_largest(found[0]), photo):
                found = again
        elif again[0]:  # nothing found at the sum's pitch: any reading beats none
            found = again
    return found


def _largest(groups: list[_Group]) -> _Group:
    """The group with the most cells surely tile."""
    return max(groups, key=lambda g: _crisp(g)[0])


def _groups_at(work: np.ndarray, lab: np.ndarray, grey: np.ndarray, soft: np.ndarray, fg: np.ndarray,
               texture: np.ndarray | None, pitch: float) -> tuple[list[_Group], np.ndarray, np.ndarray | None]:
    """_groups once the pitch is known."""
    h, w = fg.shape
    unread = np.zeros((h, w), np.uint8)
    # Then the tiles again, opened in proportion to a square: a tile's worn or dark rim
    # (a mine, the castle) no longer splits a loosely laid kingdom into pieces.
    sure = sure_tiles(fg, pitch)  # a cell is surely tile only where this covers it
    mask = tile_mask(fg, max(5, PIECE_OPEN * pitch))
    # A tile's outline encloses a square or a domino; a carpet's wedge, outlined by its own edges, far more.
    outlined = None if texture is None else solid_detail(texture, OUTLINE_HOLES * pitch * pitch)
    if outlined is not None:
        mask = with_outlined_tiles(mask, outlined, pitch)
    # Pieces under half a square, and small ones not about as solid as a tile or a domino
    # (clusters of a carpet's dots that survived the opening), join nothing and are no tile.
    mask = _tile_pieces(mask, pitch)
    # The sure mask is judged by the pieces it lies in, not as pieces of its own: a forest's print falls
    # apart into spots under the stronger opening, and the castle joined to a few of them was a piece not
    # solid enough to keep, so no cell was surely tile and the kingdom (a castle and a domino) was lost.
    sure &= mask
    k = int(JOIN_GAP * pitch) | 1
    joined = with_disc(mask, cv2.MORPH_DILATE, k)
    count, labels, stats, centres = cv2.connectedComponentsWithStats(joined)
    out = []
    for j in [int(j) for j in np.argsort(-stats[:, cv2.CC_STAT_AREA]) if j != 0]:
        blob = fill_holes(((labels == j) & (mask > 0)).astype(np.uint8), HOLE_SQUARES * pitch * pitch)
        if blob.sum() < MIN_GROUP_SQUARES * pitch * pitch:
            continue
        region = cv2.dilate((labels == j).astype(np.uint8), np.ones((3, 3), np.uint8))
        group = _fit_group(work, lab, grey, soft, blob, tuple(float(v) for v in centres[j]), pitch,
                           sure=fill_holes(sure & region, HOLE_SQUARES * pitch * pitch), outlined=outlined)
        if group is not None:
            out.append(group)
        elif blob.sum() >= 2 * MIN_GROUP_SQUARES * pitch * pitch:
            unread |= blob
    return out, unread, outlined


def with_outlined_tiles(mask: np.ndarray, outlined: np.ndarray, pitch: float) -> np.ndarray:
    """The tile mask with the tiles the detail outlines (solid_detail) and it lacks or has in spots (uint8 0/1).

    A dark tile on a dark carpet (a forest, the flat castle) is outlined but outside the mask: the opening
    that takes the dots away takes its print too, and the row beyond it fell apart from the kingdom, a piece
    too small to keep. Where the opening leaves its print's lighter spots, the outline less the mask is
    holey, and opened it was lost as well: so the outline is also taken where it and the mask together are
    solid, within the mask's own closing (the rim of detail round a kingdom is outlined too, and taken it
    moved the kingdom's outline out and gained a row). Both open with a disc of OUTLINED_OPEN squares: the
    outlines' rims alone joined strays into kingdoms.

    >>> mask = np.zeros((60, 120), np.uint8); outlined = mask.copy()
    >>> outlined[10:50, 10:90] = 1            # a domino of 40 px squares, outlined
    >>> mask[12:48:6, 12:88:6] = 1            # the mask keeps its print's spots only
    >>> mask = cv2.dilate(mask, np.ones((3, 3), np.uint8))
    >>> int(with_outlined_tiles(mask, outlined, 40.0)[12:43, 12:86].min())  # between the spots too
    1
    >>> kingdom = np.zeros((60, 120), np.uint8); kingdom[10:50, 10:90] = 1   # a kingdom the mask has whole,
    >>> rim = cv2.dilate(kingdom, np.ones((9, 9), np.uint8))                 # outlined 4 px beyond its tiles
    >>> int((with_outlined_tiles(kingdom, rim, 40.0) != kingdom).sum())
    0
    """
    k = int(OUTLINED_OPEN * pitch) | 1
    lacking = with_disc(outlined & (1 - mask), cv2.MORPH_OPEN, k)
    spotted = with_disc(outlined | mask, cv2.MORPH_OPEN, k) & with_disc(mask, cv2.MORPH_CLOSE, k)
    return mask | lacking | spotted


def domino_side(labels: np.ndarray, stats: np.ndarray) -> float | None:
    """The square's side (px) that the lone dominoes among the tile mask's pieces show, their median (None: none).

    A domino is two squares: its outline's long side is two squares and its short side one, each plus the
    same rim (the mask's blur, a tile's shadow, what the opening trims), so their difference is a square's
    side whatever the rim. The edges' autocorrelation says a period, which a print's or a table's pattern can
    set (a 2x3 kingdom on a cloth read 3x5 at 0.6 of its square), and on a few tiles laid apart with gaps a
    few % short (a 3x4 kingdom read 4x5). A 3x5 block of tiles has the ratio of a domino but a rim of a
    whole square: no lone domino. A piece under two of the smallest squares read (MIN_GROUP_SHARE) is none
    either: clusters of a carpet's dots are domino-shaped too.

    >>> mask = np.zeros((200, 300), np.uint8); mask[50:112, 40:162] = 1; mask[20:180, 200:260] = 1
    >>> _, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
    >>> round(domino_side(labels, stats))
    60
    """
    sides = []
    for j in range(1, len(stats)):
        x, y, w, h = stats[j, :4]
        if stats[j, cv2.CC_STAT_AREA] < 2 * MIN_GROUP_SHARE * labels.size or \
                stats[j, cv2.CC_STAT_AREA] < 0.5 * DOMINO_FILL * min(w, h) ** 2:
            continue  # under two of the smallest squares read (a carpet's dots), or thin or hollow: no domino
        outline, _ = cv2.findContours((labels[y:y + h, x:x + w] == j).astype(np.uint8), cv2.RETR_EXTERNAL,
                                      cv2.CHAIN_APPROX_SIMPLE)
        (_, _), (a, b), _ = cv2.minAreaRect(max(outline, key=cv2.contourArea))
        a, b = sorted((a, b))
        side = b - a
        if (side > MIN_PITCH and stats[j, cv2.CC_STAT_AREA] >= DOMINO_FILL * a * b
                and DOMINO_RATIO[0] <= b / a <= DOMINO_RATIO[1] and DOMINO_RIM[0] <= a / side - 1 <= DOMINO_RIM[1]):
            sides.append(side)
    return float(np.median(sides)) if sides else None


def _tile_pieces(mask: np.ndarray, pitch: float) -> np.ndarray:
    """The mask less its pieces under half a square and its small ones (under 2.5 squares) less solid than a tile."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
    area = stats[:, cv2.CC_STAT_AREA]
    drop = [j for j in range(1, count) if area[j] < 0.5 * pitch * pitch
            or (area[j] < 2.5 * pitch * pitch and _solidity(labels == j) < PIECE_SOLIDITY)]
    out = mask.copy()
    out[np.isin(labels, drop)] = 0
    return out


def _solidity(piece: np.ndarray) -> float:
    """Area over convex hull area of a piece's outline (a square or a domino: ~0.95)."""
    contours, _ = cv2.findContours(piece.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return 0.0
    outline = max(contours, key=cv2.contourArea)
    return float(cv2.contourArea(outline) / max(cv2.contourArea(cv2.convexHull(outline)), 1.0))


def lattice_map(src: np.ndarray, dst: np.ndarray, p: float) -> np.ndarray | None:
    """Lattice (col, row) -> pixels through the cells' own fits, robust to the fits that latched onto print or table.

    Squares are square: a similarity (turn, one scale, shift) through the fits
    first (RANSAC), and a homography (the camera's perspective) through that
    one's inliers only, kept when it agrees with at least as many fits and
    still draws square-ish squares (a homography free on a few bad fits
    shears the whole kingdom).
    """
    if len(src) < 3:
        return None
    sim, inliers = cv2.estimateAffinePartial2D(src, dst, method=cv2.RANSAC, ransacReprojThreshold=SIM_REACH * p)
    if sim is None:
        return None
    best = np.vstack([sim, [0, 0, 1]])
    keep = inliers.ravel().astype(bool)
    if keep.sum() < 6:
        return best
    hom, _ = cv2.findHomography(src[keep], dst[keep], cv2.RANSAC, 0.15 * p)
    if hom is None or not _square_ish(hom, src):
        return best

    def agreeing(m):
        return np.linalg.norm(cv2.perspectiveTransform(src[None].astype(np.float64), m)[0] - dst, axis=1) < 0.15 * p

    # The similarity's inliers leave out the near and far rows a camera from a chair draws larger and smaller
    # than the middle ones, and a homography through them alone draws only part of the keystone (a 7x7 from
    # a chair at 30 degrees: near rows 1.45 times the far ones' height, drawn 1.25). Fitted again through
    # every fit it agrees with, while that takes in more of them, it draws the rest.
    for _ in range(LATTICE_REFITS):
        near = agreeing(hom)
        if near.sum() <= keep.sum():
            break
        again, _ = cv2.findHomography(src[near], dst[near], 0)
        if again is None or not _square_ish(again, src):
            break
        hom, keep = again, near
    return hom if agreeing(hom).sum() >= agreeing(best).sum() else best


#: Most times lattice_map fits its homography again through the fits it agrees with.
LATTICE_REFITS = 3


def _corner_squares(hom: np.ndarray, src: np.ndarray) -> list[tuple[float, float, float]]:
    """How the lattice map draws the corner squares of the fits' span: (width, height, |cosine| of the angle
    between them) of each, in pixels."""
    c0, r0 = np.floor(src.min(axis=0))
    c1, r1 = np.ceil(src.max(axis=0))
    drawn = []
    for c, r in ((c0, r0), (c1 - 1, r0), (c0, r1 - 1), (c1 - 1, r1 - 1)):
        q = cv2.perspectiveTransform(np.float64([[[c, r], [c + 1, r], [c, r + 1]]]), hom)[0]
        a, b = q[1] - q[0], q[2] - q[0]
        na, nb = float(np.linalg.norm(a)), float(np.linalg.norm(b))
        drawn.append((na, nb, abs(float(a @ b)) / max(na * nb, 1e-9)))
    return drawn


def _square_ish(hom: np.ndarray, src: np.ndarray) -> bool:
    """Whether the homography draws every corner cell of the fits' span as a near-square (sides, right angles)."""
    return all(0.75 < na / max(nb, 1e-9) < 1.33 and cos <= 0.2 for na, nb, cos in _corner_squares(hom, src))


def _coarse_lattice(blob_sums: np.ndarray, box: tuple, p: float):
    """The lattice of pitch p over the box (x0, x1, y0, y1) whose cells are most clearly all tile or all
    table: (its column lines, its row lines, each cell's share of tile), offsets tried all at once."""
    x0, x1, y0, y1 = box
    offsets = np.linspace(0, p, LATTICE_OFFSETS, endpoint=False)
    nx, ny = int(np.ceil((x1 - x0) / p)) + 2, int(np.ceil((y1 - y0) / p)) + 2
    xs = x0 - p + offsets[:, None] + p * np.arange(nx + 1)[None]  # (offset, line)
    ys = y0 - p + offsets[:, None] + p * np.arange(ny + 1)[None]
    cover = _box_sums(blob_sums, xs[None], ys[:, None]) / (p * p)  # (y offset, x offset, row, column)
    used = cover > 0.05
    crisp = np.where(used, np.abs(2 * cover - 1) - 0.5, 0.0).sum(axis=(2, 3))
    oy, ox = np.unravel_index(int(np.argmax(crisp)), crisp.shape)
    return xs[ox], ys[oy], cover[oy, ox], float(crisp[oy, ox])


def _lattice_at_pitch(blob_sums: np.ndarray, box: tuple, p: float):
    """The coarse lattice (see _coarse_lattice) at the pitch, among p's GAP_PITCHES, whose cells are most
    clearly all tile or all table, weighed by their area: (column lines, row lines, cover, pitch).

    p is a tile's side (the autocorrelation's peak: a tile's two sides lie exactly that far apart, the
    seams of dominoes laid by hand only about as far); the lattice's pitch is that and the gap between
    tiles. Laid short, a kingdom's far cells straddle its tiles and the table, and it gains a row
    (5 squares at 0.95 span 5.3); the fits of pass 1, pulled to their places, do not undo that.
    """
    best = None
    for k in GAP_PITCHES:
        xs, ys, cover, crisp = _coarse_lattice(blob_sums, box, p * k)
        if best is None or crisp * k * k > best[3]:
            best = (xs, ys, cover, crisp * k * k, p * k)
    return best[0], best[1], best[2], best[4]


def _lattice_pitch(hom: np.ndarray, src: np.ndarray) -> float:
    """The mean side of a square the lattice map draws at the middle of its fits' span, in pixels."""
    u, v = src.mean(axis=0)
    q = cv2.perspectiveTransform(np.float64([[[u, v], [u + 1, v], [u, v + 1]]]), hom)[0]
    return float(0.5 * (np.linalg.norm(q[1] - q[0]) + np.linalg.norm(q[2] - q[0])))


def _fit_group(work, lab, grey, soft, blob, centre, pitch, pitch_only: list | None = None, sure=None, outlined=None):
    """The group's LooseKingdom (None: no lattice reads it), or with pitch_only, a list of (width, height)
    bounds, only the photo's pitch within each and the columns' alone (pitches_of, across), nothing fitted.

    A group no lattice reads as it lies is fitted again flattened (keystone_flattening), if it is drawn from
    a chair: only then, because the halves' pitches of a kingdom laid by hand are noisy, and flattening every
    group that showed a keystone lost as many kingdoms read right before as it won (eval_loose.py --tilt 25).
    """
    theta = turn(grey, cv2.dilate(blob, np.ones((5, 5), np.uint8)))
    # Photo -> a frame where the lattice is upright, holding the group and what its fits may reach.
    rot, size = _upright_frame(blob, centre, theta, None if pitch is None else _frame_margin(pitch))
    frame = _Frame(np.vstack([rot, [0, 0, 1]]), size, lab, blob)
    group = _fit_group_in_frame(frame, soft, blob, pitch, pitch_only, sure, outlined)
    at = frame  # the frame the kept fit was made in: the squaring starts from its lattice
    # From a chair every square is drawn shorter along the tilt than across it (~10% at 25 degrees): a square
    # lattice laid over a 5x5 drifts a third of a square by its near row, the first fits follow it, and the
    # lattice through them looks square, so nothing squares it. Where the band's rows' and columns' pitches
    # show that (keystone_flattening, on groups FORESHORTENED_SPAN squares across), the group is fitted again
    # where they are one; kept where as crisp and with its cells' sides on more edge (_on_seams: kept on tile
    # counts alone, they lost two kingdoms found over eight sets), at another extent too, the square lattice over
    # rows drawn short spanning a row fewer (a 5x5 read 4x5, a 7x7 6x7; tests/test_keystone.py), if it leaves no
    # more cells in doubt either (a 5x5 gained a row cutting tiles across: tests/test_close_pitch.py).
    if group is not None and pitch is not None:
        stretch = keystone_flattening(frame.gx, frame.gy, frame.blob, pitch, FORESHORTENED_SPAN)
        if stretch is not None:
            stretched = _Frame(stretch[0] @ frame.rot, stretch[1], lab, blob)
            again = _fit_group_in_frame(stretched, soft, blob, pitch, None, sure, outlined)
            if again is not None:
                crisp, was = _crisp(again), _crisp(group)
                if (crisp >= was and (again.extent == group.extent or _no_worse(crisp, was))
                        and _on_seams(again, frame) > _on_seams(group, frame)):
                    group, at = again, stretched
    # From a chair the cells, upright rectangles in the frame, fit the near squares and slide off the far ones:
    # a group whose lattice is out of square is fitted again where it is square, until it is, while that keeps
    # its tiles whole. Its extent may change so only if the band's halves show it drawn from a chair
    # (keystone_flattening): a straight-down kingdom's noisy fits can draw its lattice as far out of square,
    # and refitted there it gained or lost a row (tests/test_domino_side.py, tests/test_false_grids.py).
    chair = None
    for _ in range(SQUARINGS if pitch is not None and group is not None else 0):
        squared = None if at.lattice is None else _lattice_squared(at, lab, blob, *at.lattice)
        refit = None if squared is None else _fit_group_in_frame(squared, soft, blob, pitch, None, sure, outlined)
        if refit is None or _crisp(refit) < _crisp(group):
            break
        if refit.extent != group.extent:
            if chair is None:  # looked for only here: most refits keep their extent
                chair = keystone_flattening(frame.gx, frame.gy, frame.blob, pitch) is not None
            if not chair:
                break
        group, at = refit, squared
    if group is None and pitch is not None:
        # From a chair, the near squares are larger than the far ones: a lattice of one pitch drifts half a
        # square over a 7x7 kingdom and indexes its near fits a column off. Where the frame's halves disagree
        # on the pitch, it is flattened (a keystone) first, and everything fitted there maps back through it.
        flat = keystone_flattening(frame.gx, frame.gy, frame.blob, pitch)
        if flat is not None:
            frame = _Frame(flat[0] @ frame.rot, flat[1], lab, blob)
            group = _fit_group_in_frame(frame, soft, blob, pitch, None, sure, outlined)
    return group


class _Frame:
    """A group's frame: the map of the photo to it (3x3: upright, flattened or not), its size, and the group's
    blob and Lab edges warped there."""

    def __init__(self, rot: np.ndarray, size: tuple[int, int], lab: np.ndarray, blob: np.ndarray):
        self.rot, self.size = rot, size
        self.lattice = None  # (lattice -> frame homography, its pitch, the first fits' lattice centres) once fitted
        self.blob = self.warp(blob)
        self.gx, self.gy = lab_edges(self.warp(lab, cv2.INTER_LINEAR, cv2.BORDER_REPLICATE))

    @functools.cached_property
    def seams(self) -> tuple[np.ndarray, np.ndarray]:
        """gx, gy widened across their edges (seams_widened), made once: _on_seams judges two fits here."""
        return seams_widened(self.gx, self.gy)

    def warp(self, image: np.ndarray, flags: int = cv2.INTER_NEAREST, border: int = cv2.BORDER_CONSTANT) -> np.ndarray:
        """The photo-sized image in this frame."""
        if self.rot[2, 0] == 0 and self.rot[2, 1] == 0:  # straight down: the upright frame's affine warp, as ever
            return cv2.warpAffine(image, self.rot[:2], self.size, flags=flags, borderMode=border)
        return cv2.warpPerspective(image, self.rot, self.size, flags=flags, borderMode=border)


def _fit_group_in_frame(frame: _Frame, soft, blob, pitch, pitch_only, sure, outlined):
    """_fit_group in one frame of the group (None where no lattice reads it there)."""
    rot, to_frame, rblob, gx, gy = frame.rot, frame.warp, frame.blob, frame.gx, frame.gy
    rsoft = to_frame(soft, cv2.INTER_LINEAR)
    x0, y0, bw, bh = cv2.boundingRect(rblob)  # a scan of the mask, where np.nonzero listed every pixel
    if not bw:
        return None if pitch_only is None else [(None, None)] * len(pitch_only)
    x1, y1 = x0 + bw, y0 + bh
    if pitch is None:
        band = cv2.dilate(rblob, np.ones((7, 7), np.uint8)).astype(np.float32)
        if pitch_only:
            return pitches_of(gx, gy, band, pitch_only, float(rblob.sum()), across=True)
        pitch = pitches_of(gx, gy, band, [(x1 - x0, y1 - y0)], float(rblob.sum()))[0]
        if pitch is None:
            return None
    # The masks are uint8 0/1: their running sums in int32 are the same whole numbers as in float64, made faster.
    blob_sums = cv2.integral(rblob)
    sure_sums = blob_sums if sure is None else cv2.integral(to_frame(sure))
    energy = SideEnergy(gx, gy)
    # The photo's pitch comes from its tiles' own sides (the autocorrelation's peak), a few % short of
    # the lattice's (a gap between tiles): laid at that pitch, a kingdom gains a row. So the lattice is
    # laid again at the pitch its own squares' fits say, when it differs.
    p = pitch
    for attempt in range(2):
        if attempt:
            gxs, gys, cover, _ = _coarse_lattice(blob_sums, (x0, x1, y0, y1), p)
        else:
            gxs, gys, cover, p = _lattice_at_pitch(blob_sums, (x0, x1, y0, y1), p)
        # Pass 1: each cell alone, any size near the pitch; a homography through them is the perspective.
        first = [(r, c) for r in range(len(gys) - 1) for c in range(len(gxs) - 1) if cover[r, c] >= 0.3]
        if not first:
            return None
        fits = [fit_cell(energy, gxs[c] + p / 2, gys[r] + p / 2, p, p, FIRST_REACH, FIRST_SCALES) for r, c in first]
        src = np.float32([[c + 0.5, r + 0.5] for r, c in first])
        dst = np.float32([[f[0], f[1]] for f in fits])
        hom = lattice_map(src, dst, p)
        if hom is None:
            hom = np.float64([[p, 0, gxs[0]], [0, p, gys[0]], [0, 0, 1]])
            break
        fitted = _lattice_pitch(hom, src)
        if attempt or abs(fitted / p - 1) <= REFIT_PITCH:
            break
        p = fitted

    frame.lattice = hom, p, src

    def at(u: float, v: float) -> np.ndarray:
        q = hom @ np.array([u, v, 1.0])
        return q[:2] / q[2]

    # Pass 2: each cell where the homography puts it, at its size there, moved to its own sides.
    tile_sums = cv2.integral(rsoft)
    outline_sums = None if outlined is None else cv2.integral(to_frame(outlined))
    cells, share, closed = {}, {}, {}
    for r in range(len(gys) - 1):
        for c in range(len(gxs) - 1):
            if cover[r, c] < 0.05:
                continue
            centre_rc = at(c + 0.5, r + 0.5)
            sw = float(np.linalg.norm(at(c + 1, r + 0.5) - at(c, r + 0.5)))
            sh = float(np.linalg.norm(at(c + 0.5, r + 1) - at(c + 0.5, r)))
            cx, cy, sw, sh = fit_cell(energy, centre_rc[0], centre_rc[1], sw, sh, SECOND_REACH)
            xa, ya = cx - sw / 2, cy - sh / 2
            inner_x, inner_y = np.array([xa + 0.1 * sw, xa + 0.9 * sw]), np.array([ya + 0.1 * sh, ya + 0.9 * sh])
            area = 0.64 * sw * sh
            in_blob = float(_box_sums(sure_sums, inner_x, inner_y)[0, 0]) / area
            in_fg = float(_box_sums(tile_sums, inner_x, inner_y)[0, 0]) / area
            cells[(r, c)] = np.array([[xa, ya], [xa + sw, ya], [xa + sw, ya + sh], [xa, ya + sh]])
            share[(r, c)] = cell_share(in_blob, in_fg)
            if outline_sums is not None:
                closed[(r, c)] = float(_box_sums(outline_sums, inner_x, inner_y)[0, 0]) / area
    tiles = [k for k, t in share.items() if t >= TILE_SHARE]
    if not tiles:
        return None
    r0, r1, c0, c1 = _bounds(tiles)
    extent = (r1 - r0 + 1, c1 - c0 + 1)
    if max(extent) > MAX_EXTENT:
        return None  # not one kingdom (or a pitch misread)
    r0, r1, c0, c1 = _bounds(tiles + maybe_beside(share, closed, tiles))
    extent = (r1 - r0 + 1, c1 - c0 + 1)
    back = np.linalg.inv(rot)
    unrotate = lambda pts: cv2.perspectiveTransform(np.asarray(pts, np.float64)[None], back)[0]  # noqa: E731
    out_cells, out_share = {}, {}
    for r in range(r0, r1 + 1):
        for c in range(c0, c1 + 1):
            if (r, c) in cells:
                quad, t = cells[(r, c)], share[(r, c)]
            else:  # a cell the blob never reached: table, where the lattice puts it
                quad, t = np.array([at(c, r), at(c + 1, r), at(c + 1, r + 1), at(c, r + 1)]), 0.0
            out_cells[(r - r0, c - c0)] = unrotate(quad)
            out_share[(r - r0, c - c0)] = t
    ring = {}
    for r, c in tiles:
        for rr, cc in sides_of((r, c)):
            if not (r0 <= rr <= r1 and c0 <= cc <= c1):
                ring[(rr - r0, cc - c0)] = unrotate([at(cc, rr), at(cc + 1, rr), at(cc + 1, rr + 1), at(cc, rr + 1)])
    corners = unrotate([at(c0, r0), at(c1 + 1, r0), at(c1 + 1, r1 + 1), at(c0, r1 + 1)])
    touches, cut_by, edge_met = cut_claim(blob, {k: out_cells[k] for k, t in out_share.items() if t >= TILE_SHARE}, p)
    reaches = any(strip.any() for strip in _edge_strips(blob).values())
    return _Group(out_cells, out_share, extent, corners, float(p), touches, ring, reaches, cut_by, edge_met)


def _pitch_near(ac: np.ndarray, p: float, rival: float = 1.0, low: float = 0.8, high: float = 1.25) -> float | None:
    """The autocorrelation's one clear peak between low and high times p, to a fraction of a pixel
    (_refined_peak); None where the highest point is the window's end, not above zero, or has
    a rival (another peak in the window at least `rival` times its height: rows or columns laid by hand at
    different offsets smear a square's period into several).

    >>> ac = np.array([1.0, 0.6, 0.2, 0.0, 0.1, 0.3, 0.5, 0.3, 0.1, 0.0, 0.0, 0.0])
    >>> _pitch_near(ac, 6.0)
    6.0
    """
    a, b = int(np.floor(low * p)), min(int(np.ceil(high * p)), len(ac) - 2)
    if b <= a + 1:
        return None
    lags = np.arange(a + 1, b)
    peaks = _peaks_at(ac, lags)
    if not len(peaks):
        return None
    k = int(peaks[np.argmax(ac[peaks])])
    if ac[k] <= 0 or np.sum(ac[peaks] >= rival * ac[k]) > 1:
        return None
    return _refined_peak(ac, k)


def _halves_pitch(g: np.ndarray, band: np.ndarray, p: float) -> tuple[float, float, float, float] | None:
    """Along the rows of g (edges across x): the pitch near p in the band's first and second halves of rows and
    each half's centre row (weighted by the band): (first pitch, second pitch, first centre, second centre)."""
    weight = band.sum(axis=1)
    rows = np.nonzero(weight)[0]
    if not len(rows):
        return None
    y0, y1 = int(rows[0]), int(rows[-1]) + 1
    ym = (y0 + y1) // 2
    out = []
    for a, b in ((y0, ym), (ym, y1)):
        if b - a < p:
            return None
        pitch = _pitch_near(_autocorrelation(g[a:b] * band[a:b]), p, RIVAL_PEAK)
        if pitch is None:
            return None
        out.append((pitch, float(np.average(np.arange(a, b), weights=weight[a:b] + 1e-9))))
    return out[0][0], out[1][0], out[0][1], out[1][1]


def _scale_slope(halves: tuple[float, float, float, float], centre: float) -> float:
    """g in 1 / (1 + g t): how a square's size falls along an axis t (pixels from centre), through the two
    halves' pitches at their centres (_halves_pitch).

    >>> round(_scale_slope((40.0, 44.0, -50.0, 50.0), 0.0), 6)  # larger toward the second half
    -0.000952
    """
    first, second, t1, t2 = halves
    r = second / first
    d1, d2 = t1 - centre, t2 - centre
    return (1 - r) / (r * d2 - d1)


def _on_seams(group, frame: _Frame) -> float:
    """The mean edge strength along the sides of a group's tile cells, in `frame`: cells on their tiles have
    their sides on the tiles' sides."""
    quads = np.array([q for k, q in group.cells.items() if group.tile[k] >= TILE_SHARE])
    if not len(quads):
        return 0.0
    q = cv2.perspectiveTransform(quads.reshape(1, -1, 2).astype(np.float64), frame.rot).reshape(-1, 4, 2)
    gx, gy = frame.seams
    h, w = gx.shape
    t = np.linspace(0.1, 0.9, 9)[None, :, None]
    strength = []
    for a, b, g in ((0, 1, gy), (1, 2, gx), (2, 3, gy), (3, 0, gx)):  # top, right, bottom, left
        pts = np.round(q[:, a, None] + (q[:, b, None] - q[:, a, None]) * t).astype(int)
        strength.append(g[np.clip(pts[..., 1], 0, h - 1), np.clip(pts[..., 0], 0, w - 1)])
    return float(np.mean(strength))


def _crisp(group) -> tuple[int, int]:
    """A group's cells surely tile, and less those the mask left in doubt: a lattice on its tiles finds
    them whole and cuts few astride tile and table."""
    shares = list(group.tile.values())
    return sum(t >= TILE_SHARE for t in shares), -sum(TABLE_SHARE < t < TILE_SHARE for t in shares)


def _no_worse(crisp: tuple[int, int], than: tuple[int, int]) -> bool:
    """Whether a fit's _crisp is at least another's on both counts: as many cells surely tile, as few in doubt.

    >>> _no_worse((13, -10), (12, -7)), _no_worse((19, 0), (19, 0))
    (False, True)
    """
    return crisp[0] >= than[0] and crisp[1] >= than[1]


#: How far from square (side relative to the middle square's, cosine of the corner) a square the lattice map
#: draws at a corner of its fits' span may be before the group is fitted again in a frame where the lattice is square (_lattice_squared).
SQUARED_SIDE = 0.04
SQUARED_ANGLE = 0.05
#: Most times a group is fitted again in a frame squared by its last lattice (each squares what the last left).
SQUARINGS = 3


def _lattice_squared(frame, lab, blob, hom, p, src):
    """The group's frame warped so the lattice fitted in `frame` (hom: lattice -> frame, of pitch p, through
    fits at lattice places src) is upright and square there, at pitch p: None when it already is (every corner
    square of its fits' span within SQUARED_SIDE of the middle one's side and SQUARED_ANGLE of a right angle),
    or the frame could not hold it.

    From a chair the squares are trapezoids and the rows' and columns' pitch change across the kingdom; the
    cells are fitted as upright rectangles in the frame, so there they fit the near squares and slide off the
    far ones (a third of a square on a 7x7's far rows, `eval_loose.py --holdout --close --tilt 25 --seed 629`
    scene 0). Fitted again where the first lattice is square, the cells meet their tiles' sides.
    """
    middle = _lattice_pitch(hom, src)  # a similarity draws every square so: square, however its pitch came out
    if all(max(abs(na / middle - 1), abs(nb / middle - 1)) <= SQUARED_SIDE and cos <= SQUARED_ANGLE
           for na, nb, cos in _corner_squares(hom, src)):
        return None
    to_lattice = np.linalg.inv(hom)
    x, y, bw, bh = cv2.boundingRect(frame.blob)
    box = np.float64([[x, y], [x + bw, y], [x + bw, y + bh], [x, y + bh]])
    w = (to_lattice @ np.c_[box, np.ones(4)].T)[2]
    if (w <= 0).any():
        return None  # the blob reaches past the lattice's horizon: no such camera
    uv = cv2.perspectiveTransform(box[None], to_lattice)[0]
    margin = _frame_margin(p)
    lo, hi = uv.min(axis=0), uv.max(axis=0)
    size = (int(np.ceil(p * (hi[0] - lo[0]))) + 2 * margin, int(np.ceil(p * (hi[1] - lo[1]))) + 2 * margin)
    if size[0] * size[1] > 4 * frame.size[0] * frame.size[1]:
        return None
    scale = np.array([[p, 0, margin - p * lo[0]], [0, p, margin - p * lo[1]], [0, 0, 1.0]])
    return _Frame(scale @ to_lattice @ frame.rot, size, lab, blob)


def keystone_flattening(gx: np.ndarray, gy: np.ndarray, band: np.ndarray, p: float, span: float = KEYSTONE_SPAN):
    """(homography, (width, height)): a map of the upright frame to one where the squares are square and one
    size (p at the group's centre), and the frame it needs; None where they already are, within KEYSTONE_MIN
    (photographed straight down: nothing changes), or too few squares show it.

    A camera tilted off straight down draws a square's width as 1 / (1 + g . x) of its size at x = 0 (the
    group's centre), and its side along the tilt shorter than across it: the rows' pitch in the band's top
    and bottom halves gives g across y, the columns' pitch in its left and right halves g across x, and the
    rows' and the columns' pitch over the whole band how far from square the squares are drawn. The map is
    that projection's inverse about the centre, then each axis scaled to p.

    span: the fewest squares the band must span both ways; under KEYSTONE_SPAN only the foreshortening is
    measured (the halves' pitches of a smaller group are too noisy to give the perspective).
    """
    ys, xs = np.nonzero(band)
    least = min(np.ptp(xs), np.ptp(ys)) if len(xs) else 0  # the band's narrower side, in pixels (none: 0)
    if least < span * p:
        return None
    across, along = (_pitch_near(_autocorrelation(g), p) for g in (gx * band, (gy * band).T))
    wide = least >= KEYSTONE_SPAN * p
    rows = _halves_pitch(gx, band, p) if wide else None
    cols = _halves_pitch(gy.T, band.T, p) if wide else None
    cx, cy = float(xs.mean()), float(ys.mean())
    offsets = np.stack([xs - cx, ys - cy], axis=1)  # the band's pixels from its centre
    # An axis whose halves show no clear pitch is taken as flat, a side with no pitch as p: wrong only as much
    # as the lattice was before.
    g = np.array([0.0 if cols is None else _scale_slope(cols, cx), 0.0 if rows is None else _scale_slope(rows, cy)])
    # Nor can a slope be trusted past what a camera from a chair draws (a 7x7's far squares ~15% smaller
    # than its near ones): that is the halves' pitches wrong, not the camera.
    g[np.abs(g) * np.array([np.ptp(xs), np.ptp(ys)]) / 2 > KEYSTONE_MAX] = 0.0
    blob_reach = np.abs(offsets @ g).max()  # the most a square in the band changes size
    if blob_reach > KEYSTONE_MAX:
        g[:], blob_reach = 0.0, 0.0
    scale = np.array([p / (across or p), p / (along or p)])
    h, w = band.shape
    corners = np.float64([[0, 0], [w, 0], [w, h], [0, h]])
    reach = np.abs((corners - (cx, cy)) @ g).max()
    if max(blob_reach, *np.abs(scale - 1)) < KEYSTONE_MIN or reach > 0.5:
        return None
    flat = np.array([[scale[0], 0, 0], [0, scale[1], 0], [0, 0, 1.0]]) @ np.array(
        [[1, 0, -cx], [0, 1, -cy], [-g[0], -g[1], 1 + g[0] * cx + g[1] * cy]])
    moved = cv2.perspectiveTransform(corners[None], flat)[0]
    lo, hi = np.floor(moved.min(axis=0)), np.ceil(moved.max(axis=0))
    shift = np.array([[1, 0, -lo[0]], [0, 1, -lo[1]], [0, 0, 1.0]])
    return shift @ flat, (int(hi[0] - lo[0]), int(hi[1] - lo[1]))


def _frame_margin(pitch: float) -> int:
    """Pixels of the upright frame kept round a group's blob (_upright_frame) for its cells: two squares (a
    cell a twentieth on the blob, moved and grown by its fit, and the edge sums' reach)."""
    return int(2 * pitch) + 8


def _upright_frame(blob: np.ndarray, centre: tuple[float, float], theta: float,
                   margin: int | None) -> tuple[np.ndarray, tuple[int, int]]:
    """The affine map from the photo to the group's upright frame (turned by theta about centre) and that
    frame's (width, height): the photo's own size turned, cut to the blob's box there and `margin` round it.

    Fitting in the whole turned photo cost the same for a stray domino as for the kingdom; cut, the edge
    sums and running sums cover only what the group's fits look at, and the fits are the same (to a hundredth
    of a pixel, the warp's rounding). The photo's pitch is still measured on the whole frame (margin None):
    its autocorrelation's rows are centred on their mean over the frame's width, which a cut would change.
    """
    h, w = blob.shape
    rot = cv2.getRotationMatrix2D(centre, theta, 1.0)
    if margin is None:
        return rot, (w, h)
    x, y, bw, bh = cv2.boundingRect(blob)
    turned = np.float64([[x, y], [x + bw, y], [x + bw, y + bh], [x, y + bh]]) @ rot[:, :2].T + rot[:, 2]
    (x0, y0), (x1, y1) = np.floor(turned.min(axis=0)) - margin, np.ceil(turned.max(axis=0)) + margin
    x0, y0, x1, y1 = max(0, int(x0)), max(0, int(y0)), min(w, int(x1)), min(h, int(y1))
    rot[:, 2] -= (x0, y0)
    return rot, (max(1, x1 - x0), max(1, y1 - y0))


def _edge_strips(blob: np.ndarray, edge: int = 2) -> dict:
    """The blob's strips along each side of the photo, `edge` pixels wide."""
    return {"left": blob[:, :edge], "right": blob[:, -edge:], "top": blob[:edge], "bottom": blob[-edge:]}


def cut_sides(blob: np.ndarray, tile_quads: list, pitch: float) -> list[str]:
    """The sides of the photo that cut a group: its blob reaches them and so do its tile squares.

    "Cut by the photo's edge" is a claim about tiles. A carpet's band of dots or a wedge of glare joined
    to a kingdom in the middle of the photo carries its blob to the edge while its squares read as tile
    stop squares short of it. A square the edge cuts in half reads as table, so a kingdom truly cut
    has tile squares within CUT_REACH squares of that edge.

    >>> blob = np.zeros((100, 200), np.uint8); blob[40:60, :120] = 1  # reaches the left edge
    >>> square = lambda x, y: np.float64([[x, y], [x + 20, y], [x + 20, y + 20], [x, y + 20]])
    >>> cut_sides(blob, [square(5, 40), square(25, 40)], 20.0)  # tiles at the edge: cut
    ['left']
    >>> cut_sides(blob, [square(80, 40), square(100, 40)], 20.0)  # tiles 4 squares in: a band of table
    []
    """
    return cut_claim(blob, dict(enumerate(tile_quads)), pitch)[0]


def cut_claim(blob: np.ndarray, tile_quads: dict, pitch: float) -> tuple[list[str], tuple, tuple]:
    """cut_sides for a group's tile squares by cell ((row, col) -> quad); the cells the claim rests on (the tile
    squares near a side the blob reaches); and where the blob meets those sides, (side, from, to) in pixels
    along each, runs under half a square apart joined: what app.pipeline.cut_by_table has the reader look at.

    >>> blob = np.zeros((100, 200), np.uint8); blob[:2, 100:120] = 1; blob[:2, 125:130] = 1
    >>> blob[2:60, 100:180] = 1  # meets the top edge at x 100-129
    >>> square = lambda x, y: np.float64([[x, y], [x + 20, y], [x + 20, y + 20], [x, y + 20]])
    >>> cut_claim(blob, {(0, 0): square(100, 10), (0, 3): square(160, 10), (2, 0): square(100, 50)}, 20.0)
    (['top'], ((0, 0), (0, 3)), (('top', 100, 130),))
    """
    h, w = blob.shape
    reach = CUT_REACH * pitch
    strips = _edge_strips(blob)
    reached = [side for side, strip in strips.items() if strip.any()]
    by_cell = {}
    for cell, quad in tile_quads.items():
        q = np.asarray(quad, float)
        near = {"left": q[:, 0].min() <= reach, "right": q[:, 0].max() >= w - 1 - reach,
                "top": q[:, 1].min() <= reach, "bottom": q[:, 1].max() >= h - 1 - reach}
        by_cell[cell] = {side for side in reached if near[side]}
    sides = [side for side in reached if any(side in by for by in by_cell.values())]
    met = tuple((side, lo, hi) for side in sides
                for lo, hi in _runs(strips[side].any(axis=0 if side in ("top", "bottom") else 1), 0.5 * pitch))
    return sides, tuple(sorted(cell for cell, by in by_cell.items() if by)), met


def _runs(on: np.ndarray, join: float) -> list[tuple[int, int]]:
    """The runs of True in `on` as (from, to) indices, to exclusive, runs under `join` apart taken as one.

    >>> _runs(np.array([0, 1, 1, 0, 0, 1, 0, 0, 0, 0, 1], bool), 3)
    [(1, 6), (10, 11)]
    """
    edges = np.flatnonzero(np.diff(np.concatenate([[0], on.astype(np.int8), [0]])))
    runs: list[tuple[int, int]] = []
    for lo, hi in zip(edges[::2].tolist(), edges[1::2].tolist()):
        if runs and lo - runs[-1][1] < join:
            runs[-1] = (runs[-1][0], hi)
        else:
            runs.append((lo, hi))
    return runs


def square_past(cells: dict, cell: tuple[int, int], shape: tuple) -> tuple[tuple[int, int], np.ndarray, float]:
    """The lattice square beside `cell` on the side of the nearest photo edge (h, w = shape): its (row, col),
    its quad (from `cells` when there, else the cell's own moved by a square) and the share of it in the photo.

    A kingdom the edge cuts has tile past its last whole tile square; a kingdom the edge misses has table
    there, in view when most of that square is (app.pipeline.cut_by_table reads it).

    >>> square = lambda x, y: np.float64([[x, y], [x + 20, y], [x + 20, y + 20], [x, y + 20]])
    >>> key, quad, share = square_past({(0, 0): square(50, 25)}, (0, 0), (100, 200))  # 25 px from the top
    >>> key, quad[0].tolist(), round(share, 2)
    ((-1, 0), [50.0, 5.0], 1.0)
    >>> round(square_past({(0, 0): square(50, 10)}, (0, 0), (100, 200))[2], 2)  # the square past: half out
    0.5
    """
    h, w = shape[:2]
    q = np.asarray(cells[cell], np.float64)
    across, down = q[1] - q[0], q[3] - q[0]
    frame = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    best = None
    for (dr, dc), move in (((-1, 0), -down), ((1, 0), down), ((0, -1), -across), ((0, 1), across)):
        key = (cell[0] + dr, cell[1] + dc)
        quad = np.asarray(cells[key], np.float64) if key in cells else q + move
        area = abs(cv2.contourArea(np.float32(quad)))
        inside = cv2.intersectConvexConvex(np.float32(quad), frame)[0] / max(area, 1e-9)
        gap = min(quad[:, 0].min(), quad[:, 1].min(), w - quad[:, 0].max(), h - quad[:, 1].max())
        if best is None or gap < best[0]:
            best = (gap, key, quad, float(min(inside, 1.0)))
    return best[1], best[2], best[3]


def squares_at_edge(edge_met: tuple, pitch: float, shape: tuple, scale: float = 1.0) -> list:
    """Square quads (TL TR BR BL, image pixels) flush with the photo's side along each (side, from, to) of
    edge_met, one a square's length, about, of the run: where app.pipeline.cut_by_table reads what the blob
    met the edge with. edge_met and pitch in original pixels (LooseKingdom's), / scale for the image.

    >>> [q.tolist() for q in squares_at_edge((("top", 100, 140),), 20.0, (100, 200))]
    [[[100.0, 0.0], [120.0, 0.0], [120.0, 20.0], [100.0, 20.0]], [[120.0, 0.0], [140.0, 0.0], [140.0, 20.0], [120.0, 20.0]]]
    """
    h, w = shape[:2]
    pitch /= scale
    squares = []
    for side, lo, hi in edge_met:
        lo, hi = lo / scale, hi / scale
        n = max(1, round((hi - lo) / pitch))
        for i in range(n):
            mid = lo + (i + 0.5) * (hi - lo) / n
            a, b = mid - pitch / 2, mid + pitch / 2
            depth = {"top": (0, pitch), "bottom": (h - pitch, h), "left": (0, pitch), "right": (w - pitch, w)}[side]
            if side in ("top", "bottom"):
                (y0, y1), (x0, x1) = depth, (a, b)
            else:
                (x0, x1), (y0, y1) = depth, (a, b)
            squares.append(np.float64([[x0, y0], [x1, y0], [x1, y1], [x0, y1]]))
    return squares

__all__ = ["LooseKingdom", "find_loose", "mask_shares", "cell_share", "tile_mask", "tile_foreground", "chroma_foreground", "turn", "pitch_of",
           "square_past", "squares_at_edge", "fit_cell", "SideEnergy", "lab_edges", "TILE_SHARE", "TABLE_SHARE"]
