"""The number check of `optimus new` on requests of our own in the shapes that fooled it: index rows and columns,
enumerated lists, subscripts, dates and clock times, scientific notation.

    .venv/bin/python bench/bench_numbers.py [--before REV]

Each case is a request, the data.json a model would write for it, and — by hand — the request's numbers that
data.json genuinely leaves out. The check (optimus.commands.new.check_numbers) runs once with optimus.core.numbers
as it is and once with the module as it was at REV (default: the commit before issue 31's change); for each it
prints the findings' precision (findings that name a number really left out, or a data value the request never
writes, ÷ findings) and recall (numbers really left out that a finding names ÷ numbers really left out). Prints
numbers measured in this run; it is not a test.
"""

from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from optimus.commands import new
from optimus.core import numbers

BEFORE = "e1c8a06"  # optimus/core/numbers.py before indices and scientific notation were read
WEIGHTS = [4, 7, 2, 9, 11, 3, 5, 8, 12, 6, 13, 10, 14, 16, 15]
# (name, request, data, numbers left out of data.json by hand)
CASES = [
    ("index row", "Cars to load:\ni 1 2 3 … 15\nw " + " ".join(map(str, WEIGHTS)) + "\nThe ferry carries at most 60 t.",
     {"weight": WEIGHTS, "capacity": 60}, set()),
    ("index row, a limit left out", "i 1 2 3 4 5 6\nc 9 4 7 3 8 5\nEach route may carry at most 40 and at least 25.",
     {"cost": [9, 4, 7, 3, 8, 5], "max_load": 40}, {25.0}),
    ("row labels", "day | demand | price\n1 | 30 | 4.5\n2 | 28 | 4.75\n3 | 35 | 5.1\n4 | 31 | 4.9\nStorage holds 50.",
     {"demand": [30, 28, 35, 31], "price": [4.5, 4.75, 5.1, 4.9], "storage": 50}, set()),
    ("enumerated list, one left out", ("1. A truck carries at most 12 pallets.\n2. There are 7 trucks.\n"
     "3. Overtime costs 45 per hour.\n4. A shift is 8 hours."), {"pallets": 12, "trucks": 7, "shift": 8}, {45.0}),
    ("inline enumeration, one left out", ("Rules: (1) at most 40 hours a week, (2) at least 10 units a day, "
     "(3) a budget of 5000."), {"hours": 40, "budget": 5000}, {10.0}),
    ("scientific notation", ("The drift is −1.3730183823943952e-04 per step, the gain 2.5e3 and the noise "
     "3.2 × 10^-6."), {"drift": -1.3730183823943952e-04, "gain": 2500.0, "noise": 3.2e-06}, set()),
    ("dates and clock times", ("On 2025-03-14 the shift starts at 7:30 am and ends at 4 pm; each of the 6 "
     "machines needs 45 minutes of set-up."), {"start_minute": 450, "end_minute": 960, "machines": 6, "setup": 45},
     set()),
    ("subscripts", "Keep x_1 + x_2 at most 100; c_3 is 7 and c_{4} is 9 while y[2] costs 3.",
     {"limit": 100, "c": [7, 9], "y_cost": 3}, set()),
    ("0-based column labels", "period 0 1 2 3 4 5\nprice 12 15 11 14 13 16\nA contract buys at most 20 units.",
     {"price": [12, 15, 11, 14, 13, 16], "max_units": 20}, set()),
    ("small quantities that are data", ("Products A, B, C need minimum orders of 1 2 3 units, and 5 machines "
     "run them."), {"machines": 5}, {1.0, 2.0, 3.0}),
    ("a table with a value left out", "i 1 2 3 4 5\nd 10 12 9 14 11\nv 3 5 2 6 4",
     {"demand": [10, 12, 9, 14, 11], "volume": [3, 5, 2, 4]}, {6.0}),
]


def load_before(rev: str):
    text = subprocess.run(["git", "-C", str(ROOT), "show", f"{rev}:optimus/core/numbers.py"], capture_output=True,
                          text=True, check=True).stdout
    path = Path(tempfile.mkdtemp()) / "numbers_before.py"
    path.write_text(text)
    spec = importlib.util.spec_from_file_location("numbers_before", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["numbers_before"] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def findings_with(module, request: str, data: dict) -> list[dict]:
    """check_numbers with `module`'s readers in place of optimus.core.numbers'."""
    names = ("numbers_in", "derived", "Held", "list_lengths", "numbers_with_paths", "source_of", "close")
    saved = {n: getattr(new, n) for n in names}
    try:
        for n in names:
            setattr(new, n, getattr(module, n))
        draft = new.Draft(snop={"problem_info": [], "objective": ""}, data=data)
        return new.check_numbers(request, draft)
    finally:
        for n, v in saved.items():
            setattr(new, n, v)


def score(module) -> tuple[int, int, int, int, list[str]]:
    """(true findings, findings, left-out numbers found, left-out numbers) over every case, and the wrong ones."""
    true = found = hit = missing = 0
    wrong = []
    for name, request, data, left_out in CASES:
        got = findings_with(module, request, data)
        named = {abs(w.value) for f in got if f["kind"] == "not in the folder"
                 for w in module.numbers_in(f["number"])[:1]}
        right = [f for f in got if f["kind"] == "not in the folder" and named & left_out
                 and any(abs(w.value) in left_out for w in module.numbers_in(f["number"])[:1])]
        true, found = true + len(right), found + len(got)
        hit, missing = hit + len(named & left_out), missing + len(left_out)
        wrong += [f"{name}: {f['message']}" for f in got if f not in right]
    return true, found, hit, missing, wrong


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default=BEFORE, help="the revision to compare with")
    args = parser.parse_args()
    print(f"{len(CASES)} requests, {sum(len(c[3]) for c in CASES)} numbers left out of data.json by hand")
    for label, module in (("before", load_before(args.before)), ("after", numbers)):
        true, found, hit, missing, wrong = score(module)
        precision = f"{true}/{found} = {true / found:.2f}" if found else "no findings"
        print(f"{label:>6}: precision {precision}; recall {hit}/{missing} = {hit / missing:.2f}")
        for line in wrong:
            print(f"        wrong: {line}")


if __name__ == "__main__":
    main()
