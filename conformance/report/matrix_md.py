"""The compatibility matrix as markdown (GitHub-flavoured tables), for a README or a CI summary."""

from __future__ import annotations

from conformance.report.matrix import NO_REQUIREMENT, Matrix

SYMBOLS = {"passed": "✅", "failed": "❌", "errored": "💥", "skipped": "⏭️", "xfailed": "🟡", "stale": "❗",
           "untested": "⚪", "declined": "⚠️", "": "—"}
LEGEND = ("✅ passed · ❌ failed · 💥 errored · ⏭️ skipped (profile not claimed, or not applicable under the declared "
          "options) · 🟡 expected failure · ❗ stale expected failure · ⚪ untested · ⚠️ declined by declaration (a "
          "hazard the implementation declares) · — not run")


def cell_text(text: str) -> str:
    """Text made safe for one markdown table cell: no pipes, no line breaks, no HTML."""
    return (text.replace("\\", "\\\\").replace("|", "\\|").replace("\r", " ").replace("\n", " ")
            .replace("<", "&lt;").replace(">", "&gt;"))


def _row(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def _overview(matrix: Matrix) -> list[str]:
    runs = matrix.runs
    lines = [_row(["", *(cell_text(r.label) for r in runs)]), _row(["---"] * (len(runs) + 1))]
    lines.append(_row(["language", *(cell_text(r.language or "—") for r in runs)]))
    lines.append(_row(["profiles", *(cell_text(", ".join(r.profiles) or "—") for r in runs)]))
    for outcome in ("passed", "failed", "errored", "skipped", "xfailed", "stale"):
        if any(r.counts.get(outcome) for r in runs):
            lines.append(_row([f"{SYMBOLS[outcome]} {outcome}", *(str(r.counts.get(outcome, 0)) for r in runs)]))
    return lines


def _table(matrix: Matrix) -> list[str]:
    runs = matrix.runs
    lines = [_row(["requirement / scenario", *(cell_text(r.label) for r in runs)]),
             _row(["---", *([":---:"] * len(runs))])]
    for group in matrix.groups:
        req = group.requirement
        head = f"**{cell_text(req.id)}**" if req.id != NO_REQUIREMENT else "**(no requirement)**"
        level = f" {req.level}" if req.level not in ("", "UNKNOWN") else ""
        verdicts = []
        for run in runs:
            verdict = matrix.verdict(run, req.id)
            verdicts.append(f"{SYMBOLS.get(verdict, '—')} {verdict}".strip() if verdict else "—")
        lines.append(_row([f"{head}{level} · {cell_text(req.title)}", *verdicts]))
        for sid in group.scenarios:
            cells = [SYMBOLS.get(run.cells[sid].outcome, "?") if sid in run.cells else "—" for run in runs]
            lines.append(_row([f"↳ `{cell_text(sid)}`", *cells]))
    return lines


def _details(matrix: Matrix) -> list[str]:
    lines = []
    for run in matrix.runs:
        for sid, cell in run.cells.items():
            if cell.outcome != "passed":
                why = f": {cell_text(cell.detail)}" if cell.detail else ""
                lines.append(f"- {SYMBOLS[cell.outcome]} `{cell_text(sid)}` on {cell_text(run.label)} — {cell.outcome}{why}")
    return lines


def render_matrix(matrix: Matrix) -> str:
    """The whole markdown page: an overview per implementation, the matrix, then every non-pass."""
    lines = ["# PAS compatibility matrix", "", *_overview(matrix), "", LEGEND, "", *_table(matrix)]
    details = _details(matrix)
    if details:
        lines += ["", "## Not passed", "", *details]
    return "\n".join(lines) + "\n"
