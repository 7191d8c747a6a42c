"""Industrial scale side by side in one run: prompt size, the program's build + write against a direct highspy
build, its solve, the re-check against the solve, peak memory; and PuLP against the chosen modeling layer.

    .venv/bin/python bench/bench_scale.py [--vars 1000000] [--classes facility-location ...] [--time-limit 60]
                                          [--sandbox process] [--out results/industrial] [--no-layers]
                                          [--sizes 1e6]

For each class of industrial/ (industrial/_make/<class>.py) and each of its sizes up to --vars variables: the
folder (committed industrial/<class>-<size>, else written into --out by industrial/_make/build.py), then
- prompt: characters of the codegen prompt built by the real builder from the folder's SNOP and data summary
  (never a value), and the ratio to the class's 10^3 folder (1.00: the prompt does not grow with the data);
- program: reference/solver.py run in the sandbox with the limits sized to the folder
  (optimus.core.sandbox.sizing), OPTIMUS_TIME_LIMIT and OPTIMUS_THREADS=1 (the re-check gets the same); its
  build, write and solve seconds from solution.json's "seconds" (contract C3); run again with a 0 s limit (HiGHS
  stops at once), its resident peak (the process backend's ru_maxrss) is "built": reading, building and writing
  the model;
- direct: the class's direct() in a child process, HiGHS also writing its model as MPS: its seconds from reading
  the folder's tables (the program's build is timed from its start too) to the model written, its columns and
  rows wearing the program's names (read from the program's model.mps before the clock: the contract's model.mps
  is named, and the names' bytes are half the file or more, which HiGHS's writer pays for);
  build ratio = program (build + write) / direct (read + build + write); "bare": the same against direct()
  without names;
- re-check: optimus.core.families.pulp.verify on the program's folder, as the loop runs it; ratio = its seconds /
  the program's solve seconds; "checked" is its peak before its re-solve (reading model.mps, checking the values),
  from its own report;
- peak MiB = the larger of built and checked: what optimus and the program need. "solving" is the larger of the
  two runs' whole peaks, HiGHS's own solves included (at 10^6 variables a MILP solve takes gigabytes whichever
  layer built the model);
- layers (once per size, unless --no-layers): bench/bench_layers.py's facility model of that many variables built
  and written with PuLP, pyoptinterface and highspy arrays (the codegen rules' layers for small and large data),
  each in its own process.
Peaks are ru_maxrss, which Linux carries over fork and exec: a child's never reads below this script's own resident
size when it started (~110 MiB), so small sizes show that floor; at 10^5 and up the runs' own peaks are far above it.
The last line sums up the largest size (the worst class where several ran):
    scale 1000000 vars: build ratio 1.42, recheck ratio 1.10, peak MiB 900, prompt ratio 1.00 (with HiGHS's
    solves: peak MiB 3500)
Targets (issue 30): build ratio <= 2, recheck ratio <= 1.3, peak <= 2048 MiB, prompt ratio 1.00. Prints numbers
measured in one run; it is not a test (tests/test_bench_scale.py runs it small so that it cannot rot).
"""

from __future__ import annotations

import argparse
import importlib.util
import inspect
import json
import math
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
INDUSTRIAL = ROOT / "industrial"
MAKE = INDUSTRIAL / "_make"
LABELS = {"1e3": 10**3, "1e4": 10**4, "1e5": 10**5, "1e6": 10**6}
# The program's and the re-check's HiGHS threads, as `optimus solve --threads` gives both: measured on p-median at
# 10^5 beside a busy core, HiGHS's default threads re-solved in 56 s what one thread solves in 9 s.
THREADS = 1


def load_by_path(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def builder():
    return load_by_path(MAKE / "build.py", "industrial_build")


def folder_for(build, cls: str, size: str, out: Path, seed: int) -> Path:
    """The committed folder when there is one, else the one in `out`: written when missing (no proof solve), and
    given the class's current programs and tests when it was written before (its data is the slow part)."""
    committed = INDUSTRIAL / f"{cls}-{size}"
    if (committed / "snop.json").is_file():
        return committed
    folder = out / f"{cls}-{size}"
    if not (folder / "snop.json").is_file():
        quiet = {"solve": False} if "solve" in inspect.signature(build.write_folder).parameters else {}
        build.write_folder(cls, size, out, seed, **quiet)
    build.copy_template(cls, size, folder)
    return folder


def prompt_chars(folder: Path) -> int:
    """The codegen prompt for the folder, as the loop builds it (the pulp family, its reference formulation)."""
    from optimus.core import families
    from optimus.core.datasummary import summarize_problem
    from optimus.core.problem import load_problem
    from optimus.core.prompts import messages, render
    from optimus.core.sandbox import Limits
    from optimus.core.stages.context import Context

    problem = load_problem(folder)
    ctx = Context(problem, problem.snop, None, None, Limits(), None, summarize_problem(problem),
                  family=families.load("pulp"))
    formulation = (folder / "reference" / "formulation.md").read_text()
    prompt = render(ctx.family.prompt_name("codegen"), ctx.spec_values(), formulation=formulation)
    return sum(len(m["content"]) for m in messages(prompt))


def run_program(folder: Path, work: Path, sandbox, time_limit: float) -> tuple[dict, dict]:
    """The reference program in the sandbox as the loop runs one: (solution.json, run facts)."""
    from optimus.core.sandbox.sizing import sized_limits
    from optimus.core.tables import sandbox_inputs

    work.mkdir(parents=True)
    (work / "solver.py").write_text((folder / "reference" / "solver.py").read_text())
    limits = sized_limits(folder, solver_s=time_limit)
    env = {"OPTIMUS_TIME_LIMIT": f"{time_limit:g}", "OPTIMUS_THREADS": str(THREADS)}
    result = sandbox.run(["python", "solver.py"], workdir=work, readonly=sandbox_inputs(folder / "data.json"),
                         limits=limits, env=env)
    if result.exit_code != 0 or not (work / "solution.json").is_file():
        raise RuntimeError(f"{folder.name}: the reference program failed ({result.killed_by or result.exit_code}): "
                           f"{result.stderr[-400:]}")
    facts = {"wall": result.wall_s, "peak": result.resources.get("max_rss_kb", 0) / 1024, "limits": limits}
    return json.loads((work / "solution.json").read_text()), facts


def model_names(path: Path) -> tuple[list, list]:
    """The column and row names of a model file, as HiGHS reads them."""
    import highspy

    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.readModel(str(path))
    lp = h.getLp()
    return list(lp.col_names_), list(lp.row_names_)


def direct_child(cls: str, folder: str, names_from: str | None = None) -> None:
    """In a child process: the class's direct() with HiGHS writing its model too; prints its result as JSON, with
    read_s, the seconds from the call (reading the folder's tables) to the array model's creation. With
    `names_from` (the program's model.mps, read before the clock), direct's columns and rows wear the program's
    names when it writes: the writer's cost grows with the names' bytes (which column wears which name is moot)."""
    build = builder()
    common = sys.modules["common"]
    solve = common.ArrayModel.solve
    names = model_names(Path(names_from)) if names_from else None
    with tempfile.TemporaryDirectory() as tmp:
        def with_write(self, relax=False, time_limit=None, threads=1, mps=None):
            fits = names and (len(names[0]), len(names[1])) == (self.ncols, self.nrows)
            return {**solve(self, relax, time_limit, threads, mps or Path(tmp) / "direct.mps",
                            names=names if fits else None), "read_s": self.t0 - called, "named": bool(fits)}

        common.ArrayModel.solve = with_write
        import duckdb  # noqa: F401 -- imported before the clock, as a program imports before its own
        import highspy  # noqa: F401
        called = time.perf_counter()
        result = build.classes()[cls].direct(Path(folder), time_limit=1.0)  # its solve is not measured here
    print(json.dumps({k: v for k, v in result.items() if k in ("read_s", "build_s", "write_s", "rows", "cols",
                                                               "nnz", "named")}))


def direct(cls: str, folder: Path, names_from: Path | None = None) -> dict:
    done = subprocess.run([sys.executable, __file__, "--direct-child", cls, str(folder),
                           *([str(names_from)] if names_from else [])], capture_output=True, text=True, check=False)
    if done.returncode:
        raise RuntimeError(f"{folder.name}: direct() failed: {done.stderr.strip()[-400:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def recheck(folder: Path, work: Path, sandbox, limits, time_limit: float) -> tuple[float, float, float, str]:
    """The re-check as the loop runs it: (seconds, peak MiB before its re-solve, peak MiB, outcome)."""
    from optimus.core.families.pulp.verify import RESOLVE_PER_RUN_S, VERIFY_BUDGET_S, verify_attempt
    from optimus.core.problem import load_problem
    from optimus.core.solver_options import SolverOptions

    problem = load_problem(folder)
    solution = json.loads((work / "solution.json").read_text())
    spent = sum(v for v in solution.get("seconds", {}).values() if isinstance(v, (int, float)))
    verdict = verify_attempt(work, problem.snop.problem_info, sandbox, limits,
                             max(VERIFY_BUDGET_S, RESOLVE_PER_RUN_S * spent),
                             solver=SolverOptions(time_limit=time_limit, threads=THREADS),
                             claimed=solution)
    found = work / "verify" / "result.json"
    raw = json.loads(found.read_text()) if found.is_file() else {}
    return verdict.seconds, raw.get("check_peak_mib", 0.0), raw.get("peak_mib", 0.0), verdict.outcome


LAYERS = ("pulp", "pyoptinterface", "highspy")  # the codegen rules teach the last two: small data, large data


def layers(size: int) -> dict[str, dict]:
    """bench_layers' facility model of `size` variables, built and written by each of LAYERS."""
    bench_layers = load_by_path(ROOT / "bench" / "bench_layers.py", "bench_layers")
    args = argparse.Namespace(seed=0, solve="none", time_limit=1.0)
    sites = max(1, round(size / bench_layers.CUSTOMERS))
    return {layer: bench_layers.measure(layer, sites, args) for layer in LAYERS}


def measure(cls: str, size: str, folder: Path, small: Path, sandbox, time_limit: float, tmp: Path) -> dict:
    row = {"class": cls, "size": size, "prompt": prompt_chars(folder)}
    row["prompt_ratio"] = row["prompt"] / prompt_chars(small)
    solution, facts = run_program(folder, tmp / f"{cls}-{size}", sandbox, time_limit)
    seconds = solution.get("seconds") or {}
    row.update(status=solution.get("status"), build=seconds.get("build"), write=seconds.get("write"),
               solve=seconds.get("solve"), peak_program=facts["peak"])
    _, built = run_program(folder, tmp / f"{cls}-{size}-built", sandbox, 0.0)  # HiGHS stops at once
    bare, named = direct(cls, folder), direct(cls, folder, tmp / f"{cls}-{size}" / "model.mps")
    if not named["named"]:
        raise RuntimeError(f"{folder.name}: the program's model.mps and direct() differ in columns or rows")
    row["direct"] = named["read_s"] + named["build_s"] + named["write_s"]
    row["build_ratio"] = (row["build"] + row["write"]) / row["direct"]
    row["bare_ratio"] = (row["build"] + row["write"]) / (bare["read_s"] + bare["build_s"] + bare["write_s"])
    row["recheck"], check_peak, peak_recheck, row["outcome"] = recheck(folder, tmp / f"{cls}-{size}", sandbox,
                                                                       facts["limits"], time_limit)
    row["recheck_ratio"] = row["recheck"] / row["solve"]
    row["peak_built"], row["peak_checked"] = built["peak"], check_peak
    row["peak"] = max(built["peak"], check_peak)  # ours: building and writing, reading and checking
    row["peak_solving"] = max(row["peak_program"], peak_recheck)  # with HiGHS's own solves
    return row


def summary_line(vars_: int, rows: list[dict]) -> str:
    """The issue's line for the largest size: the worst class's figure for each ratio and for the peak."""
    worst = {k: max(r[k] for r in rows) for k in ("build_ratio", "recheck_ratio", "peak", "prompt_ratio",
                                                   "peak_solving")}
    return (f"scale {vars_} vars: build ratio {worst['build_ratio']:.2f}, recheck ratio {worst['recheck_ratio']:.2f}, "
            f"peak MiB {worst['peak']:.0f}, prompt ratio {worst['prompt_ratio']:.2f} "
            f"(with HiGHS's solves: peak MiB {worst['peak_solving']:.0f})")


HEADER = (f"{'class':24} {'size':>4} {'prompt':>7} {'p.ratio':>7} {'build s':>8} {'write s':>8} {'direct s':>8} "
          f"{'b.ratio':>7} {'bare':>5} {'solve s':>8} {'recheck s':>9} {'r.ratio':>7} {'peak MiB':>8} {'built':>8} "
          f"{'checked':>8} {'solving':>8}  status / re-check")


def line(r: dict) -> str:
    return (f"{r['class']:24} {r['size']:>4} {r['prompt']:7d} {r['prompt_ratio']:7.2f} {r['build']:8.2f} "
            f"{r['write']:8.2f} {r['direct']:8.2f} {r['build_ratio']:7.2f} {r['bare_ratio']:5.2f} {r['solve']:8.2f} "
            f"{r['recheck']:9.2f} "
            f"{r['recheck_ratio']:7.2f} {r['peak']:8.0f} {r['peak_built']:8.0f} {r['peak_checked']:8.0f} "
            f"{r['peak_solving']:8.0f}  "
            f"{r['status']} / {r['outcome']}")


def layer_line(size: int, found: dict[str, dict]) -> str:
    parts = []
    for layer, r in found.items():
        parts.append(f"{layer} " + (f"error {r['error'][:60]}" if "error" in r else
                                    f"b+w {r['build'] + r['write']:.2f} s, peak {r['peak_mib']:.0f} MiB"))
    ratio = ""
    if all("error" not in r for r in found.values()):
        pulp, poi, arrays = (found[k]["build"] + found[k]["write"] for k in LAYERS)
        ratio = f"; b+w against arrays: PuLP {pulp / arrays:.2f}, pyoptinterface {poi / arrays:.2f}"
    return f"layers at {size} vars (bench_layers' facility model): " + "; ".join(parts) + ratio


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--vars", type=float, default=1e6, help="largest size in variables (default 1000000)")
    ap.add_argument("--classes", nargs="+", help="class names (default: every class with a reference program)")
    ap.add_argument("--time-limit", type=float, default=60.0, help="the program's and re-solve's limit, s")
    ap.add_argument("--sandbox", default="process", help="process (default: it reports peak memory) or bwrap")
    ap.add_argument("--out", type=Path, default=ROOT / "results" / "industrial", help="where larger folders go")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--sizes", help="only these size labels, e.g. 1e6 (default: every size up to --vars)")
    ap.add_argument("--no-layers", action="store_true", help="skip PuLP against the chosen layer")
    ap.add_argument("--direct-child", nargs="+", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.direct_child:
        direct_child(*args.direct_child)
        return 0
    from optimus.core.sandbox import get_backend

    build, sandbox = builder(), get_backend(args.sandbox)
    names = args.classes or [n for n in build.classes() if (MAKE / n / "reference" / "solver.py").is_file()]
    sizes = [s for s, n in LABELS.items() if n <= args.vars and (not args.sizes or s in args.sizes.split(","))]
    if not names or not sizes:
        print("nothing to measure: no class with a reference program, or --vars below 1000", file=sys.stderr)
        return 2
    print(HEADER, flush=True)
    rows: list[dict] = []
    failures: list[str] = []
    with tempfile.TemporaryDirectory(prefix="bench-scale-") as tmp:
        for size in sizes:
            for cls in names:
                small = folder_for(build, cls, "1e3", args.out, args.seed)
                folder = folder_for(build, cls, size, args.out, args.seed)
                try:
                    rows.append(measure(cls, size, folder, small, sandbox, args.time_limit, Path(tmp)))
                except RuntimeError as failed:  # the other classes are still measured; the summary says so
                    failures.append(f"{cls} {size}")
                    print(f"{cls:24} {size:>4} failed: {failed}", flush=True)
                    continue
                print(line(rows[-1]), flush=True)
            if not args.no_layers:
                print(layer_line(LABELS[size], layers(LABELS[size])), flush=True)
    largest = [r for r in rows if r["size"] == sizes[-1]]
    if not largest or not all(math.isfinite(r[k]) for r in largest for k in ("build_ratio", "recheck_ratio", "peak")):
        print("a figure of the largest size is not a number", file=sys.stderr)
    print(summary_line(LABELS[sizes[-1]], largest) if largest else f"scale {LABELS[sizes[-1]]} vars: nothing measured",
          *(["; failed: " + ", ".join(failures)] if failures else []), sep="")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
