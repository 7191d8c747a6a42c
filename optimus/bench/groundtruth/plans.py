"""Ground truth for the multi-step Z3 folders (llmfp/<kind>-<n>): shortest plan lengths computed two ways.

    python -m optimus.bench.groundtruth.plans DIR... [--write] [--json] [--no-fd] [--proof-only] [--bfs-states N]

Each DIR is a multi-step folder (reference/solver.py, validate/domain.pddl, validate/problem.pddl) or a folder
of them. Per folder:
  1. Z3 horizon search: reference/solver.py runs for T = 0, 1, ..., max_horizon (data.json) in a temp dir,
     each run deciding whether a plan of exactly T actions exists; the first feasible T is the shortest
     plan, every smaller T being unsat is the proof. None feasible: infeasible up to max_horizon.
  2. Breadth-first search over the states of validate/*.pddl (optimus.bench.groundtruth.pddl, which shares
     nothing with the Z3 program: it reads the PDDL, the program reads data.json).
  3. Fast Downward's optimal planner (unless --no-fd) as a third opinion.
With --proof-only, Z3 runs only at the BFS's optimum L and at L-1 (the harness's proof), not from T = 0.
The Z3 plan is validated by unified-planning's PlanValidator and by our own PDDL simulation, and
reference/wrong_output.json must fail a precondition in that simulation. With `--write` the agreed result
goes to expected.json; without, the existing one is compared. Exit 0 when everything agrees, 1 on any
disagreement, 2 on bad input. The reference programs are our own code, so they run unsandboxed.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from optimus.bench.groundtruth import driver, pddl
from optimus.core.errors import SpecError

RUN_TIMEOUT = 60.0  # seconds for one horizon of the reference program
INCREMENTAL = "solver_incremental.py"  # a second program of the kind, on the incremental contract


@dataclass
class Horizon:
    """The Z3 horizon search: the first feasible T (None: none up to max_horizon) and its plan."""

    length: int | None
    plan: list[dict] | None
    tried: int  # horizons run
    seconds: float
    problem: str = ""  # a run that ended neither feasible nor infeasible


def run_horizon(folder: Path, horizon: int, timeout: float = RUN_TIMEOUT) -> tuple[dict, dict]:
    """solution.json and output.json of `reference/solver.py T` run in a temp dir holding data.json."""
    with tempfile.TemporaryDirectory(prefix="optimus-plans-") as tmp:
        shutil.copy(folder / "data.json", tmp)
        proc = subprocess.run([sys.executable, str((folder / "reference" / "solver.py").resolve()), str(horizon)],
                              cwd=tmp, capture_output=True, text=True, timeout=timeout, check=False)
        found = [Path(tmp, name) for name in ("solution.json", "output.json")]
        if proc.returncode != 0 or not all(p.is_file() for p in found):
            tail = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or ["no output"]
            return {"status": "error", "message": f"exit {proc.returncode}: {tail[0]}"}, {}
        return tuple(json.loads(p.read_text()) for p in found)  # type: ignore[return-value]


def horizon_search(folder: Path, horizons: list[int]) -> Horizon:
    """Run the program at each horizon in turn (ascending); stop at the first feasible one."""
    start = time.perf_counter()
    for t in horizons:
        solution, output = run_horizon(folder, t)
        status = solution.get("status")
        if status == "feasible":
            return Horizon(t, output.get("plan"), horizons.index(t) + 1, time.perf_counter() - start)
        if status != "infeasible":
            return Horizon(None, None, horizons.index(t) + 1, time.perf_counter() - start,
                           f"horizon {t}: status {status} {solution.get('message', '')}".strip())
    return Horizon(None, None, len(horizons), time.perf_counter() - start)


def incremental_search(folder: Path, timeout: float = 4 * RUN_TIMEOUT) -> Horizon:
    """reference/solver_incremental.py (the incremental contract) under the harness's own horizon driver, in a
    temp dir: one solver for T = 0, 1, ..., max_horizon."""
    with tempfile.TemporaryDirectory(prefix="optimus-plans-") as tmp:
        shutil.copy(folder / "data.json", tmp)
        shutil.copy(folder / "reference" / INCREMENTAL, Path(tmp, "solver.py"))
        request = {"program": "solver.py", "max_horizon": read_max_horizon(folder), "budget_s": timeout}
        Path(tmp, "request.json").write_text(json.dumps(request))
        start = time.perf_counter()
        proc = subprocess.run([sys.executable, "-m", "optimus.core.families.z3.z3_sandbox", "horizon", "request.json"],
                              cwd=tmp, capture_output=True, text=True, timeout=timeout + 30, check=False)
        seconds = time.perf_counter() - start
        files = {name: json.loads(Path(tmp, name).read_text()) if Path(tmp, name).is_file() else {}
                 for name in ("horizon.json", "output.json")}
    record = files["horizon.json"]
    if record.get("outcome") not in ("optimal", "infeasible"):
        return Horizon(None, None, len(record.get("runs", [])), seconds,
                       f"{record.get('summary') or 'no horizon.json'} {proc.stderr.strip()[-300:]}".strip())
    length = record.get("shortest")
    return Horizon(length, files["output.json"].get("plan") if length is not None else None, len(record["runs"]),
                   seconds)


@dataclass
class Check:
    folder: str
    max_horizon: int = 0
    z3_horizons: list[int] = field(default_factory=list)  # horizons the program ran at
    z3_length: int | None = None
    z3_seconds: float = 0.0
    plan: list[dict] | None = None  # the Z3 plan at the first feasible horizon
    bfs: str = "not run"  # "optimal", "unsolvable", "too large"
    bfs_length: int | None = None
    fd: str = "not run"
    fd_length: int | None = None
    plan_check: str = "no plan"
    wrong_check: str = "no reference/wrong_output.json"
    incremental_length: int | None = None  # reference/solver_incremental.py's shortest plan, when there is one
    incremental_seconds: float = 0.0
    expected: dict | None = None
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def line(self) -> str:
        fd = "" if self.fd == "not run" else f", FD {self.fd} {self.fd_length if self.fd_length is not None else ''}"
        bfs = _length(self.bfs_length) if self.bfs != "too large" else "too large"
        incremental = (f", incremental Z3 {_length(self.incremental_length)} ({self.incremental_seconds:.1f}s)"
                       if self.incremental_seconds else "")
        return (f"{'ok ' if self.ok else 'BAD'} {self.folder}: Z3 {_length(self.z3_length)} "
                f"(T in {_span(self.z3_horizons)}, {self.z3_seconds:.1f}s), BFS {bfs}{fd.rstrip()}{incremental}"
                + "".join(f"\n    {p}" for p in self.problems))

    def row(self) -> dict:
        return {**asdict(self), "ok": self.ok}


def read_max_horizon(folder: Path) -> int:
    path = folder / "data.json"
    try:
        value = json.loads(path.read_text()).get("max_horizon")
    except (OSError, ValueError) as exc:
        raise SpecError(path, "", f"not readable JSON: {exc}") from None
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise SpecError(path, "max_horizon", f"expected a non-negative integer, found {value!r}")
    return value


def check_folder(folder: Path, fd: bool = True, full: bool = True, up: bool = True,
                 max_states: int = pddl.BFS_STATES) -> Check:
    """Compare the Z3 horizon search with the BFS (and Fast Downward). `full`: Z3 runs every horizon from 0;
    otherwise only the harness's proof — the BFS's optimum L is feasible and L-1 is not (for a goal the BFS
    proves unreachable, max_horizon-1 and max_horizon) — so a session's test stays fast. `up=False` leaves
    unified-planning out (its global environment is not thread-safe; Fast Downward needs it too)."""
    domain, problem = folder / "validate" / "domain.pddl", folder / "validate" / "problem.pddl"
    for path in (domain, problem, folder / "reference" / "solver.py"):
        if not path.is_file():
            raise SpecError(path, "", "missing (a multi-step folder needs reference/solver.py and validate/*.pddl)")
    chk = Check(str(folder), read_max_horizon(folder))
    try:
        chk.bfs_length = pddl.shortest_plan_length(domain, problem, max_states)
        chk.bfs = "unsolvable" if chk.bfs_length is None else "optimal"
    except pddl.StateLimitError:
        chk.bfs = "too large"
        chk.problems.append("the BFS could not finish: no second computation of the optimum")
    if full or chk.bfs == "too large":
        horizons = list(range(chk.max_horizon + 1))
    else:
        top = chk.max_horizon if chk.bfs_length is None else min(chk.bfs_length, chk.max_horizon)
        horizons = [t for t in (top - 1, top) if t >= 0]
    found = horizon_search(folder, horizons)
    chk.z3_horizons, chk.z3_length, chk.z3_seconds = horizons[:found.tried], found.length, found.seconds
    chk.plan = found.plan
    if found.problem:
        chk.problems.append(f"Z3 horizon search: {found.problem}")
    elif chk.bfs_length is not None and chk.bfs_length > chk.max_horizon:
        chk.problems.append(f"the shortest plan has {chk.bfs_length} actions, beyond max_horizon {chk.max_horizon}")
    elif chk.bfs != "too large" and chk.bfs_length != chk.z3_length:
        chk.problems.append(f"Z3 says {_length(chk.z3_length)} (horizons {chk.z3_horizons}), "
                            f"the BFS says {_length(chk.bfs_length)}")
    if fd and up:
        check_fast_downward(chk, domain, problem)
    if found.plan is not None:
        faults = plan_faults(domain, problem, found.plan, up)
        chk.plan_check = "; ".join(faults) or f"valid (our simulation{' and PlanValidator' if up else ''})"
        if faults or len(found.plan) != found.length:
            chk.problems.append(f"the Z3 plan ({len(found.plan)} steps): {chk.plan_check}")
    if (folder / "reference" / INCREMENTAL).is_file():
        check_incremental(chk, folder, up)
    check_wrong_output(chk, folder)
    if not chk.problems:
        chk.expected = ({"status": "optimal", "objective": chk.z3_length, "sense": "min"}
                        if chk.z3_length is not None else {"status": "infeasible"})
    return chk


def check_fast_downward(chk: Check, domain: Path, problem: Path) -> None:
    """Fast Downward's optimal planner, a third opinion: it must prove an optimum (or unsolvability) and, when
    the BFS finished, agree with it."""
    try:
        chk.fd, chk.fd_length, _ = pddl.fast_downward_optimal(domain, problem)
    except Exception as exc:  # noqa: BLE001 — unified-planning raises many kinds; each is a finding
        chk.fd = f"failed ({type(exc).__name__}: {exc})"
    if chk.fd not in ("optimal", "unsolvable") or (chk.bfs != "too large" and chk.fd_length != chk.bfs_length):
        chk.problems.append(f"fast-downward-opt says {chk.fd} {_length(chk.fd_length)}")


def check_wrong_output(chk: Check, folder: Path) -> None:
    """reference/wrong_output.json is required when there is a plan to get wrong, and must break a precondition
    in our simulation."""
    wrong = folder / "reference" / "wrong_output.json"
    if not wrong.is_file():
        if chk.z3_length:
            chk.problems.append("no reference/wrong_output.json")
        return
    try:
        why = pddl.simulate(folder / "validate" / "domain.pddl", folder / "validate" / "problem.pddl",
                            json.loads(wrong.read_text())["plan"])
    except (ValueError, KeyError, TypeError) as exc:
        raise SpecError(wrong, "plan", f"expected {{\"plan\": [{{action, args}}, ...]}}: {exc}") from None
    chk.wrong_check = why or "valid"
    if not why or "not applicable" not in why:
        chk.problems.append(f"reference/wrong_output.json should break a precondition: {chk.wrong_check}")


def check_incremental(chk: Check, folder: Path, up: bool) -> None:
    """The incremental program must find the BFS's shortest plan too, and a valid one."""
    found = incremental_search(folder)
    chk.incremental_length, chk.incremental_seconds = found.length, found.seconds
    if found.problem:
        chk.problems.append(f"the incremental program: {found.problem}")
    elif chk.bfs != "too large" and found.length != chk.bfs_length:
        chk.problems.append(f"the incremental program says {_length(found.length)}, the BFS says "
                            f"{_length(chk.bfs_length)}")
    elif found.plan is not None:
        faults = plan_faults(folder / "validate" / "domain.pddl", folder / "validate" / "problem.pddl", found.plan, up)
        if faults:
            chk.problems.append(f"the incremental program's plan: {'; '.join(faults)}")


def plan_faults(domain: Path, problem: Path, plan: list[dict], up: bool = True) -> list[str]:
    """What our PDDL simulation and (with `up`) unified-planning's PlanValidator find wrong with the plan."""
    faults = [pddl.simulate(domain, problem, plan)]
    try:
        faults.append(pddl.up_validate(domain, problem, plan) if up else None)
    except Exception as exc:  # noqa: BLE001 — a validator that cannot run is a finding, not a crash
        faults.append(f"PlanValidator failed ({type(exc).__name__}: {exc})")
    return [f for f in faults if f]


def _span(horizons: list[int]) -> str:
    if len(horizons) > 2 and horizons == list(range(horizons[0], horizons[-1] + 1)):
        return f"{horizons[0]}..{horizons[-1]}"
    return "{" + ", ".join(map(str, horizons)) + "}"


def _length(n: int | None) -> str:
    return "no plan" if n is None else f"{n} actions"


def folders(paths: list[Path]) -> list[Path]:
    """The multi-step folders among `paths` and their children (a folder with validate/domain.pddl)."""
    return [f for path in paths for f in driver.discover(path, KIND)]


def _check_from_args(folder: Path, args: argparse.Namespace) -> Check:
    chk = check_folder(folder, fd=not args.no_fd, full=not args.proof_only, max_states=args.bfs_states)
    pddl.compare(chk, folder, args.write)
    return chk


def _add_options(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--no-fd", action="store_true", help="skip Fast Downward (Z3 and the BFS still must agree)")
    ap.add_argument("--proof-only", action="store_true",
                    help="run Z3 only at the BFS optimum and one below it (the harness's proof), not at every horizon")
    ap.add_argument("--bfs-states", type=int, default=pddl.BFS_STATES)


KIND = driver.Kind(
    prog="python -m optimus.bench.groundtruth.plans", doc=__doc__, marker="validate/domain.pddl",
    check=_check_from_args, write_help="write expected.json where the computations agree",
    not_found="not a multi-step folder (no validate/domain.pddl) nor a folder of them", options=_add_options,
    json_lines=True)


def main(argv: list[str] | None = None) -> int:
    return driver.main(KIND, argv)


if __name__ == "__main__":
    sys.exit(main())
