"""review: a "no solution" the re-check proves is read against its statements once, before it is the answer.

A model whose captured form is infeasible (or unbounded), where the independent re-check agrees and the conflict
runs through the user's statements, is either the user's problem's true answer or the model's misreading ("at
least" written "≤"). One model call (prompts/review.txt) shows the statements the conflict runs through, the
formulation's lines and the program's lines that encode them, and the diagnosis in row and statement names —
never data values, nor the relaxation's numbers — and asks whether each row says what its statement says. A
misreading goes to one rewrite (the fix prompt, with the review's words as evidence); otherwise the loop stops
with the answer `answer()` words: "infeasible (verified): these statements cannot all hold: …".
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from optimus.core.diagnose import change_text
from optimus.core.errors import LLMError
from optimus.core.llm import CodeExtractionError
from optimus.core.llm.extract import json_answer
from optimus.core.prompts import render
from optimus.core.stages.context import Context
from optimus.core.terminal import quote

KINDS = ("infeasible", "unbounded", "no_plan")  # diagnoses that can explain a proven "no solution"
CONTEXT_LINES = 2  # program lines shown around each line that builds a conflicting row
MAX_PARSE_RETRIES = 1  # an unreadable answer is fed back once
SHAPE = '{"rows": [{"statement": "s3", "encoded_as_written": true, "why": "..."}], "misreading": false}'
EVIDENCE_HEAD = ("A review of the rows of the conflict: the solver found the model infeasible or unbounded, and "
                 "the review found rows that do not say what their statement says. Rewrite those rows as the "
                 "statements say; change nothing the review did not name, and never relax or drop a statement.")


class Unreadable(ValueError):
    """The answer cannot be read as the review; the message says why, for the model."""


@dataclass
class Review:
    """The model's reading of the conflict's rows against their statements."""

    statements: list[str] = field(default_factory=list)  # the statement ids shown ("s3", …)
    rows: list[dict[str, Any]] = field(default_factory=list)  # {"statement", "encoded_as_written", "why"}
    misreading: bool = False
    error: str | None = None  # no usable answer: nothing is taken as misread, and the report says why
    by: str = ""  # who answered, when it is not a language model (the offline reference backend)

    @property
    def summary(self) -> str:
        if self.error:
            return f"no usable answer ({self.error})"
        misread = [r["statement"] for r in self.rows if not r["encoded_as_written"]]
        said = (f"misreading found in {', '.join(misread)}" if self.misreading
                else f"each row says what its statement says ({', '.join(self.statements)})")
        return f"{said} — {self.by}" if self.by else said

    def evidence(self) -> str:
        return EVIDENCE_HEAD + "\n" + "\n".join(f"- ({r['statement']}) {r['why']}" for r in self.rows
                                                if not r["encoded_as_written"])

    def to_dict(self) -> dict[str, Any]:
        return {"statements": self.statements, "rows": self.rows, "misreading": self.misreading,
                "error": self.error, **({"by": self.by} if self.by else {})}


def explained(diagnosis: dict | None) -> bool:
    """Whether a diagnosis names the user's statements the conflict (or the missing bound) runs through."""
    return bool(diagnosis and diagnosis.get("kind") in KINDS and diagnosis.get("statements"))


def review(ctx: Context, formulation: str, code: str, status: str, diagnosis: dict) -> Review:
    """One exchange, stage "review" (an unreadable answer is fed back once); never raises for the model's
    failures: without a usable answer nothing counts as misread."""
    ids = [s for s in diagnosis["statements"] if re.fullmatch(r"s\d+", s)]
    numbers = [int(s[1:]) for s in ids]
    statements = ctx.snop.problem_info
    prompt = render("review", ctx.spec_values(), status=status, lang=ctx.family.lang,
                    conflict="\n".join(quote(k, statements) for k in numbers),
                    diagnosis=conflict_words(diagnosis), formulation_rows=formulation_lines(formulation, numbers),
                    code_rows=code_lines(code, numbers, diagnosis.get("rows") or []))
    by = replayed_by(ctx)
    extra: list[dict] = []
    try:
        for _ in range(MAX_PARSE_RETRIES + 1):
            answer = ctx.ask("review", prompt, extra)
            try:
                rows, misreading = parse(answer.text, len(statements), answer.finish_reason)
                return Review(ids, rows, misreading, by=by)
            except Unreadable as exc:
                extra += [{"role": "assistant", "content": answer.text},
                          {"role": "user", "content": f"Your answer could not be read: {exc}. Reply with one "
                                                      f"```json block in this shape:\n{SHAPE}"}]
                last = exc
    except LLMError as exc:
        return Review(ids, error=f"the model gave no answer: {exc}", by=by)
    return Review(ids, error=f"no readable answer after {MAX_PARSE_RETRIES + 1} answers ({last})", by=by)


def parse(text: str, count: int, finish_reason: str | None = None) -> tuple[list[dict[str, Any]], bool]:
    """The rows and the misreading flag of an answer; Unreadable saying what is wrong."""
    try:
        data = json_answer(text, finish_reason)
    except CodeExtractionError:
        raise Unreadable("the answer was cut off before the JSON ended") from None
    if not isinstance(data, dict) or not isinstance(data.get("misreading"), bool):
        raise Unreadable('no JSON object with "misreading": true or false')
    rows = data.get("rows", [])
    if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
        raise Unreadable('"rows" must be a list of objects')
    out = []
    for r in rows:
        sid = str(r.get("statement", "")).strip("() ")
        if not re.fullmatch(r"s\d+", sid) or not 1 <= int(sid[1:]) <= count:
            raise Unreadable(f"{r.get('statement')!r} is no statement id (s1 … s{count})")
        if not isinstance(r.get("encoded_as_written"), bool):
            raise Unreadable(f'{sid}: "encoded_as_written" must be true or false')
        out.append({"statement": sid, "encoded_as_written": r["encoded_as_written"], "why": str(r.get("why", ""))})
    misreading = data["misreading"] and any(not r["encoded_as_written"] for r in out)
    if data["misreading"] and not misreading:
        raise Unreadable('"misreading" is true but no row has "encoded_as_written": false')
    return out, misreading


def replayed_by(ctx: Context) -> str:
    if getattr(ctx.client.backend, "name", "") == "reference":
        return "the offline reference backend's answer (reference/review.json, else no misreading), not a model's"
    return ""


def conflict_words(diagnosis: dict) -> str:
    """The diagnosis in names only: which rows conflict, or which variables run unbounded (no numbers)."""
    if diagnosis["kind"] == "unbounded":
        variables = ", ".join(diagnosis.get("variables", [])[:8]) or "some variables"
        return (f"the objective improves without limit along {variables}; the statements above are the ones that "
                "should bound them")
    rows = diagnosis.get("rows") or []
    if diagnosis["kind"] == "no_plan":
        return (f"the planner proves that no plan exists; in the model of the longest horizon tried, the rows "
                f"{', '.join(rows[:12]) or 'of these statements'} cannot all hold")
    shown = ", ".join(rows[:12]) + (f" and {len(rows) - 12} more" if len(rows) > 12 else "")
    proven = "an irreducible" if diagnosis.get("irreducible", True) else "a (not proven irreducible)"
    return f"the rows {shown} form {proven} set that cannot all hold"


def _mentions(line: str, numbers: list[int]) -> bool:
    return any(re.search(rf"(?<![A-Za-z0-9])s{k}(?![0-9])", line) for k in numbers)


def formulation_lines(formulation: str, numbers: list[int]) -> str:
    """The formulation's lines that name one of the statements (s3, (s3), s3_…); all of it when none does."""
    lines = [line for line in formulation.splitlines() if _mentions(line, numbers)]
    return "\n".join(lines) if lines else formulation.strip()


def code_lines(code: str, numbers: list[int], rows: list[str]) -> str:
    """The program's lines that name a conflicting row or statement, with CONTEXT_LINES around each (gaps
    marked `…`); the whole program when none does."""
    lines = code.splitlines()
    stems = {re.sub(r"(_\d+)+$", "", r) for r in rows}
    hits = [i for i, line in enumerate(lines) if _mentions(line, numbers) or any(s and s in line for s in stems)]
    if not hits:
        return code.rstrip()
    keep = sorted({j for i in hits for j in range(max(0, i - CONTEXT_LINES), min(len(lines), i + CONTEXT_LINES + 1))})
    out, last = [], -1
    for j in keep:
        if last >= 0 and j != last + 1:
            out.append("…")
        out.append(lines[j])
        last = j
    return "\n".join(out)


def answer(status: str, diagnosis: dict, statements: list[str], data: dict | None, run_dir: str) -> str:
    """The verdict of a proven "no solution": what cannot hold, the smallest relaxation, the repair command."""
    quoted = ", ".join(quote(int(s[1:]), statements) for s in diagnosis["statements"] if re.fullmatch(r"s\d+", s))
    if diagnosis["kind"] == "no_plan":
        head = (f"infeasible (verified): no plan exists; in the model of the longest horizon these statements cannot "
                f"all hold: {quoted}")
    elif status == "unbounded":
        head = f"unbounded (verified): the objective improves without limit; the statements that should bound it: {quoted}"
    else:
        head = f"infeasible (verified): these statements cannot all hold: {quoted}"
    relax = diagnosis.get("relaxation") or {}
    changes = [change_text(c, statements, data) for c in relax.get("changes", [])]
    smallest = f"; smallest relaxation: {'; '.join(changes)}" if changes else ""
    repair = f"; to change the problem: optimus repair {run_dir}" if diagnosis["kind"] != "no_plan" else ""
    return f"{head}{smallest}{repair}"
