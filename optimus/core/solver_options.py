"""Solver options the user sets (--time-limit, --mip-gap, --threads) and how they reach a solver program.

They travel as environment variables, like OPTIMUS_SOLVER: the codegen prompt tells the model to read them
(solver_<family>.txt), reference solvers read them, and the harness's re-solve of model.mps gets the same
values (optimus.core.families.pulp.verify → optimus/core/families/pulp/resolve). Unset means the solver's own default.
"""

from __future__ import annotations

from dataclasses import dataclass

from optimus.core.errors import ConfigError

# option → environment variable the program reads
ENV = {"time_limit": "OPTIMUS_TIME_LIMIT", "mip_gap": "OPTIMUS_MIP_GAP", "threads": "OPTIMUS_THREADS"}


@dataclass(frozen=True)
class SolverOptions:
    time_limit: float | None = None  # seconds the solver may search
    mip_gap: float | None = None  # relative MIP gap at which the solver may stop
    threads: int | None = None
    export_lp: bool = False  # --export lp: the re-solve also writes the captured model as model.lp

    def __post_init__(self) -> None:
        for name, flag in (("time_limit", "--time-limit"), ("mip_gap", "--mip-gap"), ("threads", "--threads")):
            value = getattr(self, name)
            if value is not None and not value > 0:
                raise ConfigError(f"{flag} {value}: must be a positive number")
        if self.mip_gap is not None and self.mip_gap >= 1:
            raise ConfigError(f"--mip-gap {self.mip_gap}: a relative gap, below 1 (0.01 is 1%)")

    def env(self) -> dict[str, str]:
        """The variables a solver program reads; only those set."""
        return {env: f"{getattr(self, k):g}" for k, env in ENV.items() if getattr(self, k) is not None}

    def describe(self) -> str:
        """`time limit 30 s, MIP gap 0.01, 2 threads`, or "" when none is set."""
        parts = [f"time limit {self.time_limit:g} s" if self.time_limit else "",
                 f"MIP gap {self.mip_gap:g}" if self.mip_gap else "",
                 f"{self.threads} thread{'s' if self.threads != 1 else ''}" if self.threads else ""]
        return ", ".join(p for p in parts if p)
