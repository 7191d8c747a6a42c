"""Pull the program out of a model's answer, or say (in words for the model) why there is none.

Rules, in order:
1. finish_reason "length", or a fence that is opened and never closed: the answer was cut off. Never
   trusted, even if some block parses: CodeExtractionError asking for the complete program.
2. Fenced blocks (``` or ~~~, CommonMark style: a fence line opens, a line of the same character at least
   as long closes). Blocks tagged with the language win; untagged blocks count only if they look like a
   program. Of several, the LONGEST is taken (ties: the last): models that sketch a fragment and then give
   the full program, or append a usage snippet, are common; a short final "fix" snippet is rarer, and a
   fragment would fail the run anyway, where the repair loop catches it.
3. No fences: the whole answer, if it parses as a Python program; else the stretch from the first line that
   starts like code (import/from/def/class/#!) to the end, if that parses.
4. Otherwise: CodeExtractionError "no program found".
The code comes back with surrounding blank lines removed and exactly one trailing newline.
"""

from __future__ import annotations

import ast
import json
import re
import textwrap
from dataclasses import dataclass
from typing import Any

from optimus.core.errors import LLMError

_FENCE = re.compile(r"^(?P<indent> {0,3})(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>[^`\s]*)[^`]*$")
_CODE_START = re.compile(r"^(import \w|from [\w.]+ import |def \w|class \w|#!|@\w)")

LANG_TAGS = {"python": {"python", "py", "python3", "py3"}, "pddl": {"pddl", "lisp", "scheme"}}

TRUNCATED_FEEDBACK = (
    "Your answer was cut off before the program ended (it hit the output length limit or the code block "
    "was never closed). Reply with the complete program in one ```{lang} block and nothing else; keep it "
    "short: no explanations, no commented-out code."
)
NO_CODE_FEEDBACK = (
    "Your answer contained no {lang} program. Reply with the complete program in one ```{lang} block."
)


class CodeExtractionError(LLMError):
    """No usable program in an answer. `feedback` is the message to send back to the model."""

    def __init__(self, reason: str, feedback: str, text: str) -> None:
        super().__init__(f"could not extract code: {reason}")
        self.reason, self.feedback, self.text = reason, feedback, text


@dataclass
class _Block:
    info: str
    body: str
    closed: bool


def _blocks(text: str) -> list[_Block]:
    lines = text.splitlines()
    blocks: list[_Block] = []
    i = 0
    while i < len(lines):
        m = _FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        fence, indent = m["fence"], len(m["indent"])
        body: list[str] = []
        j = i + 1
        closed = False
        while j < len(lines):
            stripped = lines[j].strip()
            if (
                stripped
                and set(stripped) == {fence[0]}
                and len(stripped) >= len(fence)
                and (len(lines[j]) - len(lines[j].lstrip()) <= 3)
            ):
                closed = True
                break
            body.append(lines[j])
            j += 1
        src = "\n".join(body)
        blocks.append(_Block(m["info"].lower(), textwrap.dedent(src) if indent else src, closed))
        i = j + 1
    return blocks


def looks_like_program(src: str) -> bool:
    """Parses as Python and does something: not just an expression (a JSON sample, a word of prose)."""
    try:
        tree = ast.parse(src)
    except (SyntaxError, ValueError):
        return False
    return any(not isinstance(s, ast.Expr) or isinstance(s.value, ast.Call) for s in tree.body)


def looks_like_pddl(src: str) -> bool:
    """A PDDL file: starts with `(define` (after comments) and its parentheses balance."""
    code = "\n".join(line.split(";", 1)[0] for line in src.splitlines())
    depth = 0
    for char in code:
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth < 0:
            return False
    return depth == 0 and re.match(r"\s*\(\s*define\b", code, re.IGNORECASE) is not None


def _looks_like(src: str, lang: str) -> bool:
    """Whether an untagged block counts as a program in `lang`."""
    return {"python": looks_like_program, "pddl": looks_like_pddl}.get(lang, lambda _: True)(src)


def _tidy(src: str) -> str:
    lines = src.splitlines()
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    return "\n".join(lines) + "\n"


def _unfenced(text: str) -> str | None:
    if looks_like_program(text):
        return text
    lines = text.splitlines()
    for k, line in enumerate(lines):
        if _CODE_START.match(line):
            tail = "\n".join(lines[k:])
            return tail if looks_like_program(tail) else None
    return None


def extract_code(text: str, finish_reason: str | None = None, lang: str = "python") -> str:
    """The program in `text`; raises CodeExtractionError (with `.feedback` for the model) when there is none."""
    tags = LANG_TAGS.get(lang, {lang})
    truncated = CodeExtractionError("answer truncated", TRUNCATED_FEEDBACK.format(lang=lang), text)
    if finish_reason == "length":
        raise truncated
    blocks = _blocks(text)
    if any(not b.closed for b in blocks):
        raise truncated
    if blocks:
        tagged = [b.body for b in blocks if b.info in tags]
        untagged = [b.body for b in blocks if not b.info and _looks_like(b.body, lang)]
        candidates = [c for c in (tagged or untagged) if c.strip()]
        if candidates:
            # max() keeps the first of equal keys; reversing makes ties go to the last block.
            return _tidy(max(reversed(candidates), key=len))
    elif lang == "python":
        code = _unfenced(text)
        if code is not None:
            return _tidy(code)
    elif lang == "pddl" and "(define" in text.lower():  # an unfenced problem file, perhaps after a sentence
        start = text.lower().index("(define")
        if looks_like_pddl(text[start:]):
            return _tidy(text[start:])
    raise CodeExtractionError(f"no {lang} program found", NO_CODE_FEEDBACK.format(lang=lang), text)


def json_answer(text: str, finish_reason: str | None = None) -> Any:
    """The JSON in an answer, fenced or bare: the whole body, else its first object or list that parses (None:
    none). Raises CodeExtractionError only when the answer was cut off."""
    try:
        body = extract_code(text, finish_reason=finish_reason, lang="json")
    except CodeExtractionError as exc:
        if exc.reason == "answer truncated":
            raise
        body = text
    try:
        return json.loads(body)
    except json.JSONDecodeError:
        pass
    decoder = json.JSONDecoder()
    for i, char in enumerate(body):
        if char in "{[":
            try:
                return decoder.raw_decode(body, i)[0]
            except json.JSONDecodeError:
                continue
    return None
