"""Photos in, rectified boards out: loading, localising and rectifying kingdoms.

load.py reads a photo (EXIF orientation, reduced-resolution decode),
localise.py finds each kingdom's grid, rectify.py cuts it out square,
synth.py makes labelled synthetic scenes, overlay.py draws results,
evaluate.py measures all of it on a labelled photo folder.
"""
