"""Prompt templates: text files in optimus/core/prompts/ with `{{name}}` placeholders.

A placeholder with no value, or a value no placeholder takes, is an error — never an empty string.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

PROMPT_DIR = Path(__file__).parent / "prompts"
_PLACEHOLDER = re.compile(r"\{\{(\w+)\}\}")


class PromptError(KeyError):
    """A template and its values do not match: a bug in optimus, not in the user's input."""


@dataclass(frozen=True)
class Prompt:
    name: str
    text: str
    template_hash: str  # sha256 of the template file, logged with every call


@cache
def template(name: str) -> str:
    return (PROMPT_DIR / f"{name}.txt").read_text(encoding="utf-8")


def render(name: str, pool: dict[str, str] | None = None, **values: str) -> Prompt:
    """Fill template `name`. Keyword values must each have a placeholder; `pool` (the SNOP's parts) offers
    values the template may or may not use."""
    text = template(name)
    wanted = set(_PLACEHOLDER.findall(text))
    if unused := values.keys() - wanted:
        raise PromptError(f"prompt {name!r} has no placeholder for {sorted(unused)}")
    values = {**{k: v for k, v in (pool or {}).items() if k in wanted}, **values}
    if missing := wanted - values.keys():
        raise PromptError(f"prompt {name!r} needs values for {sorted(missing)}")
    rendered = _PLACEHOLDER.sub(lambda m: str(values[m.group(1)]), text)
    return Prompt(name, rendered, hashlib.sha256(text.encode()).hexdigest()[:16])


def messages(prompt: Prompt) -> list[dict]:
    return [{"role": "system", "content": template("system").strip()}, {"role": "user", "content": prompt.text}]
