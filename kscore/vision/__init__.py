"""Vision: from a photo to the kingdoms in it, read square by square.

load.py decodes a photo (EXIF orientation, reduced-resolution decode);
geometry.py has the quadrilateral helpers both stages share;
find/ locates each kingdom's grid in the photo and cuts it out square;
read/ reads each square's terrain and crowns and decodes them against the tile box.
Nothing here draws, writes files or knows the command line (that is kscore.app).
"""
