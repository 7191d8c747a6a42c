"""Tables carry their descriptions (issue 29): data/README.md's words reach every prompt that sees the data summary,
never a value; a described table or column data/ lacks is a warning; a CSV thousands of columns wide is read in
bounded memory and reaches the first model call."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from optimus.commands.cli import main
from optimus.core import tabledocs
from optimus.core.validate import validate
from tests.test_tables import mix_folder

ROOT = Path(__file__).resolve().parents[1]
# Values of a table the program never needs: they must never reach a prompt.
SUPPLIER, PRICE = "Quizzlewick Forge", 271828.5
README = """# The workshop's tables
All money is in euros.
## products.csv
One row per product the workshop can make.
- name: the product's name
- profit: the profit of one unit, in euros
- `hours`: the hours of work one unit takes,
  counted in whole hours
## limits.csv
One row per limit on the week's work.
- resource: which limit the row sets
- available: how much of it there is
## data/suppliers.csv
One row per supplier of raw steel.
- supplier: who sells it
- price: the price of a tonne
"""
COLUMN_LINES = ["- profit: the profit of one unit, in euros",
                "- hours: the hours of work one unit takes, counted in whole hours",
                "- available: how much of it there is", "- price: the price of a tonne"]


def described_folder(root: Path) -> Path:
    folder = mix_folder(root, "csv")
    (folder / "data" / "suppliers.csv").write_text(f"supplier,price\n{SUPPLIER},{PRICE}\nOther Mill,12.5\n")
    (folder / "data" / "README.md").write_text(README)
    return folder


def test_the_parser_reads_sections_rows_and_column_lines():
    preamble, docs = tabledocs.parse(README)
    assert preamble == ["All money is in euros."]
    assert [d.file for d in docs] == ["products.csv", "limits.csv", "suppliers.csv"]
    assert docs[0].about == ["One row per product the workshop can make."]
    assert docs[0].columns["hours"] == "the hours of work one unit takes, counted in whole hours"
    assert list(docs[2].columns) == ["supplier", "price"]


def test_descriptions_reach_formulate_and_codegen_never_a_value(tmp_path):
    folder = described_folder(tmp_path / "p")
    assert main(["solve", str(folder), "--llm", "reference", "--sandbox", "process", "--mode", "prompt"]) == 0
    transcript = (folder / "runs" / "latest" / "transcript.jsonl").read_text()
    prompts = {}
    for line in transcript.splitlines():
        record = json.loads(line)
        prompts[record["stage"]] = "\n".join(m["content"] for m in record["messages"])
    assert {"formulate", "codegen"} <= prompts.keys()
    for stage in ("formulate", "codegen"):
        for column_line in COLUMN_LINES:
            assert column_line in prompts[stage], (stage, column_line)
        assert "One row per supplier of raw steel." in prompts[stage] and "All money is in euros." in prompts[stage]
    assert "csv module" not in prompts["codegen"]
    for value in (SUPPLIER, "Quizzlewick", "271828", "Other Mill", "gear", "shaft", "valve"):
        assert value not in transcript, value


def test_a_described_table_or_column_data_lacks_is_a_warning_naming_readme(tmp_path, capsys):
    folder = described_folder(tmp_path / "p")
    (folder / "data" / "README.md").write_text(README + "- weight: the weight of one unit\n## ghosts.csv\n"
                                              "- haunt: where\n")
    findings = validate(folder)
    warnings = [str(f) for f in findings if f.level == "warning" and f.file.endswith("README.md")]
    assert any("suppliers.csv: weight" in w and "data/suppliers.csv does not have" in w for w in warnings), warnings
    assert any("ghosts.csv" in w and "a section for a table" in w for w in warnings), warnings
    assert not [f for f in findings if f.level == "error"]
    assert main(["validate", str(folder)]) == 0
    assert "README.md: ghosts.csv" in capsys.readouterr().out
    # a column the text names and the table lacks stays an error
    snop = json.loads((folder / "snop.json").read_text())
    snop["input_format"] += "\ndata/suppliers.csv(supplier, weight)"
    (folder / "snop.json").write_text(json.dumps(snop))
    assert main(["validate", str(folder)]) == 2
    assert "column 'weight' is named" in capsys.readouterr().out


WIDE_SOLVER = """import json
json.dump({"make": {}}, open("output.json", "w"))
json.dump({"status": "optimal", "objective": 0.0, "values": {}}, open("solution.json", "w"))
"""


def wide_folder(root: Path, columns: int = 8000, rows: int = 300) -> Path:
    folder = mix_folder(root, "csv")
    with open(folder / "data" / "wide.csv", "w") as fh:
        fh.write(",".join(["site"] + [f"d{j}" for j in range(1, columns)]) + "\n")
        fh.writelines(",".join([f"s{i}"] + [str((i * 31 + j) % 97) for j in range(1, columns)]) + "\n"
                      for i in range(rows))
    (folder / "data" / "README.md").write_text("## wide.csv\nOne row per site; a column per day.\n"
                                               "- site: the site's name\n- d1: the first day's demand\n")
    (folder / "reference" / "solver.py").write_text(WIDE_SOLVER)
    return folder


def test_a_csv_of_8000_columns_validates_and_reaches_the_first_model_call(tmp_path):
    folder = wide_folder(tmp_path / "w")
    optimus = str(Path(sys.executable).parent / "optimus")
    done = subprocess.run([optimus, "validate", str(folder)], capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    done = subprocess.run([optimus, "solve", str(folder), "--llm", "reference", "--sandbox", "process", "--mode",
                           "prompt"], capture_output=True, text=True, timeout=600, check=False)
    transcript = folder / "runs" / "latest" / "transcript.jsonl"
    assert transcript.is_file(), done.stdout + done.stderr
    first = json.loads(transcript.read_text().splitlines()[0])
    prompt = first["messages"][-1]["content"]
    assert first["stage"] == "formulate"
    assert "data/wide.csv: 300 rows; 8000 columns: site VARCHAR, d1 … d7999 BIGINT (7999 columns)" in prompt
    assert "- d1: the first day's demand" in prompt and "s17" not in prompt
    assert "with Python's csv module, row by row" in prompt  # how to read it, only beside a wide table
    assert len(prompt) < 8000  # the width is a figure of the summary, not a column name per column


# ---- optimus new --data: a section per table -----------------------------------------------------------

DEPOTS = "depot,open_cost\nnorth,1250\nsouth,980.5\n"


def new_with_tables(tmp_path: Path, scripted_llm, answer: dict, *data: Path) -> Path:
    from tests.test_new import FIXTURES

    scripted_llm.enqueue("new", f"```json\n{json.dumps(answer)}\n```\n")
    dest = tmp_path / "truck"
    args = [a for p in data for a in ("--data", str(p))]
    assert main(["new", str(dest), "--from", str(FIXTURES / "csv" / "request.txt"), *args, "--llm", "openai",
                 "--base-url", scripted_llm.base_url, "--yes"]) == 0
    return dest


def csv_answer() -> dict:
    from tests.test_new import FIXTURES

    return json.loads((FIXTURES / "csv" / "reference" / "new.json").read_text())


def test_new_writes_a_section_per_table_with_the_models_words_or_placeholders(tmp_path, scripted_llm):
    (tmp_path / "shipments.csv").write_text("weight,volume\n120.5,3.25\n88,1.5\n")
    (tmp_path / "depots.csv").write_text(DEPOTS)
    words = {"shipments.csv": {"row": "One row per shipment of the season.",
                               "columns": {"weight": "the shipment's weight, in kg"}}}
    dest = new_with_tables(tmp_path, scripted_llm, {**csv_answer(), "tables": words},
                           tmp_path / "shipments.csv", tmp_path / "depots.csv")
    _, docs = tabledocs.parse((dest / "data" / "README.md").read_text())
    by_file = {d.file: d for d in docs}
    assert set(by_file) == {"shipments.csv", "depots.csv"}
    assert by_file["shipments.csv"].about == ["One row per shipment of the season."]
    assert by_file["shipments.csv"].columns["weight"] == "the shipment's weight, in kg"
    assert list(by_file["depots.csv"].columns) == ["depot", "open_cost"]  # the user's to fill
    assert all(t.startswith(tabledocs.PLACEHOLDER) for t in by_file["depots.csv"].columns.values())
    from optimus.core.tables import summary

    text = summary(dest)
    assert "  - weight: the shipment's weight, in kg" in text and tabledocs.PLACEHOLDER not in text
    warnings = [str(f) for f in validate(dest) if f.file.endswith("README.md")]
    assert any("depots.csv" in w and "placeholder" in w and "depot, open_cost" in w for w in warnings), warnings
    assert not any("shipments.csv: line" in w and "column(s) weight" in w for w in warnings)


def test_new_keeps_the_users_readme_and_shows_its_words_to_the_model(tmp_path, scripted_llm):
    given = tmp_path / "given"
    given.mkdir()
    (given / "shipments.csv").write_text("weight,volume\n120.5,3.25\n88,1.5\n")
    (given / "depots.csv").write_text(DEPOTS)
    readme = ("## shipments.csv\nOne row per shipment.\n- weight: its weight, in kg\n- volume: its volume, in m3\n"
              "## depots.csv\nOne row per depot we may open.\n- open_cost: the cost of opening it, in euros\n")
    (given / "README.md").write_text(readme)
    dest = new_with_tables(tmp_path, scripted_llm, csv_answer(), given)
    assert (dest / "data" / "README.md").read_text() == readme
    prompt = scripted_llm.requests[0].messages[-1]["content"]
    assert "  - open_cost: the cost of opening it, in euros" in prompt and "One row per depot we may open." in prompt
    for value in ("120.5", "980.5", "north", "1250"):
        assert value not in json.dumps([r.body for r in scripted_llm.requests])


def test_a_wide_tables_line_names_runs_of_columns():
    from optimus.core.tables import MAX_SHOWN, runs

    # a transposed table's numbered columns, whole numbers among them, are one run; a text column breaks it
    columns = [("site", "VARCHAR")] + [(f"C{i:05d}", "BIGINT" if i % 7 == 0 else "DOUBLE") for i in range(1, 1001)]
    assert runs(columns) == "site VARCHAR, C00001 … C01000 BIGINT or DOUBLE (1000 columns)"
    assert runs([("x1", "DOUBLE"), ("x2", "VARCHAR"), ("x3", "DOUBLE")]) == "x1 DOUBLE, x2 VARCHAR, x3 DOUBLE"
    named = [(f"{chr(97 + i % 26)}{chr(97 + i // 26)}", "DOUBLE") for i in range(MAX_SHOWN + 40)]  # no numbers
    assert runs(named).endswith(", and 40 more (40 DOUBLE)")


def horizon_folder(root: Path, weeks: int, alike: bool = True) -> Path:
    """A transposed table of one column per week, each described (alike but for the week's number, or not)."""
    (root / "data").mkdir(parents=True)
    (root / "data.json").write_text(json.dumps({"cost": 3}))
    names = [f"w{k:02d}" for k in range(1, weeks + 1)]
    (root / "data" / "hours.csv").write_text(",".join(names) + "\n" + ",".join(str(40 + k) for k in range(weeks))
                                             + "\n")
    words = [f"the hours the line may run in week {k}" if alike or k % 3 else f"week {k}'s hours, overtime included"
             for k in range(1, weeks + 1)]
    (root / "data" / "README.md").write_text("## hours.csv\nOne row: the line's hours, a column per week.\n"
                                             + "".join(f"- {n}: {w}\n" for n, w in zip(names, words)))
    return root


def test_a_longer_horizon_leaves_the_summary_as_long_as_it_was(tmp_path):
    from optimus.core.tables import summary

    short, long = (summary(horizon_folder(tmp_path / str(w), w)) for w in (24, 48))
    assert len(long) == len(short)  # "w01 … w24" and "w01 … w48": the same length
    assert "- data/hours.csv: 1 rows; columns w01 … w48 BIGINT (48 columns)" in long
    assert "  - w01 … w48: the hours the line may run in week 1 … 48" in long
    assert "w17" not in long  # no column of the run is listed by itself


def test_columns_described_unalike_are_each_shown(tmp_path):
    from optimus.core.tables import summary

    text = summary(horizon_folder(tmp_path, 12, alike=False))
    assert "  - w03: week 3's hours, overtime included" in text
    assert "  - w01: the hours the line may run in week 1" in text
    assert "columns w01 … w12 BIGINT (12 columns)" in text  # the schema line still runs them together
    three = summary(horizon_folder(tmp_path / "three", 3))
    assert "w01 BIGINT, w02 BIGINT, w03 BIGINT" in three and "  - w02: the hours the line may run in week 2" in three
