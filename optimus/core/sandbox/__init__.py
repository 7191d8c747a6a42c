"""Run untrusted (LLM-written) code: solver programs and generated tests.

    backend = get_backend("auto")            # docker > bwrap > process, the strongest that works here
    res = backend.run(["python", "solver.py"], workdir=..., readonly={"data.json": path}, limits=Limits(), env={})

See sandbox/README.md for what each backend holds.
"""

from optimus.core.sandbox.base import Backend, Limits, RunResult
from optimus.core.sandbox.files import read_result_file, write_beside_results
from optimus.core.sandbox.registry import backend_names, doctor, get_backend

__all__ = ["Backend", "Limits", "RunResult", "backend_names", "doctor", "get_backend", "read_result_file", "write_beside_results"]
