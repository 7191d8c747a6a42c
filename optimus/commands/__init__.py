"""The commands layer: what a user runs (solve, new, repair, ask, validate, import, the CLI and the Python API), over optimus.core."""
