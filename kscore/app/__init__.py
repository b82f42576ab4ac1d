"""The application: pipeline.py joins vision and game (photo -> Game), cli.py is the
`kscore` command, batch.py runs many files with per-file failures, report.py prints
and serialises scores, overlay.py draws a reading on its photo.
"""
