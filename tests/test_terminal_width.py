"""On a terminal, `optimus solve` wraps its lines at word boundaries to the terminal's width; into a pipe each fact
stays one line (what scripts and these tests read)."""

from __future__ import annotations

import fcntl
import json
import os
import pty
import re
import shutil
import struct
import subprocess
import sys
import termios

from optimus.core.problem import load_problem
from tests.helpers import NLP4LP, copy_problem

WIDTH = 60
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def on_a_terminal(args: list[str], width: int) -> str:
    """What the command writes to a pseudo-terminal `width` columns wide."""
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, width, 0, 0))
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=follower, stderr=follower, env=env)
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the follower side closed: the command ended
            break
        if not chunk:
            break
        chunks.append(chunk)
    proc.wait(timeout=600)
    os.close(leader)
    return ANSI.sub("", b"".join(chunks).decode(errors="replace")).replace("\r", "")


def test_lines_wrap_at_words_on_a_terminal_and_stay_whole_in_a_pipe(tmp_path):
    folder = copy_problem("12", tmp_path / "p12")
    args = [sys.executable, "-m", "optimus", "solve", str(folder), "--llm", "reference", "--mode", "prompt",
            "--sandbox", "process"]
    piped = subprocess.run(args, capture_output=True, text=True, timeout=600, check=False).stderr
    header = next(line for line in piped.splitlines() if line.startswith("optimus ") and " — mode " in line)
    assert len(header) > WIDTH  # the pipe keeps the fact on one line

    shown = on_a_terminal(args, WIDTH)
    lines = [line for line in shown.splitlines() if line.strip()]
    assert lines and max(len(line) for line in lines) <= WIDTH, max(lines, key=len)
    words = set(shown.split())
    split = [w for w in header.split() if w not in words and len(w) < WIDTH]
    assert not split, f"words broken across lines: {split}"


def test_show_all_lists_zero_decisions_too_and_the_verification_is_said_once(tmp_path):
    folder = copy_problem("12", tmp_path / "p12")
    base = [sys.executable, "-m", "optimus", "solve", str(folder), "--llm", "reference", "--mode", "debug",
            "--sandbox", "process"]
    shown = subprocess.run([*base, "--show", "all"], capture_output=True, text=True, timeout=600, check=False)
    output = json.loads((folder / "runs" / "latest" / "v0" / "attempt-01" / "output.json").read_text())
    every = len(output["open"]) + sum(len(row) for row in output["ship"]) + 1  # + total_cost
    rows = [line for line in shown.stderr.splitlines() if re.match(r"^    (open|ship|total_cost)", line)]
    assert len(rows) == every and any(re.match(r"^    ship\[\d+\]\[\d+\]\s+0$", line) for line in rows)
    summary = json.loads((folder / "runs" / "latest" / "report.json").read_text())["verification"]["summary"]
    assert shown.stderr.count(summary) == 2, shown.stderr  # the progress line and the result line, no third


def test_a_proven_infeasibility_says_each_fact_once(tmp_path):
    """The result line quotes the conflicting statements and the smallest relaxation; the diagnosis beneath adds
    only what it knows besides (the rows, the other limits), and no status meaning repeats "verified"."""
    folder = tmp_path / "inf"
    shutil.copytree(NLP4LP / "15-infeasible", folder, ignore=shutil.ignore_patterns("runs"))
    (folder / "expected.json").unlink()
    done = subprocess.run([sys.executable, "-m", "optimus", "solve", str(folder), "--llm", "reference",
                           "--sandbox", "process"], capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    statements = load_problem(folder).snop.problem_info
    batch = re.sub(r"\\(?:param|var)\{(\w+)\}", r"\1", statements[2])  # (s3), as the terminal quotes it
    assert done.stderr.count(batch) == 1, done.stderr
    assert done.stderr.count("smallest relaxation") + done.stderr.count("Smallest relaxation") == 1
    assert "verified: the re-solve or expected.json agrees" not in done.stderr


def test_one_quantity_is_one_number_where_the_resolve_differs_only_by_float_noise():
    from optimus.core.families.pulp.verify import judge
    from optimus.core.terminal import number

    raw = {"model": {"integers": 0, "sense": "min"},
           "highs": {"solver": "HiGHS", "status": "optimal", "objective": 6.13492965, "bound": 6.13492965}}
    claimed = {"status": "optimal", "objective": 6.13492955}
    assert number(6.13492965) != number(6.13492955)  # the two round apart at 8 digits
    verdict = judge(claimed, raw)
    assert verdict.outcome == "agrees" and f"optimal {number(6.13492955)} (HiGHS)" in verdict.summary
    milp = {**raw, "model": {"integers": 3, "sense": "min"}, "mip_gap": 0.05}
    apart = judge({"status": "optimal", "objective": 6.2}, milp)  # a MILP within the user's gap
    assert f"optimal {number(6.13492965)} (HiGHS)" in apart.summary  # a different value keeps its own
