"""The releases of one implementation as a trend, for the Implementations page.

Pure functions of the data file's entries (see :mod:`conformance.docs_gen.implementations`):
the verdict of each release per profile, the scenarios whose verdict changed from one release
to the next (computed from the recorded runs), and the rule changes each release made (written
from its source, carried by the entry's ``changes``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from conformance.docs_gen._md import code, table

PASSING = frozenset({"passed"})
FAILING = frozenset({"xfailed", "failed", "errored", "stale"})

WORDS: dict[str, dict[str, Any]] = {
    "en": {
        "title": "{product} across its releases",
        "intro": ("Every release of {product} that has activation scheduling, run under today's suite with its own "
                  "expected-failures file. Counts are passed · expected failures · failed, per profile; *Changed* "
                  "is what the release changed in the rules the suite tests, read in its source."),
        "cols": ["Release", "`activation`", "`text`", "Passed", "Changed"],
        "not_run": "not run here",
        "moves": "Verdicts that changed from one release to the next (from the runs):",
        "move": "{before} → {after}: {gained} now pass{gained_ids}; {lost} now fail{lost_ids}.",
        "same": "{before} → {after}: no scenario changed its verdict.",
    },
    "zh": {
        "title": "{product} 各版本的变化",
        "intro": ("{product} 每个带有激活调度的版本，都用今天的测试套件和它自己的预期失败文件运行。计数为 通过 · 预期失败 · 失败，"
                  "按配置档给出；*变化* 是该版本对测试套件所检查规则的改动，读自其源代码。"),
        "cols": ["版本", "`activation`", "`text`", "通过", "变化"],
        "not_run": "此处未运行",
        "moves": "相邻版本之间结论发生变化的场景（来自实际运行）：",
        "move": "{before} → {after}：{gained} 个场景现在通过{gained_ids}；{lost} 个场景现在失败{lost_ids}。",
        "same": "{before} → {after}：没有场景的结论发生变化。",
    },
}


def groups(entries: Sequence[Mapping[str, Any]]) -> dict[str, list[Mapping[str, Any]]]:
    """Entries with a ``release_of``, by product, in the data's order (oldest release first)."""
    found: dict[str, list[Mapping[str, Any]]] = {}
    for entry in entries:
        if entry.get("release_of"):
            found.setdefault(entry["release_of"], []).append(entry)
    return found


def verdict_changes(before: Mapping[str, Any], after: Mapping[str, Any]) -> tuple[list[str], list[str]]:
    """(scenarios failing in ``before`` that pass in ``after``, scenarios passing in ``before`` that fail)."""
    old, new = before["results"], after["results"]
    gained = sorted(s for s, o in new.items() if o in PASSING and old.get(s) in FAILING)
    lost = sorted(s for s, o in new.items() if o in FAILING and old.get(s) in PASSING)
    return gained, lost


def _ids(ids: list[str], limit: int = 40) -> str:
    if not ids:
        return ""
    shown = ", ".join(code(s) for s in ids[:limit])
    return f" ({shown}{', …' if len(ids) > limit else ''})"


def _cell(entry: Mapping[str, Any], profile: str, counts: Any) -> str:
    tally = counts(entry, profile)
    return f"{tally['passed']} · {tally['expected']} · {tally['failed']}"


def _row(entry: Mapping[str, Any], counts: Any, words: Mapping[str, Any], lang: str) -> list[str]:
    link = f"[{entry['implementation']['version'] if entry['installed'] else entry['title']}](#{entry['key']})"
    changes = entry.get("changes") or ["", ""]
    changed = changes[0] if lang == "en" else changes[1]
    if not entry["installed"]:
        return [link, words["not_run"], words["not_run"], "", changed]
    claimed = [s for s, o in entry["results"].items() if o != "skipped"]
    passed = sum(1 for s in claimed if entry["results"][s] in PASSING)
    share = f"{passed} of {len(claimed)} ({passed / len(claimed):.0%})" if claimed else ""
    if lang == "zh" and claimed:
        share = f"{len(claimed)} 个中 {passed} 个（{passed / len(claimed):.0%}）"
    return [link, _cell(entry, "activation", counts), _cell(entry, "text", counts), share, changed]


def render_trend(product: str, entries: Sequence[Mapping[str, Any]], counts: Any, lang: str = "en") -> list[str]:
    """The trend section of one product: its table, then the verdicts that changed between releases."""
    words = WORDS[lang]
    anchor = product.lower().replace(" ", "-") + "-releases"
    lines = [f"## {words['title'].format(product=product)} {{ #{anchor} }}", "",
             words["intro"].format(product=product), ""]
    lines += table(words["cols"], [_row(e, counts, words, lang) for e in entries])
    ran = [e for e in entries if e["installed"]]
    if len(ran) > 1:
        lines += ([] if lines[-1] == "" else [""]) + [words["moves"], ""]
        for before, after in zip(ran, ran[1:]):
            gained, lost = verdict_changes(before, after)
            names = {"before": before["implementation"]["version"], "after": after["implementation"]["version"]}
            if not gained and not lost:
                lines.append("- " + words["same"].format(**names))
            else:
                lines.append("- " + words["move"].format(**names, gained=len(gained), gained_ids=_ids(gained),
                                                         lost=len(lost), lost_ids=_ids(lost)))
    return lines + [""]
