"""assess: after a run passes its tests, the model rates its own steps (LLMFP's self-assessment stage).

One prompt shows the statements, the formulation, the program (the family's artifact) and what the run
wrote (output.json and solution.json, cut short; never data.json) and asks for a score per step, 1 or 0, with
a reason. A 0 sends that step back: the formulation is written again (and the program with it), the program
is fixed. The reasons are the model's judgement, not a failed check, and the prompts that carry them say so.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from optimus.core.assumptions import folder_assumptions
from optimus.core.datause import as_prompt
from optimus.core.errors import LLMError
from optimus.core.llm import CodeExtractionError
from optimus.core.llm.extract import json_answer
from optimus.core.prompts import render
from optimus.core.stages import codegen as cg
from optimus.core.stages.context import Context

STEPS = ("formulation", "code", "output")
MAX_ROUNDS = 2  # assessments per statement variant: each 0 sends a step back once more
MAX_RESULT_CHARS = 2000  # output.json and solution.json together, as the prompt shows them
MAX_PARSE_RETRIES = 1  # an unreadable verdict is fed back once

SHAPE = '{"steps": [{"step": "formulation", "score": 1, "reason": "..."}, {"step": "code", "score": 0, ' \
        '"reason": "..."}, {"step": "output", "score": 1, "reason": "..."}]}'
PARSE_FEEDBACK = ("Your answer could not be read as the assessment: {problem}. Reply with one ```json block "
                  "holding exactly this shape, one entry per step (formulation, code, output), score 1 or 0, "
                  "and a reason for each:\n")
# The evidence a rewrite gets: labelled, because nothing the harness measured failed.
LABEL = ("A self-assessment, not a failed check: every harness check and test of this run passed, but a review "
         "of the work by the model rated these steps 0. The reasons are a judgement and may be wrong: change "
         "only what the statements bear out.")


class VerdictError(ValueError):
    """The answer holds no usable verdict; the message says what is wrong, for the model."""


@dataclass
class Score:
    step: str
    score: int
    reason: str


@dataclass
class Assessment:
    scores: list[Score] = field(default_factory=list)
    error: str | None = None  # no usable verdict: nothing is doubted, and the report says why
    by: str = ""  # who scored, when it is not a model: the offline reference backend replays its folder's answer

    @property
    def doubted(self) -> list[Score]:
        return [s for s in self.scores if s.score == 0]

    @property
    def summary(self) -> str:
        if self.error:
            return f"no verdict ({self.error})"
        scores = ", ".join(f"{s.step} {s.score}" for s in self.scores)
        return f"{scores} — {self.by}" if self.by else scores

    def evidence(self) -> str:
        return LABEL + "\n" + "\n".join(f"- {s.step}: {s.reason}" for s in self.doubted)

    def to_dict(self) -> dict[str, Any]:
        return {"scores": [vars(s) for s in self.scores], "error": self.error, **({"by": self.by} if self.by else {})}


def assess(ctx: Context, formulation: str, code: str, output: dict | None, solution: dict | None,
           warnings: list[dict] | None = None) -> Assessment:
    """Ask for the verdict; an answer that cannot be read is fed back once. Never raises for the model's
    failures: a run its tests verified stays verified when the review cannot be had. The prompt also shows
    what the result rests on (the folder's assumptions) and the run's warnings (data nothing read)."""
    assumed = "\n".join(f"- {a['about']}: {a['assumption']}" for a in folder_assumptions(ctx.problem)) or "(none)"
    prompt = render(ctx.family.prompt_name("assess"), ctx.spec_values(), formulation=formulation.strip(),
                    code=code.rstrip(), lang=ctx.family.lang, results=results(output, solution),
                    assumptions=assumed, warnings=as_prompt(warnings or []))
    extra: list[dict] = []
    try:
        for _ in range(MAX_PARSE_RETRIES + 1):
            answer = ctx.ask("assess", prompt, extra)
            try:
                return Assessment(parse_verdict(answer.text, answer.finish_reason), by=scorer(ctx))
            except VerdictError as exc:
                extra += [{"role": "assistant", "content": answer.text},
                          {"role": "user", "content": PARSE_FEEDBACK.format(problem=exc) + SHAPE}]
                last = exc
    except LLMError as exc:
        return Assessment(error=f"the model gave no answer: {exc}")
    return Assessment(error=f"no readable verdict after {MAX_PARSE_RETRIES + 1} answers ({last})")


def scorer(ctx: Context) -> str:
    """Who gave the scores, said wherever they show, when it is not a language model."""
    if getattr(ctx.client.backend, "name", "") == "reference":
        return "scores replayed by the offline reference backend, not a model's judgement"
    return ""


def revise(ctx: Context, formulation: str, code: str, verdict: Assessment) -> tuple[str, str] | None:
    """Send the doubted step back: a doubted formulation is written again and the program regenerated from it;
    a doubted program or output goes to fix. Returns the (formulation, program) to run next, or None when the
    model gives no usable rewrite (the program its tests verified then stands)."""
    try:
        if any(s.step == "formulation" for s in verdict.doubted):
            prompt = render(ctx.family.prompt_name("reformulate"), ctx.spec_values(),
                            formulation=formulation.strip(), evidence=verdict.evidence())
            formulation = ctx.ask("reformulate", prompt).text.strip() + "\n"
            return formulation, cg.codegen(ctx, formulation)
        return formulation, cg.fix(ctx, formulation, code, verdict.evidence())
    except LLMError:
        return None


def results(output: dict | None, solution: dict | None, limit: int = MAX_RESULT_CHARS) -> str:
    """output.json and solution.json as the program wrote them, each cut to half the budget."""
    return "\n".join(cut_short(name, value, limit // 2)
                     for name, value in (("output.json", output), ("solution.json", solution)))


def cut_short(name: str, value: object, limit: int) -> str:
    """`name: {json}`, the JSON cut to `limit` characters (and saying how many more there were)."""
    text = json.dumps(value, indent=None, default=str)
    if len(text) > limit:
        text = text[:limit] + f" … ({len(text) - limit} more characters not shown)"
    return f"{name}: {text}"


def parse_verdict(text: str, finish_reason: str | None = None) -> list[Score]:
    """The scores in a fenced or bare JSON answer: {"steps": [...]} or the list itself, one entry per step."""
    try:
        data = json_answer(text, finish_reason)
    except CodeExtractionError:
        raise VerdictError("the answer was cut off before the JSON ended") from None
    if isinstance(data, dict):
        data = data.get("steps")
    if not isinstance(data, list):
        raise VerdictError('no JSON object with a "steps" list found')
    scores: dict[str, Score] = {}
    for entry in data:
        if not isinstance(entry, dict) or entry.get("step") not in STEPS:
            continue
        score, reason = entry.get("score"), entry.get("reason")
        if isinstance(score, str) and score.strip() in ("0", "1"):
            score = int(score)
        if score not in (0, 1):
            raise VerdictError(f'step {entry["step"]}: score {score!r} is not 1 or 0')
        if not isinstance(reason, str) or not reason.strip():
            raise VerdictError(f'step {entry["step"]}: no reason given')
        scores[entry["step"]] = Score(entry["step"], int(score), reason.strip())
    missing = [s for s in STEPS if s not in scores]
    if missing:
        raise VerdictError(f"no score for {', '.join(missing)}")
    return [scores[s] for s in STEPS]

