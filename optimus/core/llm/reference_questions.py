"""Offline answers to `optimus ask` for the reference backend: no language model at all.

A problem folder's `reference/questions/<id>/question.json` holds {"question": the words, "request": the typed
request a model would answer (optimus.commands.question), "words": optionally the paragraph a model would write}; the
folder may hold `formulation.md` and `solver.py` for a question that changes a statement (the variant's
reference program). The question in the prompt picks the entry (same words, case and spacing aside).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from optimus.core.errors import ConfigError

STAGES = ("ask", "ask_words")
_QUESTION = re.compile(r"<<<\n(.*?)\n>>>", re.DOTALL)


def normal(text: str) -> str:
    return " ".join(text.lower().split())


def find(reference_dir: Path, question: str) -> Path | None:
    """The reference/questions/<id>/ folder written for `question`, or None."""
    for entry in sorted((reference_dir / "questions").glob("*/question.json")):
        try:
            if normal(json.loads(entry.read_text()).get("question", "")) == normal(question):
                return entry.parent
        except (json.JSONDecodeError, UnicodeDecodeError, AttributeError):
            raise ConfigError(f"{entry}: not a JSON object with a \"question\"") from None
    return None


def answer(reference_dir: Path, stage: str, messages: list[dict]) -> str:
    """The request (stage ask) or the paragraph (stage ask_words) the folder's author wrote for the question."""
    match = _QUESTION.search(messages[-1]["content"])
    folder = find(reference_dir, match.group(1)) if match else None
    if folder is None:
        raise ConfigError(f"{reference_dir / 'questions'}: the reference backend answers only the questions written "
                          "there (question.json); this one is not (or use an OpenAI-compatible model)")
    entry = json.loads((folder / "question.json").read_text())
    if stage == "ask":
        return "```json\n" + json.dumps(entry.get("request"), indent=1) + "\n```\n"
    if not entry.get("words"):
        raise ConfigError(f"the reference backend has none ({folder.name}/question.json holds no \"words\")")
    return str(entry["words"])
