"""summary.md's section for --samples K: how far agreement among samples can be trusted, and the ambiguity rows.

Per mode: success of the majority answer (the bench's verdict on the chosen sample), the share of problems whose
K samples all agree, how often disagreement coincided with a wrong answer (both ways round), and calls and tokens
per sample. Then every row whose two largest groups differed: the answers, the expected objective and the
statements the ambiguity report names.
"""

from __future__ import annotations

from optimus.bench.tally import modes_of, pct


def samples_section(rows: list[dict]) -> list[str]:
    sampled = [r for r in rows if r.get("samples")]
    if not sampled:
        return []
    lines = ["", "## Samples: agreement per mode", "",
             ("| mode | problems | samples | majority answer success | full agreement | disagreement | of those "
              "wrong | wrong answers with disagreement | no sample verified | LLM calls / sample | tokens / sample | "
              "programs not run again |"),
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for mode in modes_of(sampled):
        these = [r for r in sampled if r["mode"] == mode]
        k = sum(r["samples"]["k"] for r in these)
        verdict = [r["samples"]["agreement"] for r in these]
        split = [r for r in these if r["samples"]["agreement"] == "split"]
        wrong = [r for r in these if not r["success"]]
        calls = sum(sum(r["samples"]["calls"]) for r in these)
        tokens = sum(sum(r["samples"]["tokens"]) for r in these)
        lines.append(
            f"| {mode} | {len(these)} | {k} | {pct(sum(r['success'] for r in these), len(these))} | "
            f"{pct(verdict.count('full'), len(these))} | {pct(len(split), len(these))} | "
            f"{pct(sum(not r['success'] for r in split), len(split))} | "
            f"{pct(sum(r['samples']['agreement'] == 'split' for r in wrong), len(wrong))} | "
            f"{pct(verdict.count('none'), len(these))} | {calls / k:.1f} | {tokens / k:.0f} | "
            f"{sum(r['samples']['duplicates'] for r in these)} |")
    lines += ["", ("*Majority answer*: the largest group of verified samples agreeing on status and objective (ties: "
                   "the earliest sample), judged like any row. *Full agreement*: all K samples verified and in one "
                   "group. *Disagreement*: some verified, but not all K in one group (two verified answers, or "
                   "verified and unverified samples). *No sample verified*: nothing to agree on (e.g. a QP in mode "
                   "prompt: no re-solve, no tests). *Programs not run again*: samples whose first program was an "
                   "earlier sample's (whitespace aside); they join its result.")]
    return lines + two_answers(sampled)


def two_answers(rows: list[dict]) -> list[str]:
    """The rows with an ambiguity report: two verified answers that differ."""
    found = [r for r in rows if r["samples"].get("ambiguity")]
    lines = ["", "### Two answers: the statements read differently", ""]
    if not found:
        return lines + ["- none: wherever two samples were verified, they agreed", ""]
    lines += ["| problem | mode | answers (objective × samples) | expected | statements read differently |",
              "| --- | --- | --- | --- | --- |"]
    for r in found:
        groups = r["samples"]["groups"]
        answers = " · ".join(f"{g['objective'] if g['objective'] is not None else g['status']} × {len(g['samples'])}"
                             f" (s{', s'.join(map(str, g['samples']))})" for g in groups)
        ambiguity = r["samples"]["ambiguity"]
        named = (", ".join(ambiguity["statements"]) if ambiguity["usable"]
                 else f"unusable comparison: {ambiguity['why']}".replace("|", "/")[:140])
        expected = (r.get("expected") or {}).get("objective")
        lines.append(f"| {r['problem']} | {r['mode']} | {answers} | {expected} | {named} |")
    return lines + [""]
