"""Sandbox limits sized to the work: a run's wall time, CPU time and memory grow with the problem's data, so a
model of a million variables can be built and solved without a flag; a flag, an environment variable or the
folder's limits.json raise (or lower) them, in that order of precedence; and a run that hits one is told which
limit it was and how to raise it.

Measured here (bench/bench_scale.py, facility location of 10^6 variables from 10^6 lane rows): the program
builds, writes and solves in minutes and peaks near 1 GiB resident; the address space (RLIMIT_AS, which the
memory limit is) runs well above the resident size, for thread stacks and allocator arenas.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from optimus.core.errors import ConfigError
from optimus.core.sandbox.base import Limits

DEFAULT_WALL_S = 120.0
DEFAULT_MEMORY_MB = 8192
# Added per row of data (table rows plus data.json's list entries): 10^6 rows give 20 more minutes and 8 GiB more.
WALL_S_PER_ROW = 1.2e-3
MEMORY_MB_PER_ROW = 8e-3
# Files a run may write: model.mps grows with the model, which few rows of data can make large (shift-scheduling
# of 10^6 variables from about 17,000 rows: its named model.mps passed 520 MiB and was cut off there), so a sized
# run may write files of 4 GiB, more with very many rows.
SIZED_FILE_MB = 4096
FILE_MB_PER_ROW = 5e-4
# Sized defaults stop here: an hour, and half the machine's memory (two runs side by side still fit).
MAX_SIZED_WALL_S = 3600.0
# The user's solver time limit is added to a sized wall, with this much more: HiGHS checks its clock between steps
# (measured: 78 s for a 60 s limit on a 10^6-variable MILP), and a run killed first would leave no answer at all.
SOLVER_OVERRUN = 1.5
ENV_WALL = "OPTIMUS_SANDBOX_TIMEOUT"
ENV_MEMORY = "OPTIMUS_SANDBOX_MEMORY_MB"
FOLDER_FILE = "limits.json"  # {"timeout": seconds, "memory_mb": MiB} in the problem folder
RAISE = {"wall": f"--timeout S, {ENV_WALL} or {FOLDER_FILE}'s \"timeout\"",
         "cpu": f"--timeout S, {ENV_WALL} or {FOLDER_FILE}'s \"timeout\"",
         "memory": f"--memory MB, {ENV_MEMORY} or {FOLDER_FILE}'s \"memory_mb\""}


def sized_limits(root: Path | None, timeout: float | None = None, memory_mb: int | None = None,
                 data: Any = None, solver_s: float | None = None) -> Limits:
    """The limits of a problem folder's runs: each from the flag when given, else the environment variable, else
    the folder's limits.json, else the default sized to the folder's data, its wall then longer by the solver's
    own time limit (`solver_s`, the user's --time-limit). `data`: data.json as already parsed (a large one is not
    read twice)."""
    setting = folder_setting(root)
    rows = data_rows(root, data) if root is not None else 0
    sized = min(MAX_SIZED_WALL_S, DEFAULT_WALL_S + WALL_S_PER_ROW * rows) + SOLVER_OVERRUN * (solver_s or 0.0)
    wall = _first(timeout, _env(ENV_WALL, float), setting.get("timeout"), sized)
    memory = _first(memory_mb, _env(ENV_MEMORY, int), setting.get("memory_mb"),
                    min(max(DEFAULT_MEMORY_MB, machine_mb() // 2), DEFAULT_MEMORY_MB + int(MEMORY_MB_PER_ROW * rows)))
    files = SIZED_FILE_MB + int(FILE_MB_PER_ROW * rows)
    return Limits(wall_s=float(wall), cpu_s=max(1, int(wall)), memory_mb=int(memory), file_size_mb=files)


def killed_words(killed_by: str | None, limits: Limits) -> str:
    """The limit a run hit, with its value, and how to raise it: 'the memory limit of 8192 MiB (raise it with
    --memory MB, …)'. None or an unknown reason: the wall limit, the one a run without a cause hits."""
    reason = killed_by or "wall"
    what = {"wall": f"the time limit of {limits.wall_s:g} s", "cpu": f"the CPU time limit of {limits.cpu_s} s",
            "memory": f"the memory limit of {limits.memory_mb} MiB"}.get(reason)
    if what is None:
        return reason
    return f"{what} (raise it with {RAISE[reason]})"


def folder_setting(root: Path | None) -> dict[str, float]:
    """limits.json of the problem folder, checked: exit 2 with the file and field named when it is wrong."""
    path = Path(root) / FOLDER_FILE if root is not None else None
    if path is None or not path.is_file():
        return {}
    try:
        raw: Any = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ConfigError(f"{path}: not readable JSON ({exc})") from None
    if not isinstance(raw, dict):
        raise ConfigError(f"{path}: must be an object {{\"timeout\": seconds, \"memory_mb\": MiB}}")
    out = {}
    for field in raw:
        value = raw[field]
        if field not in ("timeout", "memory_mb"):
            raise ConfigError(f"{path}: unknown field {field!r}; the fields are timeout and memory_mb")
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
            raise ConfigError(f"{path}: field {field!r} must be a positive number, got {value!r}")
        out[field] = value
    return out


def data_rows(root: Path, data: Any = None) -> int:
    """Rows of the problem's data: its tables' rows plus the entries of data.json's lists (what a model grows with).
    `data`: data.json as already parsed; None reads it."""
    from optimus.core.tables import row_counts

    rows = sum(row_counts(root).values())
    path = Path(root) / "data.json"
    if data is None:
        try:
            data = json.loads(path.read_text()) if path.is_file() else None
        except (OSError, UnicodeDecodeError, json.JSONDecodeError):
            data = None  # validate says what is wrong with it
    return rows + _entries(data)


def _entries(value: Any) -> int:
    """List entries, nested lists and objects counted through (iterative: no recursion to exhaust)."""
    count, stack = 0, [value]
    while stack:
        item = stack.pop()
        if isinstance(item, list):
            count += len(item)
            stack.extend(x for x in item if isinstance(x, (list, dict)))
        elif isinstance(item, dict):
            stack.extend(x for x in item.values() if isinstance(x, (list, dict)))
    return count


def machine_mb() -> int:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // (1024 * 1024)
    except (ValueError, OSError):
        return 2 * DEFAULT_MEMORY_MB


def _env(name: str, cast: type) -> float | None:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return None
    try:
        value = cast(raw)
    except ValueError:
        raise ConfigError(f"{name} must be a {'whole ' if cast is int else ''}number, got {raw!r}") from None
    if value <= 0:
        raise ConfigError(f"{name} must be positive, got {raw!r}")
    return value


def _first(*values: float | None) -> float:
    return next(v for v in values if v is not None)
