"""Finding kingdoms in a photo: localise.py finds each kingdom's grid (lattice.py fits
it to the seams), occlusion.py marks squares hidden by a hand or a cut edge,
rectify.py cuts a kingdom out as a square top-down image for kscore.vision.read.
"""
