"""Training and evaluation: `kscore train`, `kscore eval` and benchmarks/.

Never imported when scoring. dataset.py loads the labelled folders, synth.py makes
synthetic table scenes, train.py fits the recognition models, evaluate_squares.py and
evaluate_photos.py measure the read and find stages, commands.py is the CLI for both.
"""
