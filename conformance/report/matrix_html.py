"""The compatibility matrix as one self-contained HTML file: inline CSS, no script, no external asset.

Every text that came from a report (names, titles, failure details) is HTML-escaped, so a
hostile implementation name or observed value cannot inject markup.
"""

from __future__ import annotations

from html import escape

from conformance.report.matrix import NO_REQUIREMENT, Matrix

# Marks that every common font has (emoji glyphs are missing on many systems); colour says the rest.
SYMBOLS = {"passed": "✓", "failed": "✗", "errored": "!", "skipped": "–", "xfailed": "×", "stale": "!", "untested": "○",
           "declined": "⚠"}

_STYLE = """
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","Noto Sans CJK SC",sans-serif;margin:1.5rem;color:#1b1f24;background:#fff}
h1{font-size:1.4rem}h2{font-size:1.1rem;margin-top:2rem}
table{border-collapse:collapse;margin:.5rem 0}
th,td{border:1px solid #d0d7de;padding:.25rem .5rem;text-align:left;vertical-align:top}
thead th{position:sticky;top:0;background:#f6f8fa;z-index:1}
td.c{text-align:center;white-space:nowrap}
small{color:#57606a}
tr.group th,tr.group td{background:#eef2f7;font-weight:600}
tr.group .title{font-weight:400;color:#424a53}
.id{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em}
.passed{background:#dafbe1}.failed,.errored,.stale{background:#ffebe9}
.skipped,.untested,.none{background:#f6f8fa;color:#57606a}.xfailed,.declined{background:#fff8c5}
.legend span{margin-right:1rem;white-space:nowrap}
@media (prefers-color-scheme:dark){body{background:#0d1117;color:#e6edf3}th,td{border-color:#30363d}
thead th{background:#161b22}tr.group th,tr.group td{background:#1c2330}tr.group .title{color:#9da7b3}
.passed{background:#12361f}.failed,.errored,.stale{background:#4a1d1d}.xfailed,.declined{background:#3d3410}
.skipped,.untested,.none{background:#161b22;color:#9da7b3}}
"""


def _cell(outcome: str, detail: str = "") -> str:
    css = outcome or "none"
    label = f"{SYMBOLS.get(outcome, '?')} {outcome}" if outcome else "—"
    title = f' title="{escape(detail)}"' if detail else ""
    return f'<td class="c {escape(css)}"{title}>{escape(label)}</td>'


def _overview(matrix: Matrix) -> list[str]:
    rows = ['<table class="overview"><thead><tr><th></th>'
            + "".join(f"<th>{escape(r.label)}</th>" for r in matrix.runs) + "</tr></thead><tbody>"]
    rows.append("<tr><th>language</th>" + "".join(f"<td>{escape(r.language or '—')}</td>" for r in matrix.runs) + "</tr>")
    rows.append("<tr><th>profiles</th>"
                + "".join(f"<td>{escape(', '.join(r.profiles) or '—')}</td>" for r in matrix.runs) + "</tr>")
    rows.append("<tr><th>report</th>" + "".join(f'<td class="id">{escape(r.source)}</td>' for r in matrix.runs) + "</tr>")
    for outcome in ("passed", "failed", "errored", "skipped", "xfailed", "stale"):
        if any(r.counts.get(outcome) for r in matrix.runs):
            rows.append(f"<tr><th>{escape(SYMBOLS[outcome])} {outcome}</th>"
                        + "".join(f'<td class="c">{r.counts.get(outcome, 0)}</td>' for r in matrix.runs) + "</tr>")
    rows.append("</tbody></table>")
    return rows


def _matrix_rows(matrix: Matrix) -> list[str]:
    rows = []
    for group in matrix.groups:
        req = group.requirement
        name = "(no requirement)" if req.id == NO_REQUIREMENT else req.id
        level = f" {req.level}" if req.level not in ("", "UNKNOWN") else ""
        verdicts = "".join(_cell(matrix.verdict(run, req.id)) for run in matrix.runs)
        rows.append(f'<tr class="group" id="{escape(req.id)}"><th><span class="id">{escape(name)}</span>{escape(level)} '
                    f'<span class="title">{escape(req.title)}</span></th>{verdicts}</tr>')
        for sid in group.scenarios:
            cells = "".join(_cell(run.cells[sid].outcome, run.cells[sid].detail) if sid in run.cells else _cell("")
                            for run in matrix.runs)
            title = matrix.titles.get(sid, "")
            rows.append(f'<tr><td><span class="id">{escape(sid)}</span> <small>{escape(title)}</small></td>{cells}</tr>')
    return rows


def _details(matrix: Matrix) -> list[str]:
    items = [f'<li><span class="id">{escape(sid)}</span> on {escape(run.label)}: <strong>{escape(cell.outcome)}</strong>'
             + (f" — {escape(cell.detail)}" if cell.detail else "") + "</li>"
             for run in matrix.runs for sid, cell in run.cells.items() if cell.outcome != "passed"]
    return ["<h2>Not passed</h2>", "<ul>", *items, "</ul>"] if items else []


def render_matrix(matrix: Matrix) -> str:
    """A complete HTML page: overview, legend, the scenario x implementation matrix, every non-pass."""
    legend = "".join(f'<span class="{o}">{escape(SYMBOLS[o])} {o}</span>'
                     for o in ("passed", "failed", "errored", "skipped", "xfailed", "stale", "untested", "declined"))
    head = "".join(f'<th class="c">{escape(r.label)}</th>' for r in matrix.runs)
    parts = [
        "<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        "<title>PAS compatibility matrix</title>", f"<style>{_STYLE}</style></head><body>",
        "<h1>PAS compatibility matrix</h1>", *_overview(matrix),
        f'<p class="legend">{legend}</p>',
        f"<table class=\"matrix\"><thead><tr><th>requirement / scenario</th>{head}</tr></thead><tbody>",
        *_matrix_rows(matrix), "</tbody></table>", *_details(matrix), "</body></html>",
    ]
    return "\n".join(parts) + "\n"
