"""The malformed-input corpus. What makes a problem unsolvable exits 2 naming the file and the field, never a
traceback; what a model can read through is a warning (exit 0, or 1 with --strict) naming the file and JSON path."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from optimus.commands.cli import main

SNOP = {
    "name": "Two-product mix",
    "problem_type": "LP",
    "problem_info": [
        "A shop makes \\var{N} products; product \\var{i} earns \\param{profit_{i}} per unit.",
        "Each unit of product i uses \\param{hours_{i,m}} hours of machine m, which has \\param{capacity_{m}} hours.",
    ],
    "input_format": '{\n  "profit": [profit_{i} for i in 1, ..., N],\n'
    '  "hours": [[hours_{i,m} for m in 1, ..., M] for i in 1, ..., N],\n'
    '  "capacity": [capacity_{m} for m in 1, ..., M]\n}',
    "objective": "Maximize total profit.",
    "output_info": ["\\var{make_{i}} units of product i"],
    "output_format": '{"make": [make_{i} for i in 1, ..., N]}',
}
DATA = {"profit": [3, 5], "hours": [[1, 2, 1], [3, 1, 2]], "capacity": [10, 12, 9]}


def write_folder(root: Path, snop=SNOP, data=DATA) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "snop.json").write_text(json.dumps(snop) if not isinstance(snop, (str, bytes)) else snop)
    (root / "data.json").write_text(json.dumps(data))
    return root


def with_snop(**changes):
    snop = {k: v for k, v in SNOP.items() if changes.get(k, "") is not None}
    snop.update({k: v for k, v in changes.items() if v is not None})
    return snop


def raw(name: str, content: bytes):
    return lambda root: (root / name).write_bytes(content)


def set_json(name: str, value):
    return lambda root: (root / name).write_text(json.dumps(value))


def both_forms_disagree(root: Path) -> None:
    from optimus.core.snop import Snop, render_text

    other = Snop.from_dict(with_snop(objective="Minimize total profit."))
    (root / "description.txt").write_text(render_text(other))


def symlink_outside(root: Path) -> None:
    outside = root.parent / "elsewhere.json"
    outside.write_text(json.dumps(DATA))
    (root / "data.json").unlink()
    (root / "data.json").symlink_to(outside)


def no_snop(root: Path) -> None:
    (root / "snop.json").unlink()


# (case id, how to break a valid folder, file named in the message, field named in the message)
CASES = [
    ("snop-invalid-json", raw("snop.json", b'{"problem_type": "LP",'), "snop.json", "line 1"),
    ("snop-empty-file", raw("snop.json", b""), "snop.json", "empty"),
    ("snop-not-utf8", raw("snop.json", b'{"name": "caf\xe9"}'), "snop.json", "UTF-8"),
    ("snop-top-level-array", set_json("snop.json", [SNOP]), "snop.json", "JSON object"),
    ("missing-field", set_json("snop.json", with_snop(objective=None)), "snop.json", "'objective'"),
    ("wrong-type", set_json("snop.json", with_snop(problem_info="one statement")), "snop.json",
     "$.problem_info"),
    ("unknown-problem-type", set_json("snop.json", with_snop(problem_type="MINLPX")), "snop.json",
     "$.problem_type"),
    ("empty-problem-info", set_json("snop.json", with_snop(problem_info=[])), "snop.json", "$.problem_info"),
    ("statement-with-line-break", set_json("snop.json", with_snop(problem_info=["a\nb"])), "snop.json",
     "$.problem_info[0]"),
    ("unknown-field", set_json("snop.json", with_snop(deadline="soon")), "snop.json", "'deadline'"),
    ("both-forms-disagree", both_forms_disagree, "description.txt", "objective"),
    ("text-no-headers", lambda r: (no_snop(r), (r / "description.txt").write_text("just prose\n")),
     "description.txt", "headers"),
    ("text-before-header", lambda r: (no_snop(r), (r / "description.txt").write_text(
        "hello\nPROBLEM TYPE: LP\n")), "description.txt", "line 1"),
    ("text-duplicate-header", lambda r: (no_snop(r), (r / "description.txt").write_text(
        "PROBLEM TYPE: LP\nPROBLEM TYPE: MILP\n")), "description.txt", "PROBLEM TYPE"),
    ("no-snop", no_snop, "", "no SNOP found"),
    ("data-missing", lambda r: (r / "data.json").unlink(), "data.json", "not found"),
    ("data-invalid-json", raw("data.json", b'{"profit": [3, 5'), "data.json", "line 1"),
    ("data-empty-file", raw("data.json", b""), "data.json", "empty"),
    ("data-not-utf8", raw("data.json", b'{"profit": "\xff"}'), "data.json", "UTF-8"),
    ("data-not-object", set_json("data.json", [3, 5]), "data.json", "JSON object"),
    ("data-key-missing", set_json("data.json", {k: v for k, v in DATA.items() if k != "capacity"}),
     "data.json", "$.capacity"),
    ("symlink-outside", symlink_outside, "data.json", "outside the problem folder"),
    ("expected-bad-status", set_json("expected.json", {"status": "solved"}), "expected.json", "$.status"),
    ("expected-optimal-no-objective", set_json("expected.json", {"status": "optimal", "sense": "max"}),
     "expected.json", "objective"),
]


# Cases a model can read through: the loop goes on, since the data summary tells the model the true shapes.
# (case id, how to break a valid folder, file named, field named, why it is not an error)
WARNING_CASES = [
    ("param-never-described",
     set_json("snop.json", with_snop(problem_info=SNOP["problem_info"] + ["Overtime costs \\param{overtime}."])),
     "snop.json", "problem_info[2]", "the statement still says what it means; the data summary lists every key"),
    ("input-format-not-template", set_json("snop.json", with_snop(input_format="profits then hours")),
     "snop.json", "input_format", "data.json itself, summarised, says the shapes the prose describes"),
    ("output-format-not-template", set_json("snop.json", with_snop(output_format="a list of amounts")),
     "snop.json", "output_format", "a model reads prose; tests check the output it writes"),
    ("output-format-unbalanced", set_json("snop.json", with_snop(output_format='{"make": [make_{i} for i')),
     "snop.json", "output_format", "a typo in a template a model reads as intended"),
    ("template-comma-for-colon",
     set_json("snop.json", with_snop(input_format=SNOP["input_format"].replace('"profit":', '"profit",'))),
     "snop.json", "input_format", "read as the key it plainly is"),
    ("template-no-closing-brace",
     set_json("snop.json", with_snop(output_format='{\n  "make": [make_{i} for i in 1, ..., N]\n')),
     "snop.json", "output_format", "everything before the end was read"),
    ("data-key-wrong-type", set_json("data.json", {**DATA, "profit": 3}), "data.json", "$.profit",
     "the shape disagrees with the template; the summary shows the true one"),
    ("data-wrong-nesting", set_json("data.json", {**DATA, "hours": [1, 2, 3]}), "data.json", "$.hours",
     "the summary shows the true nesting"),
    ("data-too-deep", set_json("data.json", {**DATA, "capacity": [[10], [12], [9]]}), "data.json",
     "$.capacity[0]", "the summary shows the true nesting"),
    ("data-lengths-disagree", set_json("data.json", {**DATA, "profit": [3, 5, 7]}), "data.json", "items",
     "sizes come from the data, not the template"),
    ("data-ragged-rows", set_json("data.json", {**DATA, "hours": [[1, 2, 1], [3, 1]]}), "data.json",
     "$.hours[1]", "the summary shows ragged rows as list[2..3]"),
    ("data-number-as-string", set_json("data.json", {**DATA, "capacity": [10, "12", 9]}), "data.json",
     "$.capacity[1]", "a program converts '12'; a test catches it if not"),
    ("data-key-other-case", set_json("data.json", {"Profit": [3, 5], "hours": DATA["hours"],
                                                   "capacity": DATA["capacity"]}),
     "data.json", "$.profit", "the key is there under another spelling, which the summary shows"),
]

@pytest.mark.parametrize("name,breaker,file,field", CASES, ids=[c[0] for c in CASES])
def test_malformed_folder_exits_2_naming_file_and_field(tmp_path, capsys, name, breaker, file, field):
    root = write_folder(tmp_path / "problem")
    assert main(["validate", str(root)]) == 0, capsys.readouterr()
    capsys.readouterr()
    breaker(root)
    assert main(["validate", str(root)]) == 2
    out = capsys.readouterr()
    text = out.out + out.err
    assert "Traceback" not in text
    error_lines = [line for line in text.splitlines() if line.startswith("error:")]
    assert error_lines, text
    assert any(file in line and field in line for line in error_lines), text


@pytest.mark.parametrize("name,breaker,file,field,why", WARNING_CASES, ids=[c[0] for c in WARNING_CASES])
def test_readable_defect_is_a_warning_naming_file_and_path(tmp_path, capsys, name, breaker, file, field, why):
    root = write_folder(tmp_path / "problem")
    breaker(root)
    assert main(["validate", str(root)]) == 0, why
    text = capsys.readouterr().out
    assert "error:" not in text and "Traceback" not in text, text
    warnings = [line for line in text.splitlines() if line.startswith("warning:")]
    assert any(file in line and field in line for line in warnings), text
    assert main(["validate", "--strict", str(root)]) == 1


def test_missing_folder_readme_and_snop_file_arguments(tmp_path, capsys):
    assert main(["validate", str(tmp_path / "nope")]) == 2
    assert "no such folder" in capsys.readouterr().out
    (tmp_path / "README.md").write_text("problems below")
    assert main(["validate", str(tmp_path / "README.md")]) == 0
    assert "not a problem folder: skipped" in capsys.readouterr().out
    root = write_folder(tmp_path / "p", data={k: v for k, v in DATA.items() if k != "profit"})
    assert main(["validate", str(root / "snop.json")]) == 2
    assert "$.profit" in capsys.readouterr().out


def test_extra_data_key_is_a_warning_and_strict_makes_it_exit_1(tmp_path, capsys):
    root = write_folder(tmp_path / "p", data={**DATA, "unused": 1})
    assert main(["validate", str(root)]) == 0
    assert "warning:" in capsys.readouterr().out
    assert main(["validate", "--strict", str(root)]) == 1


def test_json_output_is_machine_readable(tmp_path, capsys):
    root = write_folder(tmp_path / "p", data={k: v for k, v in DATA.items() if k != "profit"})
    assert main(["validate", "--json", str(root)]) == 2
    report = json.loads(capsys.readouterr().out)
    (finding,) = report[str(root)]
    assert finding["level"] == "error" and finding["where"] == "$.profit"


def test_fixed_bound_from_data_key_is_checked(tmp_path, capsys):
    snop = with_snop(input_format=SNOP["input_format"].replace("{\n", '{\n  "N": N,\n', 1))
    root = write_folder(tmp_path / "p", snop=snop, data={**DATA, "N": 3})
    assert main(["validate", "--strict", str(root)]) == 1
    assert "expected 3 items (N = 3 in data.json $.N), seen 2" in capsys.readouterr().out
    root = write_folder(tmp_path / "q", snop=snop, data={**DATA, "N": 2})
    assert main(["validate", "--strict", str(root)]) == 0


@pytest.mark.slow
def test_huge_data_file_is_checked_within_sensible_memory(tmp_path):
    """A 100 MB data.json with a key missing: still a clear error, exit 2, bounded memory."""
    root = write_folder(tmp_path / "p")
    row = json.dumps([1.2345678] * 1000)
    with open(root / "data.json", "w") as f:
        f.write('{"profit": [3, 5], "hours": [')
        f.write(",".join([row] * 9300))
        f.write("]}")
    assert (root / "data.json").stat().st_size > 100e6
    code = (
        "import resource, sys\nfrom optimus.commands.cli import main\nrc = main(['validate', sys.argv[1]])\n"
        "print('maxrss_kb', resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)\nsys.exit(rc)"
    )
    proc = subprocess.run([sys.executable, "-c", code, str(root)], check=False, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": str(Path(__file__).parent.parent)})
    assert proc.returncode == 2, proc.stderr
    assert "$.capacity" in proc.stdout and "data.json" in proc.stdout
    assert "$.hours" in proc.stdout  # 9300 rows where N = 2 (from $.profit)
    assert "Traceback" not in proc.stderr
    maxrss_mb = int(proc.stderr.split("maxrss_kb")[1].split()[0]) / 1024
    assert maxrss_mb < 2048, f"validating a 100 MB file used {maxrss_mb:.0f} MB"
