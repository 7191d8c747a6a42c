"""Solver options the user sets (--time-limit, --mip-gap, --threads) and how they reach a solver program.

They travel as environment variables, like OPTIMUS_SOLVER: the codegen prompt tells the model to read them
(solver_<family>.txt), reference solvers read them, and the harness's re-solve of model.mps gets the same
values (optimus.core.families.pulp.verify → optimus/core/families/pulp/resolve). Unset means the solver's own default.
Only the pulp family's contract reads them (cvxpy and z3 programs are not told to; --export lp converts the
model.mps only PuLP programs write): elsewhere they are dropped with a warning, not passed on silently.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, replace

from optimus.core.errors import ConfigError

# option → environment variable the program reads
ENV = {"time_limit": "OPTIMUS_TIME_LIMIT", "mip_gap": "OPTIMUS_MIP_GAP", "threads": "OPTIMUS_THREADS"}
# option → the flag the user typed
FLAGS = {"time_limit": "--time-limit", "mip_gap": "--mip-gap", "threads": "--threads", "export_lp": "--export lp"}
# The families whose programs read the options (solver_pulp.txt; the re-solve and LP export need model.mps).
READ_BY = ("pulp",)


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

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> SolverOptions:
        """The options add_arguments defined, as parsed (no --export where the command has none)."""
        return cls(time_limit=args.time_limit, mip_gap=args.mip_gap, threads=args.threads,
                   export_lp="lp" in (getattr(args, "export", None) or ()))

    def env(self) -> dict[str, str]:
        """The variables a solver program reads; only those set."""
        return {env: f"{getattr(self, k):g}" for k, env in ENV.items() if getattr(self, k) is not None}

    def unread_by(self, family: str) -> list[str]:
        """The flags set that `family`'s programs do not read."""
        return [] if family in READ_BY else [flag for name, flag in FLAGS.items() if getattr(self, name)]

    def read_by(self, family: str) -> SolverOptions:
        """These options as `family`'s programs see them: none at all where they read none."""
        return self if family in READ_BY else replace(self, **{name: None for name in ENV}, export_lp=False)

    def describe(self) -> str:
        """`time limit 30 s, MIP gap 0.01, 2 threads`, or "" when none is set."""
        parts = [f"time limit {self.time_limit:g} s" if self.time_limit else "",
                 f"MIP gap {self.mip_gap:g}" if self.mip_gap else "",
                 f"{self.threads} thread{'s' if self.threads != 1 else ''}" if self.threads else ""]
        return ", ".join(p for p in parts if p)


def add_arguments(p: argparse.ArgumentParser, export: bool = True) -> None:
    """The flags, one definition for `optimus solve` and `optimus bench` (read back by SolverOptions.from_args)."""
    p.add_argument("--time-limit", type=float, metavar="S",
                   help="seconds the solver may search ($OPTIMUS_TIME_LIMIT)")
    p.add_argument("--mip-gap", type=float, metavar="G",
                   help="relative MIP gap to stop at, e.g. 0.01 ($OPTIMUS_MIP_GAP)")
    p.add_argument("--threads", type=int, metavar="N", help="solver threads ($OPTIMUS_THREADS)")
    if export:
        p.add_argument("--export", choices=["lp"], action="append", default=[],
                       help="lp: also write the captured model as model.lp beside model.mps")
