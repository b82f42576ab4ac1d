"""Reading a top-down kingdom image: per-square terrain and crowns, then tile-set decoding.

Nothing here is imported by the scoring path, so scoring a text grid never loads
a model (reader.py loads them lazily on the first read). Training lives in kscore.lab.
"""
