"""codegen, debug and fix: every answer that must be a program goes through `ask_for_code`.

The repair loop is one mechanism for every kind of evidence: evidence in, corrected program out.
"""

from __future__ import annotations

from optimus.core.errors import LLMError
from optimus.core.llm import CodeExtractionError, extract_code
from optimus.core.prompts import Prompt, render
from optimus.core.stages.context import Context

# How often an answer without a usable program is sent back before the stage gives up.
MAX_EXTRACTION_RETRIES = 2


def codegen(ctx: Context, formulation: str) -> str:
    prompt = render(ctx.family.prompt_name("codegen"), ctx.spec_values(), formulation=formulation)
    return ask_for_code(ctx, "codegen", prompt, ctx.family.lang)


def debug(ctx: Context, formulation: str, code: str, evidence: str) -> str:
    prompt = render(ctx.family.prompt_name("debug"), ctx.spec_values(), formulation=formulation,
                    code=code.rstrip(), evidence=evidence)
    return ask_for_code(ctx, "debug", prompt, ctx.family.lang)


def fix(ctx: Context, formulation: str, code: str, evidence: str) -> str:
    prompt = render(ctx.family.prompt_name("fix"), ctx.spec_values(), formulation=formulation,
                    code=code.rstrip(), evidence=evidence)
    return ask_for_code(ctx, "fix", prompt, ctx.family.lang)


def direct(ctx: Context) -> str:
    """The baseline: the solution itself (a planning family's plan, as JSON), no model of it in between."""
    prompt = render(ctx.family.prompt_name("direct"), ctx.spec_values())
    return ask_for_code(ctx, "direct", prompt, "json")


def ask_for_code(ctx: Context, stage: str, prompt: Prompt, lang: str = "python") -> str:
    """Ask, extract the program; an answer with none is fed back with what was wrong, a bounded number of times."""
    extra: list[dict] = []
    for _ in range(MAX_EXTRACTION_RETRIES + 1):
        answer = ctx.ask(stage, prompt, extra)
        try:
            return extract_code(answer.text, finish_reason=answer.finish_reason, lang=lang)
        except CodeExtractionError as exc:
            extra += [{"role": "assistant", "content": answer.text}, {"role": "user", "content": exc.feedback}]
            last = exc
    raise LLMError(f"{stage}: the model gave no usable program after {MAX_EXTRACTION_RETRIES + 1} answers "
                   f"({last.reason})")
