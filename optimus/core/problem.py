"""A problem folder: the SNOP (either form), data.json, and the optional expected.json, tests/, reference/."""

from __future__ import annotations

import re
from dataclasses import dataclass, fields
from functools import cached_property
from pathlib import Path
from typing import Any

from optimus.core.errors import SpecError
from optimus.core.files import read_json
from optimus.core.snop import Snop, load_snop, schema_errors
from optimus.core.tables import TABLE_SUFFIXES, TABLES_DIR, tables_dir

SNOP_FILES = ("snop.json", "description.txt")


@dataclass
class Problem:
    root: Path
    snop: Snop
    snop_path: Path

    @property
    def name(self) -> str:
        return self.snop.name or self.root.name

    @property
    def data_path(self) -> Path:
        return inside(self.root, self.root / "data.json")

    @property
    def tests_dir(self) -> Path:
        return self.root / "tests"

    @property
    def reference_dir(self) -> Path:
        return self.root / "reference"

    @cached_property
    def data(self) -> Any:
        if not self.data_path.exists() and not self.data_path.is_symlink():
            if tables_dir(self.root):
                return {}  # tables only (data/): nothing else to read
            raise SpecError(self.data_path, "", missing_data_message(self.root))
        data = read_json(self.data_path)
        if not isinstance(data, dict):
            raise SpecError(self.data_path, "$", f"expected a JSON object of named values, found {type(data).__name__}")
        return data

    @cached_property
    def expected(self) -> dict | None:
        """expected.json validated against its schema, or None when the folder has none."""
        path = self.root / "expected.json"
        if not path.exists() and not path.is_symlink():
            return None
        value = read_json(inside(self.root, path))
        errors = schema_errors(value, "expected")
        if errors:
            from jsonschema.exceptions import best_match

            error = best_match(errors)
            where = "$" + "".join(f".{p}" for p in error.path)
            raise SpecError(path, where, error.message)
        return value

    def test_files(self) -> list[Path]:
        if not self.tests_dir.is_dir():
            return []
        return sorted(inside(self.root, p) for p in self.tests_dir.glob("test_*.py"))


def natural_order(folders) -> list[Path]:
    """Folders sorted the way people number them: nlp4lp/2 before nlp4lp/10."""
    return sorted(folders, key=lambda p: [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", p.name)])


def short_name(folder: Path) -> str:
    """`nlp4lp/12`: the folder and its parent, enough to tell problems apart in reports."""
    return f"{folder.parent.name}/{folder.name}" if folder.parent.name else folder.name


def inside(root: Path, path: Path) -> Path:
    """`path`, after checking that it does not lead outside `root` (a symlink planted in a folder)."""
    real, top = path.resolve(), root.resolve()
    if real != top and top not in real.parents:
        raise SpecError(path, "", f"points outside the problem folder (to {real}); copy the file in instead")
    return path


def missing_data_message(root: Path) -> str:
    """What a folder without data.json is told: where its tables belong when they lie beside the SNOP."""
    loose = sorted(p.name for p in root.iterdir() if p.is_file() and p.suffix.lower() in TABLE_SUFFIXES)
    if loose:
        shown = ", ".join(loose[:3]) + (f" and {len(loose) - 3} more" if len(loose) > 3 else "")
        return (f"not found, and the tables {shown} lie beside the SNOP: move them into {root / TABLES_DIR}/ "
                "(a folder's tables are read from data/), or write data.json")
    return "not found: a problem folder holds its data in data.json, or as tables (*.csv, *.parquet) in data/"


def load_problem(root: Path | str) -> Problem:
    """Load a folder's SNOP. Both forms present: they must agree."""
    root = Path(root)
    if not root.exists():
        raise SpecError(root, "", "no such folder")
    if not root.is_dir():
        raise SpecError(root, "", "expected a problem folder (holding snop.json or description.txt and data.json)")
    present = [root / name for name in SNOP_FILES if (root / name).exists() or (root / name).is_symlink()]
    if not present:
        raise SpecError(root, "", "no SNOP found: expected snop.json or description.txt in the folder")
    snops = [load_snop(inside(root, path)) for path in present]
    if len(snops) == 2 and snops[0] != snops[1]:
        field = next(f.name for f in fields(Snop) if getattr(snops[0], f.name) != getattr(snops[1], f.name))
        raise SpecError(present[1], field, f"disagrees with {present[0].name}; keep one form or make them agree")
    return Problem(root, snops[0], present[0])
