"""`kscore serve`: a local web page that reads photos of the table and fixes a square with a tap.

serve (the command, imports the framework only when run) -> app (the Starlette
routes) -> uploads (what a photo upload may be, told by its bytes) and store (the
game folder: photos, readings, game.kingdom). The page is static/ (no build step).
"""
