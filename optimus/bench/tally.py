"""Small helpers every section of summary.md shares: the modes present in the rows, and a percentage cell."""

from __future__ import annotations

from optimus.core.stages import BASELINE_MODES, MODES


def pct(k: int, n: int) -> str:
    return f"{100 * k / n:.1f}% ({k}/{n})" if n else "–"


def modes_of(rows: list[dict]) -> list[str]:
    present = {r["mode"] for r in rows}
    return [m for m in MODES + BASELINE_MODES if m in present]
