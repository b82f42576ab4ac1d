"""Trained models, shipped inside the package as kscore.models (see pyproject.toml)."""
