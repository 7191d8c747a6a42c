"""The numbers a request writes, read the way people write them — and where a number in data.json comes from.

Read: signs (-3.5, −2 with the Unicode minus, "minus 4"), thousands (1,234.5), percent (12 %), fractions (3/4),
scales (1.5k, 2 million), scientific notation (−1.3730183823943952e-04, 2.5 × 10^6: one number, never a mantissa
and an exponent), number words ("twenty-five", by text2num), a typesetting slip ("7. 2" is 7.2, or 7 and 2), clock
times (10:57:43, 9 am) and dates (2024-03-05, March 5, 2024). Not read at all: ordinals (2nd), digits glued to a
name (s4, CO2) and subscripts (x[3], x_3, x_{3}). Read as indices (kind "index": they label, they are not data,
and the number check finds nothing about them): list enumerations ("1." or "(2)" opening a line, "(1) … (2)" in
running text), and runs of consecutive integers that label a table's columns ("i 1 2 3 … 15") or its rows (lines
opening 1, 2, 3, …).

Each `Written` keeps the text it was read from and every value it can stand for (`readings`): 12 % is 12 or
0.12, 2 million is 2000000 or 2, a clock time its hours, minutes and seconds since midnight and its parts.
Differences of two clock times or two dates (`derived`) trace a converted number back to both texts.
Matching is by magnitude: whether a cost of −3 is stored as −3 or as a profit of 3 is the model's reading.
"""

from __future__ import annotations

import math
import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field, replace
from datetime import date
from itertools import combinations
from typing import Any

_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_MONTH = r"(?P<month>jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?"
_SCALES = {"k": 1e3, "thousand": 1e3, "million": 1e6, "mn": 1e6, "billion": 1e9, "bn": 1e9, "trillion": 1e12}
# Spans blanked before numbers are read: subscripts, then the compound forms each read on their own.
_SUBSCRIPT = re.compile(r"(?<=\w)(?:\[\s*\d+(?:\s*,\s*\d+)*\s*\]|_\{?\d+\}?)")
_CLOCK = re.compile(r"(?<![\d:.])(\d{1,2}):(\d{2})(?::(\d{2}))?(?![\d:])")
_ISO_DATE = re.compile(r"(?<!\d)(\d{4})-(\d{1,2})-(\d{1,2})(?!\d)")
_SLASH_DATE = re.compile(r"(?<![\d/])(\d{1,2})/(\d{1,2})/(\d{2}|\d{4})(?![\d/])")
_WORD_DATE = re.compile(rf"\b{_MONTH}\s+(?P<day>\d{{1,2}})(?:st|nd|rd|th)?(?:,?\s+(?P<year>\d{{4}}))?\b"
                        rf"|\b(?P<day2>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH.replace('month', 'month2')}"
                        rf"(?:,?\s+(?P<year2>\d{{4}}))?\b", re.IGNORECASE)
_AM_PM = re.compile(r"(?<![\d:.])(\d{1,2})(?:[:.](\d{2}))?\s*([ap])\.?m\b\.?", re.IGNORECASE)  # 9 am, 5:30 pm
# Indices: an enumeration opening a line ("1.", "2)", "(3)"), one in running text, a token of a table's line.
_ENUM_LINE = re.compile(r"^[ \t]*(?:[-*•][ \t]*)?(?:\((\d{1,3})\)|(\d{1,3})[.)])(?=[ \t]+[^\d\s])", re.MULTILINE)
_ENUM_INLINE = re.compile(r"(?<![\w(])\((\d{1,2})\)(?=\s)")
_TOKEN = re.compile(r"[^\s|,;]+")
_ELLIPSIS = ("…", "...", "⋯", "..")
MIN_RUN = 3  # consecutive integers that make a run of labels
_FRACTION = re.compile(r"(?<![\w./])(\d+)\s*/\s*(\d+)(?![\w./])")
_NUMBER = re.compile(
    r"(?P<sign>(?<![\w.)\]])[-−](?=\.?\d)|\b(?:minus|negative)\s+)?"
    r"(?<![\w.])(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)(?!\d)"
    r"(?P<exp>[eE][-+−]?\d+(?!\d)|\s*[×x·*]\s*10\s*(?:\^|\*\*)\s*\(?[-+−]?\d+\)?)?"
    r"(?P<slip>\.\s(?P<tail>\d+)(?![\d.,]\d))?"
    r"(?P<ordinal>st|nd|rd|th\b)?"
    r"(?P<scale>k\b|\s*(?:thousand|million|mn|billion|bn|trillion)\b)?"
    r"(?P<percent>\s*(?:%|percent\b|per\s+cent\b))?", re.IGNORECASE)
REL_TOL = 1e-9
ROUNDING = 0.05  # the most a computed value can be rounded by (to one decimal) and still be close()


@dataclass(frozen=True)
class Written:
    """A number as the request writes it: its text, its plain value and every other value it can stand for."""

    text: str
    value: float
    percent: bool = False
    alternatives: tuple[float, ...] = ()
    kind: str = "number"  # number | clock (seconds since midnight) | date (an ordinal day) | index (a label)
    at: int = -1  # where the text starts in the request; -1 for a number written in words

    @property
    def readings(self) -> tuple[float, ...]:
        more = (self.value / 100,) if self.percent else ()
        return (self.value, *more, *self.alternatives)


@dataclass(frozen=True)
class Derived:
    """A value computed from two written ones (the minutes between two clock times), with both sources."""

    value: float
    how: str
    sources: tuple[Written, ...] = field(default=())


def numbers_in(text: str) -> list[Written]:
    """Every number `text` writes, in the order found by kind: indices, clock times, dates, fractions, then the
    rest. An index is read (a data value may be traced to it) but has kind "index"."""
    text = _SUBSCRIPT.sub(lambda m: " " * len(m.group(0)), text)
    found = indices(text)
    chars = list(text)  # masked in one pass: a pasted table has thousands of labels
    for w in found:
        chars[w.at:w.at + len(w.text)] = "\u00a4" * len(w.text)
    text = "".join(chars)
    for pattern, read in ((_AM_PM, _am_pm), (_CLOCK, _clock), (_ISO_DATE, _iso_date), (_SLASH_DATE, _slash_date),
                          (_WORD_DATE, _word_date), (_FRACTION, _fraction), (_NUMBER, _number)):
        found += [replace(w, at=m.start()) for m in pattern.finditer(text) if (w := read(m)) is not None]
        text = pattern.sub(lambda m: "\u00a4" * len(m.group(0)), text)  # taken: each text is read once
    found += [w for m in _NUMBER.finditer(_words_to_digits(text)) if (w := _number(m)) is not None]
    return found


def indices(text: str) -> list[Written]:
    """The integers `text` writes as labels: enumerations and the runs of a table's row and column labels."""
    spans: dict[int, tuple[str, int]] = {}  # start → (text, value)
    for m in _ENUM_LINE.finditer(text):
        group = 1 if m.group(1) else 2
        spans[m.start(group) - (group == 1)] = (m.group(0).strip().lstrip("-*• \t"), int(m.group(group)))
    inline = [(m.start(), m.group(0), int(m.group(1))) for m in _ENUM_INLINE.finditer(text)]
    values = {v for _, _, v in inline}
    for at, written, v in inline:  # "(2)" is an enumeration when "(1)" or "(3)" is written too
        if v - 1 in values or v + 1 in values:
            spans.setdefault(at, (written, v))
    for at, written, v in _column_labels(text) + _row_labels(text):
        spans.setdefault(at, (written, v))
    return [Written(t, float(v), kind="index", at=at) for at, (t, v) in sorted(spans.items())]


def _integer(token: str) -> int | None:
    return int(token) if token.isdigit() and len(token) <= 6 else None


def _column_labels(text: str) -> list[tuple[int, str, int]]:
    """A line that is one label at most, then a run of at least MIN_RUN integers to its end, each one more than
    the last (an ellipsis may skip ahead), starting at 0 or 1: a table's column labels ("i 1 2 3 … 15",
    "| 1 | 2 | 3 |"). The same run inside a sentence ("orders of 1 2 3 units") is data."""
    out, offset = [], 0
    for line in text.splitlines(keepends=True):
        tokens = [(offset + m.start(), m.group(0)) for m in _TOKEN.finditer(line)]
        offset += len(line)
        numeric = [(at, t) for at, t in tokens if t not in _ELLIPSIS]
        first = next((i for i, (_, t) in enumerate(numeric) if _integer(t) in (0, 1)), None)
        if first is None or first > 1 or len(numeric) - first < MIN_RUN:
            continue
        run, last, skipped = [], None, False
        for at, t in tokens[tokens.index(numeric[first]):]:
            if t in _ELLIPSIS:
                skipped = True
                continue
            value = _integer(t)
            if value is None or (last is not None and value != last + 1 and not (skipped and value > last)):
                run = []
                break
            run.append((at, t, value))
            last, skipped = value, False
        out += run
    return out


def _row_labels(text: str) -> list[tuple[int, str, int]]:
    """The first tokens of at least MIN_RUN successive lines reading 0 or 1, then one more each: row labels."""
    out: list[tuple[int, str, int]] = []
    run: list[tuple[int, str, int]] = []
    offset = 0
    for line in text.splitlines(keepends=True):
        m = _TOKEN.search(line)
        value = _integer(m.group(0)) if m else None
        if value is not None and run and value == run[-1][2] + 1:
            run.append((offset + m.start(), m.group(0), value))
        else:
            out += run if len(run) >= MIN_RUN else []
            run = [(offset + m.start(), m.group(0), value)] if value in (0, 1) and m else []
        offset += len(line)
    return out + (run if len(run) >= MIN_RUN else [])


def _words_to_digits(text: str) -> str:
    from text_to_num import alpha2digit

    return alpha2digit(text, "en", threshold=2)  # "two" and up; "one" is mostly prose


def _number(m: re.Match) -> Written | None:
    if m.group("ordinal"):
        return None
    sign = -1.0 if m.group("sign") else 1.0
    value = float(m.group("num").replace(",", "")) * _power(m.group("exp"))
    alternatives: tuple[float, ...] = ()
    if m.group("slip"):  # "7. 2": a decimal point set loose, or a sentence ending on 7 before a 2
        alternatives = (value, float(m.group("tail")))
        value = float(f"{m.group('num').replace(',', '')}.{m.group('tail')}")
    if m.group("scale"):
        alternatives = (*alternatives, sign * value)
        value *= _SCALES[m.group("scale").strip().lower()]
    return Written(m.group(0).strip(), sign * value, bool(m.group("percent")), alternatives)


def _power(exponent: str | None) -> float:
    """The factor an exponent writes: e-04, E5, × 10^6, x10^(-3)."""
    if not exponent:
        return 1.0
    digits = re.search(r"[-+−]?\d+\)?$", exponent.strip()).group(0).rstrip(")").replace("−", "-")
    return 10.0 ** int(digits)


def _am_pm(m: re.Match) -> Written | None:
    h, mi = int(m.group(1)), int(m.group(2) or 0)
    if not 1 <= h <= 12 or mi > 59:
        return None
    h = h % 12 + (12 if m.group(3).lower() == "p" else 0)
    seconds = h * 3600 + mi * 60
    return Written(m.group(0), seconds, alternatives=(seconds / 60, seconds / 3600, float(h), float(mi),
                                                      float(m.group(1))), kind="clock")


def _clock(m: re.Match) -> Written | None:
    h, mi, s = int(m.group(1)), int(m.group(2)), int(m.group(3) or 0)
    if h > 24 or mi > 59 or s > 59:
        return None
    seconds = h * 3600 + mi * 60 + s
    parts = (float(h), float(mi)) + ((float(s),) if m.group(3) else ())
    return Written(m.group(0), seconds, alternatives=(seconds / 60, seconds / 3600, *parts), kind="clock")


def _day(m: re.Match, year: int, month: int, day: int) -> Written | None:
    try:
        d = date(year, month, day)
    except ValueError:
        return None
    day_of_year = d.timetuple().tm_yday
    return Written(m.group(0).strip(), float(d.toordinal()), kind="date",
                   alternatives=(float(day_of_year), float(year), float(month), float(day), float(year % 100)))


def _iso_date(m: re.Match) -> Written | None:
    return _day(m, int(m.group(1)), int(m.group(2)), int(m.group(3)))


def _slash_date(m: re.Match) -> Written | None:
    a, b, year = int(m.group(1)), int(m.group(2)), int(m.group(3))
    year += 2000 if year < 100 else 0
    return _day(m, year, a, b) or _day(m, year, b, a)  # month first, else day first


def _word_date(m: re.Match) -> Written | None:
    month = _MONTHS.index((m.group("month") or m.group("month2"))[:3].lower()) + 1
    day, year = int(m.group("day") or m.group("day2")), m.group("year") or m.group("year2")
    found = _day(m, int(year) if year else 2001, month, day)  # no year: a common year, for the day of year
    if found and not year:
        found = Written(found.text, found.alternatives[0], kind="date",
                        alternatives=(float(month), float(day)))
    return found


def _fraction(m: re.Match) -> Written | None:
    top, bottom = int(m.group(1)), int(m.group(2))
    if bottom == 0:
        return None
    return Written(m.group(0), top / bottom, alternatives=(float(top), float(bottom)))


def derived(written: list[Written]) -> list[Derived]:
    """Differences of two clock times (seconds, minutes, hours) and of two dates (days), with their sources."""
    out = []
    for kind, units in (("clock", (("seconds", 1), ("minutes", 60), ("hours", 3600))), ("date", (("days", 1),))):
        points = [w for w in written if w.kind == kind][:60]  # pairs grow as the square
        for a, b in combinations(points, 2):
            for unit, size in units if a.value != b.value else ():
                out.append(Derived(abs(a.value - b.value) / size, f"{unit} from {a.text} to {b.text}", (a, b)))
    return out


# ---- matching -------------------------------------------------------------------------------------------


def close(a: float, b: float) -> bool:
    """Equal in magnitude, or `b` is a computed value with endless digits (657.7166… minutes, 1/3) and `a` is
    it rounded to the digits `a` is written with (657.72, 0.333). A value the request writes (3.94) must be
    copied as written: 3.9 is not close to it."""
    a, b = abs(float(a)), abs(float(b))
    if math.isclose(a, b, rel_tol=REL_TOL, abs_tol=1e-12):
        return True
    if round(b, 6) == b or "e" in repr(a):
        return False
    decimals = len(repr(a).split(".")[1].rstrip("0"))
    return 0 < decimals <= 4 and abs(a - b) <= 0.5 * 10 ** -decimals + 1e-9


class Held:
    """Numbers to look readings up in, quickly when data.json holds 10^5 of them: a value the request writes
    by a set of magnitudes, a computed one (endless digits) among the values sorted near it."""

    def __init__(self, values: list[float]):
        self.sorted = sorted(abs(float(v)) for v in values)
        self.keys = {_key(v) for v in self.sorted}

    def holds(self, reading: float) -> bool:
        b = abs(float(reading))
        if round(b, 6) == b:
            return _key(b) in self.keys
        lo, hi = bisect_left(self.sorted, b - ROUNDING), bisect_right(self.sorted, b + ROUNDING)
        return any(close(a, b) for a in self.sorted[lo:hi])


def _key(x: float) -> float:
    return float(f"{abs(x):.9g}")  # equal to 9 significant digits: REL_TOL's reach


def numbers_with_paths(value: Any, path: str = "") -> list[tuple[str, float]]:
    """Every number in a JSON value with where it is: ("cost[3]", 7.2), ("cap.north", 12)."""
    if isinstance(value, bool):
        return []
    if isinstance(value, (int, float)):
        return [(path, float(value))]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in numbers_with_paths(v, f"{path}[{i}]")]
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in numbers_with_paths(v, f"{path}.{k}" if path else str(k))]
    return []


def list_lengths(value: Any) -> set[float]:
    if isinstance(value, list):
        return {float(len(value))} | {n for v in value for n in list_lengths(v)}
    if isinstance(value, dict):
        return {float(len(value))} | {n for v in value.values() for n in list_lengths(v)}
    return set()


def source_of(value: float, written: list[Written], extra: list[Derived]) -> str | None:
    """The request's text a data value was read from (or computed from), or None."""
    for w in written:
        if any(close(value, r) for r in w.readings):
            return w.text
    for d in extra:
        if close(value, d.value):
            return d.how
    return None
