"""Sandbox-side: `sitecustomize.py` here is copied into a run's work dir and put on the program's PYTHONPATH,
so it loads before the program and records which keys of data.json the program reads. Imports nothing from
optimus (optimus.core.datause is the host side)."""
