"""Writes the industrial/ benchmark folders from the class generators in this directory (see common.py).

    .venv/bin/python industrial/_make/build.py [CLASS ...] [--sizes 1e3,1e4] [--out DIR] [--seed N]
    .venv/bin/python industrial/_make/build.py [CLASS ...] --sizes 1e5 --check [--out DIR]
    .venv/bin/python industrial/_make/build.py --table      # the classes table of industrial/README.md

Without --out it (re)writes the committed folders industrial/<class>-1e3 and -1e4; larger sizes go to --out
(default results/industrial/, not committed), and there reference/solver.py is the class's array-built program
(reference/solver_arrays.py of its template) where it has one. expected.json comes from the class's `direct` solve
when HiGHS proves the optimum within the size's limit. --check writes the folders if missing and compares the reference
program with `direct` (groundtruth.py): the optimum where it is proved, else the LP relaxation and the model's
row, column and nonzero counts; it prints one line per folder and exits 1 on a disagreement.
"""

from __future__ import annotations

import argparse
import functools
import importlib.util
import json
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
INDUSTRIAL = HERE.parent
COMMITTED = ("1e3", "1e4")
FRAME = {"build", "common", "groundtruth"}  # modules of this directory that are not classes
# Seconds the direct solve may take to prove the optimum for expected.json (above 1e4: not attempted).
PROOF_LIMIT = {"1e3": 60.0, "1e4": 300.0}
# A class's reference program for the sizes above COMMITTED: the same model and names as reference/solver.py,
# built as arrays (tests/test_industrial_arrays.py holds the two to the same model file).
LARGE = Path("reference/solver_arrays.py")


def load(path: Path, name: str | None = None):
    spec = importlib.util.spec_from_file_location(name or f"industrial_{path.stem.replace('-', '_')}", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


sys.path.insert(0, str(HERE))  # class modules `import common` (industrial/ is not a package)
import common


@functools.cache
def classes() -> dict:
    """Every class module of this directory, by its NAME."""
    found = {}
    for path in sorted(HERE.glob("*.py")):
        if path.stem not in FRAME:
            module = load(path)
            found[module.NAME] = module
    return found


def write_folder(cls: str, size: str, out: Path, seed: int = 0, solve: bool = True) -> Path:
    """Write industrial/<cls>-<size> under `out`: SNOP, scalars, tables, README, the class's files, expected.json."""
    module = classes()[cls]
    inst = module.instance(size, seed)
    folder = Path(out) / f"{cls}-{size}"
    if (folder / "data").exists():
        shutil.rmtree(folder / "data")
    (folder / "data").mkdir(parents=True)
    common.write_json(folder / "snop.json", inst.snop)
    common.write_json(folder / "data.json", inst.data)
    for table in inst.tables:
        common.write_table(folder / "data", table)
    (folder / "data" / "README.md").write_text(common.readme(inst.tables, inst.snop.get("name", cls)))
    copy_template(cls, size, folder)
    (folder / "expected.json").unlink(missing_ok=True)
    if solve and size in PROOF_LIMIT:
        result = module.direct(folder, time_limit=PROOF_LIMIT[size])
        if result["status"] == "optimal":
            common.write_json(folder / "expected.json", common.expected(result["objective"], inst.sense))
        else:
            print(f"{folder}: direct solve ended {result['status']}: no expected.json", file=sys.stderr)
    return folder


def template_files(cls: str, size: str) -> dict[Path, Path]:
    """The class's files (industrial/_make/<class>/) by their place in a folder. Above the committed sizes,
    reference/solver.py is the class's array-built program (LARGE) when it has one."""
    template = HERE / cls
    found = {src.relative_to(template): src for src in sorted(template.rglob("*"))
             if src.is_file() and "__pycache__" not in src.parts}
    large = found.pop(LARGE, None)
    if large and size not in COMMITTED:
        found[Path("reference/solver.py")] = large
    return found


def copy_template(cls: str, size: str, folder: Path) -> None:
    """The class's programs, tests and formulation into a folder of that size (template_files)."""
    for rel, src in template_files(cls, size).items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, folder / rel)


def what(module) -> str:
    """The first sentence of a class module's docstring, without a leading "name:"."""
    text = " ".join((module.__doc__ or "").split())
    text = text.split(": ", 1)[1] if text.startswith(module.NAME + ":") else text
    return text.split(". ")[0].rstrip(".")


def table() -> str:
    """The README's classes table, from the registry and the committed folders (counts from direct's model)."""
    head = ["| class | what it models | vars / rows at 1e3 | vars / rows at 1e4 | transposed tables | "
            "expected (1e3; 1e4) |", "| --- | --- | --- | --- | --- | --- |"]
    rows = []
    for name, module in classes().items():
        counts, proved = [], []
        for size in COMMITTED:
            folder = INDUSTRIAL / f"{name}-{size}"
            if not (folder / "data.json").exists():
                counts.append("not written")
                proved.append("none")
                continue
            model = module.direct(folder, relax=True, time_limit=60)
            counts.append(f"{model['cols']:,} / {model['rows']:,}")
            exp = folder / "expected.json"
            proved.append(f"{json.loads(exp.read_text())['objective']:.10g}" if exp.exists() else "none")
        flipped = [t.name for t in module.instance("1e3", 0).tables if t.transposed]
        rows.append(f"| {name} | {what(module)} | {counts[0]} | {counts[1]} | {', '.join(flipped) or '-'} | "
                    f"{'; '.join(proved)} |")
    return "\n".join(head + rows)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("classes", nargs="*", help="class names (default: all)")
    p.add_argument("--sizes", default=None, help="comma-separated size labels (default 1e3,1e4)")
    p.add_argument("--out", type=Path, default=None, help="where to write (default: industrial/ for 1e3/1e4)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--check", action="store_true", help="compare the reference program with direct()")
    p.add_argument("--table", action="store_true", help="print the classes table of industrial/README.md")
    args = p.parse_args(argv)
    if args.table:
        print(table())
        return 0
    known = classes()
    unknown = [c for c in args.classes if c not in known]
    if unknown:
        print(f"unknown class {unknown[0]!r}; known: {', '.join(known)}", file=sys.stderr)
        return 2
    sizes = (args.sizes or ",".join(COMMITTED)).split(",")
    big = [s for s in sizes if s not in COMMITTED]
    out = args.out or (INDUSTRIAL.parent / "results" / "industrial" if big else INDUSTRIAL)
    failed = 0
    for cls in args.classes or list(known):
        for size in sizes:
            folder = out / f"{cls}-{size}"
            if not args.check or not (folder / "snop.json").exists():
                folder = write_folder(cls, size, out, args.seed, solve=size in COMMITTED)
                print(f"wrote {folder}")
            if args.check:
                groundtruth = load(HERE / "groundtruth.py", "industrial_groundtruth")
                line, ok = groundtruth.check(known[cls], folder, size)
                print(line)
                failed += not ok
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
