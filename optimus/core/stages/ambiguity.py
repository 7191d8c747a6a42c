"""ambiguity: two verified answers that differ → the statements their two formulations read differently.

One model call (prompts/ambiguity.txt) is shown the statements, the objective and the two formulations — never
data values, nor the answers' objective values — and names each statement read differently, with each reading in
one sentence. The answer is checked by code: every statement it names must exist and each reading must be a short
text. An answer that fails is reported as unusable, with why; nothing is made up in its place.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from optimus.core.errors import ConfigError, LLMError
from optimus.core.llm import CodeExtractionError, LLMClient
from optimus.core.llm.extract import json_answer
from optimus.core.prompts import messages, render
from optimus.core.snop import Snop
from optimus.core.stages.context import numbered

LABELS = ("A", "B")  # A: the answer reported (the larger group), B: the other
MAX_READING_CHARS = 500  # "one sentence": a longer reading is not what was asked for
_ID = re.compile(r"^\(?s(\d+)\)?$")


class Unusable(ValueError):
    """The model's comparison cannot be used; the message says why."""


@dataclass
class Difference:
    statement: str  # "s3", or "objective"
    text: str  # the statement as the user wrote it
    readings: dict[str, str]  # label (A, B) → how that formulation reads it, in one sentence

    def to_dict(self) -> dict:
        return {"statement": self.statement, "text": self.text, **self.readings}


@dataclass
class Comparison:
    differences: list[Difference] = field(default_factory=list)
    why: str = ""  # why the answer is unusable; "" when it is usable


def compare(client: LLMClient, snop: Snop, formulation_a: str, formulation_b: str) -> Comparison:
    """One exchange, stage "ambiguity"; a failed call or an unusable answer is a Comparison saying why."""
    pool = {"problem_type": snop.problem_type, "statements": numbered(snop.problem_info),
            "objective": snop.objective}
    prompt = render("ambiguity", pool, formulation_a=formulation_a.strip(), formulation_b=formulation_b.strip())
    try:
        answer = client.chat("ambiguity", messages(prompt), prompt.name, prompt.template_hash)
    except (LLMError, ConfigError) as exc:
        return Comparison(why=f"the model call failed: {exc}")
    try:
        return Comparison(parse(answer.text, snop, answer.finish_reason))
    except Unusable as exc:
        return Comparison(why=str(exc))


def parse(text: str, snop: Snop, finish_reason: str | None = None) -> list[Difference]:
    """The differences in a fenced or bare JSON answer, each checked; Unusable when any is wrong."""
    try:
        data = json_answer(text, finish_reason)
    except CodeExtractionError:
        raise Unusable("the answer was cut off before the JSON ended") from None
    entries = data.get("differences") if isinstance(data, dict) else data
    if not isinstance(entries, list) or not entries:
        raise Unusable('no JSON object with a non-empty "differences" list')
    found: dict[str, Difference] = {}
    for number, entry in enumerate(entries, 1):
        if not isinstance(entry, dict):
            raise Unusable(f"difference {number} is not an object")
        name = statement_id(entry.get("statement"), len(snop.problem_info))
        readings = {label: entry.get(label) for label in LABELS}
        for label, reading in readings.items():
            if not isinstance(reading, str) or not reading.strip():
                raise Unusable(f"{name}: no reading {label}")
            if len(reading) > MAX_READING_CHARS:
                raise Unusable(f"{name}: reading {label} is {len(reading)} characters, not one sentence")
        text = snop.objective if name == "objective" else snop.problem_info[int(name[1:]) - 1]
        found.setdefault(name, Difference(name, text, {k: " ".join(v.split()) for k, v in readings.items()}))
    return list(found.values())


def statement_id(value: object, count: int) -> str:
    """`s<n>` for a statement that exists (1 ≤ n ≤ count), or "objective"; Unusable otherwise."""
    if isinstance(value, str) and value.strip().lower() == "objective":
        return "objective"
    match = _ID.match(value.strip().lower()) if isinstance(value, str) else None
    if not match or not 1 <= int(match.group(1)) <= count:
        raise Unusable(f"it names statement {value!r}, but the statements are s1 to s{count}")
    return f"s{int(match.group(1))}"
