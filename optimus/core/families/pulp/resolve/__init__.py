"""The independent re-solve of a captured model.mps, run inside the sandbox.

The MPS file was written by generated code, so it is untrusted input: this package is copied into a sandbox work
dir and run there as `python -m resolve request.json result.json`. It therefore imports nothing from optimus.
"""
