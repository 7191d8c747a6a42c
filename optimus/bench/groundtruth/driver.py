"""What the four ground-truth modules (lp, z3, plans, pddl) share: the command line, finding the folders under
the given DIRs, bad input, the pool, the report (one line per folder, or JSON) and the exit code.

A module describes itself with a `Kind` and its `main` is `driver.main(KIND, argv)`; it keeps only how to check
one folder and what its Check holds. Exit 0 when every check agrees, 1 on any disagreement, and the error's own
code (2 for bad input) on an OptimusError, whose message goes to stderr (OPTIMUS_DEBUG=1 re-raises it).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from optimus.core.errors import OptimusError, SpecError
from optimus.core.problem import natural_order


class Check(Protocol):
    """The outcome of checking one folder, as the driver reads it: it agrees when `problems` is empty."""

    problems: list[str]

    def line(self) -> str: ...  # the folder's line of the text report

    def row(self) -> dict: ...  # the folder's entry of the JSON report


def _anything(_: Path) -> bool:
    return True


def _nothing(*_: object) -> None:
    return None


@dataclass(frozen=True)
class Kind:
    """What a ground-truth module tells the driver: what marks its folders, how to check one, its options."""

    prog: str  # "python -m optimus.bench.groundtruth.lp": `python -m` runs the module as __main__
    doc: str  # the module's docstring; its first line describes the command in --help
    marker: str  # a file each folder of this kind holds, relative to the folder
    check: Callable[[Path, argparse.Namespace], Check]  # checks one folder, writes or compares expected.json
    write_help: str
    not_found: str  # the message for a DIR that is neither such a folder nor a directory
    none_inside: str | None = None  # the message for a directory with none inside (None: nothing to check, exit 0)
    fits: Callable[[Path], bool] = _anything  # whether a subfolder that holds the marker is one of this kind
    claim: Callable[[Path], None] = _nothing  # raises SpecError when a DIR that holds the marker is not
    precheck: Callable[[Path], object] = _nothing  # raises on bad input, run on every folder before any check
    options: Callable[[argparse.ArgumentParser], None] = _nothing  # adds the module's own options
    timeout: float | None = None  # --timeout's default in seconds; None: the module has no --timeout
    timeout_help: str = ""
    parallel: bool = False  # --jobs: folders may be checked at once (unified-planning is not thread-safe)
    json_lines: bool = False  # --json prints one object per line as folders finish, else one list at the end


def discover(root: Path | str, kind: Kind) -> list[Path]:
    """`root` itself when it holds the kind's marker, else its subfolders that do (and fit), in natural order."""
    root = Path(root)
    if (root / kind.marker).is_file():
        kind.claim(root)
        return [root]
    if not root.is_dir():
        raise SpecError(root, "", kind.not_found)
    found = [p for p in root.iterdir() if (p / kind.marker).is_file() and kind.fits(p)]
    if not found and kind.none_inside is not None:
        raise SpecError(root, "", kind.none_inside)
    return natural_order(found)


def parser(kind: Kind) -> argparse.ArgumentParser:
    """DIR... --write --json, the module's own options, then --jobs and --timeout where the module has them."""
    ap = argparse.ArgumentParser(prog=kind.prog, description=kind.doc.splitlines()[0])
    ap.add_argument("dirs", nargs="+", type=Path, metavar="DIR")
    ap.add_argument("--write", action="store_true", help=kind.write_help)
    ap.add_argument("--json", action="store_true",
                    help="one JSON object per folder" if kind.json_lines else "print the results as JSON")
    kind.options(ap)
    if kind.parallel:
        ap.add_argument("--jobs", type=int, default=max(1, (os.cpu_count() or 2) // 2), help="folders at once")
    if kind.timeout is not None:
        ap.add_argument("--timeout", type=float, default=kind.timeout, help=kind.timeout_help)
    return ap


def main(kind: Kind, argv: list[str] | None = None) -> int:
    """Run the module's command line: check every folder under the DIRs, report, return the exit code."""
    args = parser(kind).parse_args(argv)
    try:
        folders = [f for d in args.dirs for f in discover(d, kind)]
        for folder in folders:  # fail on bad input before running anything
            kind.precheck(folder)
        return report(checks(kind, folders, args), args.json, kind.json_lines)
    except OptimusError as exc:
        if os.environ.get("OPTIMUS_DEBUG") == "1":
            raise
        print(f"error: {exc}", file=sys.stderr)
        return exc.exit_code


def checks(kind: Kind, folders: list[Path], args: argparse.Namespace) -> Iterator[Check]:
    """The folders' checks in order, each as soon as it is done; in a pool of --jobs threads where allowed."""
    jobs = args.jobs if kind.parallel else 1
    if jobs == 1:  # in this thread, as the modules that must not run in a pool always have
        yield from (kind.check(f, args) for f in folders)
        return
    with ThreadPoolExecutor(jobs) as pool:
        yield from pool.map(lambda f: kind.check(f, args), folders)


def report(results: Iterable[Check], as_json: bool, json_lines: bool) -> int:
    """Print each check as it comes (a line, or a JSON line), or all of them as one JSON list at the end.
    0 when every check agrees, else 1."""
    done = []
    for chk in results:
        done.append(chk)
        if not as_json:
            print(chk.line())
        elif json_lines:
            print(json.dumps(chk.row()))
    if as_json and not json_lines:
        print(json.dumps([chk.row() for chk in done], indent=2))
    return 1 if any(chk.problems for chk in done) else 0


def write_expected(folder: Path, expected: dict) -> None:
    """expected.json as every module writes it: indented, with a final newline."""
    (folder / "expected.json").write_text(json.dumps(expected, indent=2) + "\n")


def expected_differences(expected: dict | None, runs: Iterable[dict], name: str,
                         objective_agrees: Callable[[dict, object], bool]) -> list[str]:
    """How runs differ from expected.json (empty when they all match): the status, then the objective as
    `objective_agrees(run, expected objective)` judges it. `name` is the key that names a run."""
    if expected is None:
        return ["no expected.json (run with --write)"]
    problems = []
    for run in runs:
        if run["status"] != expected.get("status"):
            problems.append(f"{run[name]} status {run['status']} != expected {expected.get('status')}")
        elif not objective_agrees(run, expected.get("objective")):
            problems.append(f"{run[name]} objective {run['objective']} != expected {expected.get('objective')}")
    return problems
