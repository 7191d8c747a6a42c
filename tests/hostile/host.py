"""The "host" for one hostile run: a throwaway process that calls the sandbox and prints the result as JSON.

argv[1] is a JSON request {backend, cmd, workdir, readonly, limits}. If the sandboxed program kills its
parent (this process, under the process backend), no JSON is printed and the test sees that.
"""

import json
import sys
from pathlib import Path

from optimus.core.sandbox import Limits, get_backend

request = json.loads(sys.argv[1])
backend = get_backend(request["backend"])
result = backend.run(
    request["cmd"],
    workdir=Path(request["workdir"]),
    readonly={k: Path(v) for k, v in request.get("readonly", {}).items()},
    limits=Limits(**request["limits"]),
    env=request.get("env", {}),
)
print(json.dumps(result.to_dict()))
