"""What every backend shares: the limits, the result, the backend interface and the environment rules."""

from __future__ import annotations

import dataclasses
import re
import signal
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from optimus.core.errors import ConfigError

# Where the work dir appears inside the bwrap and docker sandboxes (the process backend uses it in place).
SANDBOX_WORKDIR = "/sandbox"
LANG = "C.UTF-8"
KILL_REASONS = ("wall", "cpu", "memory", "output", "file_size", "processes", "signal")
_ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


@dataclass(frozen=True)
class Limits:
    """Resource limits for one run. Sizes in MB are mebibytes."""

    wall_s: float = 60
    cpu_s: int = 60
    memory_mb: int = 2048
    processes: int = 64
    output_bytes: int = 1_000_000
    file_size_mb: int = 512
    nofile: int = 256

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
                raise ConfigError(f"sandbox limit {f.name} must be a positive number, got {value!r}")


@dataclass
class RunResult:
    """How one sandboxed command ended. `exit_code` is negative for a signal, None when we killed it."""

    exit_code: int | None
    stdout: str
    stderr: str
    timed_out: bool
    killed_by: str | None
    wall_s: float
    backend: str
    output_truncated: bool = False
    resources: dict[str, Any] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.exit_code == 0 and self.killed_by is None

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


class Backend(ABC):
    """A way to run an untrusted command. Subclasses declare `name` and what they hold in `holds`."""

    name: str = ""
    holds: tuple[str, ...] = ()

    @classmethod
    @abstractmethod
    def check(cls) -> str | None:
        """None when the backend works on this machine, else why not and what to install."""

    @abstractmethod
    def run(
        self,
        cmd: list[str],
        workdir: Path,
        readonly: Mapping[str, Path] | None = None,
        limits: Limits | None = None,
        env: Mapping[str, str] | None = None,
    ) -> RunResult:
        """Run `cmd` with cwd = workdir; see optimus.core.sandbox for the contract."""


def check_request(
    cmd: list[str], workdir: Path, readonly: Mapping[str, Path] | None, env: Mapping[str, str] | None
) -> tuple[Path, dict[str, Path], dict[str, str]]:
    """Validate a run request; return the resolved workdir, readonly map and env. Raises ConfigError."""
    if not cmd or not all(isinstance(c, str) and c and "\0" not in c for c in cmd):
        raise ConfigError(f"sandbox command must be a non-empty list of non-empty strings, got {cmd!r}")
    work = Path(workdir)
    if not work.is_dir():
        raise ConfigError(f"sandbox workdir {work} is not a directory")
    files: dict[str, Path] = {}
    for name, src in (readonly or {}).items():
        if not isinstance(name, str) or name in ("", ".", "..") or "/" in name or "\0" in name:
            raise ConfigError(f"sandbox readonly name {name!r} must be a plain file name (no '/')")
        path = Path(src)
        if not (path.is_file() or path.is_dir()):  # a folder: the problem's data/ tables
            raise ConfigError(f"sandbox readonly file {path} (for {name!r}) does not exist or is not a file")
        if (work / name).exists() or (work / name).is_symlink():
            raise ConfigError(f"sandbox readonly name {name!r} collides with {work / name}")
        files[name] = path.resolve()
    clean: dict[str, str] = {}
    for key, value in (env or {}).items():
        if not isinstance(key, str) or not _ENV_NAME.match(key):
            raise ConfigError(f"sandbox env name {key!r} is not a valid variable name")
        if not isinstance(value, str) or "\0" in value:
            raise ConfigError(f"sandbox env {key} must be a string without NUL bytes")
        clean[key] = value
    return work.resolve(), files, clean


def with_interpreter(cmd: list[str], python: str) -> list[str]:
    """`python` as a command's first word means the backend's interpreter, the one with the solver stack."""
    return [python if cmd[0] in ("python", "python3") else cmd[0], *cmd[1:]]


# One BLAS/OpenMP thread per run: the programs are small, RLIMIT_CPU counts every thread, and the runs already
# share the cores with each other (the bench runs one per core). Two OpenBLAS threads cost ~70 ms of CPU at
# every `import numpy` (pulp and highspy import it) for nothing. A caller's env may override it.
THREADS_ENV = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}


def base_env(path: str, home: str, extra: Mapping[str, str]) -> dict[str, str]:
    """The whole environment inside: a minimal PATH/HOME/LANG plus what the caller passed, nothing inherited."""
    env = {"PATH": path, "HOME": home, "LANG": LANG, "TMPDIR": "/tmp", "PYTHONDONTWRITEBYTECODE": "1", **THREADS_ENV}
    env.update(extra)
    return env


def signal_of(exit_code: int | None) -> int | None:
    """The signal number a negative exit code stands for."""
    return -exit_code if exit_code is not None and exit_code < 0 else None


def from_shell_status(code: int) -> int:
    """bwrap and docker report death by signal N as 128+N; turn that into -N like subprocess does."""
    return -(code - 128) if 128 < code <= 128 + 64 else code


# Messages that a limit was hit, when the program died of the error instead of a signal (Python ignores
# SIGXFSZ and turns a failed allocation or fork into an exception).
_STDERR_HINTS = (
    ("memory", ("MemoryError", "std::bad_alloc", "Cannot allocate memory")),
    ("file_size", ("File too large",)),
    ("processes", ("Resource temporarily unavailable",)),
)


def infer_killed_by(exit_code: int | None, stderr: str, cpu_s: float | None, limits: Limits,
                    workdir: Path | None = None) -> str | None:
    """Name the limit that stopped a program that exited on its own (not killed by us). A file of `workdir` as
    long as the file size limit was cut off there, even when the program went on: Python ignores SIGXFSZ, and a
    solver's C writer (HiGHS writing model.mps) need not check that its writes succeeded."""
    sig = signal_of(exit_code)
    if sig == signal.SIGXCPU or (sig == signal.SIGKILL and cpu_s is not None and cpu_s >= limits.cpu_s):
        return "cpu"
    if sig == signal.SIGXFSZ or (workdir is not None and cut_off(workdir, limits)):
        return "file_size"
    if exit_code == 0:
        return None
    tail = stderr[-4000:]
    for reason, hints in _STDERR_HINTS:
        if any(h in tail for h in hints):
            return reason
    return "signal" if sig is not None else None


def cut_off(workdir: Path, limits: Limits) -> list[str]:
    """Files the run left in `workdir` that reached the file size limit: they hold its first bytes only."""
    cap = limits.file_size_mb * 1024 * 1024
    return sorted(str(p.relative_to(workdir)) for p in Path(workdir).rglob("*")
                  if p.is_file() and not p.is_symlink() and p.stat().st_size >= cap)
