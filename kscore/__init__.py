"""kscore: score finished Kingdomino kingdoms from a photo or a text grid.

Layers, each importing only from those below it (ARCHITECTURE.md, tests/test_layers.py):

    kscore.lab     training and evaluation (kscore train / eval, benchmarks/)
    kscore.app     the pipeline, the command line, batch runs, reports
    kscore.vision  photo -> kingdoms found (find/) -> squares read (read/)
    kscore.game    the kingdom model, text format, rules, scoring, ranking, expansions
    kscore.errors, kscore.filetypes   shared by all
"""

__version__ = "0.1.0"
