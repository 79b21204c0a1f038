"""The shell commands the docs show, and which of them the docs test runs (test_docs_commands.py).

Every fenced ``sh``/``bash``/``shell``/``console`` block of every page (docs/**/*.md in both languages,
and README.md) is read: in a ``console`` block the lines after ``$ `` are commands and the rest is
their output; in the others every line is, ``\\`` continuing a line. A command runs unless a rule of
:data:`SKIPS` says why it cannot run from a fresh clone or a built wheel without a network: it names
your own implementation or files, publishes to a remote, or is covered by a test of its own. Any
other command runs, and must exit with status 0.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
_FENCE = re.compile(r"^(?P<indent>[ \t]*)```(?P<lang>sh|bash|shell|console)\b[^\n]*\n(?P<body>.*?)^(?P=indent)```[ \t]*$",
                    re.MULTILINE | re.DOTALL)


@dataclass(frozen=True, slots=True, kw_only=True)
class Command:
    """One command as a page shows it (continuation lines joined), with where it is."""

    text: str
    page: str
    line: int

    @property
    def key(self) -> str:
        """The command without a trailing comment: what runs (a translated comment changes nothing)."""
        return re.sub(r"(?:^|\s+)#(?![!{])[^'\"]*$", "", self.text).strip()


def pages() -> list[str]:
    """Every page that shows commands, relative to the repository root: README.md, then docs/ in path order."""
    return ["README.md", *sorted(p.relative_to(ROOT).as_posix() for p in DOCS.rglob("*.md"))]


def _lines(lang: str, body: str) -> list[tuple[int, str]]:
    """(offset, line) of the command lines of one block."""
    found = []
    for offset, line in enumerate(body.splitlines()):
        if lang == "console":
            if line.startswith("$ "):
                found.append((offset, line[2:]))
        elif line.strip() and not line.lstrip().startswith("#"):
            found.append((offset, line))
    return found


def commands(page: str) -> list[Command]:
    """The commands of ``page``, in order, each with the line it starts on."""
    text = (ROOT / page).read_text(encoding="utf-8")
    found: list[Command] = []
    for block in _FENCE.finditer(text):
        indent = len(block.group("indent"))
        body = "\n".join(line[indent:] for line in block.group("body").splitlines())
        first = text.count("\n", 0, block.start("body")) + 1
        pending: tuple[int, str] | None = None
        for offset, line in _lines(block.group("lang"), body):
            if pending is not None:
                pending = (pending[0], pending[1] + "\n" + line)
            else:
                pending = (offset, line)
            if not line.rstrip().endswith("\\"):
                found.append(Command(text=pending[1], page=page, line=first + pending[0]))
                pending = None
        if pending is not None:
            found.append(Command(text=pending[1], page=page, line=first + pending[0]))
    return found


# Why a command is not run: (pattern searched in the command, reason). Each must match some command.
SKIPS: tuple[tuple[str, str], ...] = (
    (r"myframework|mypackage|my-scheduler|my-host|my-session\.pas| listings/ |\./target/release/|path/to/|'cmd:node scheduler\.js'",
     "names your own implementation or files (a placeholder)"),
    (r"^(\.venv/bin/)?pas validate (--strict )?'?plugins/",
     "validates your own plugins/ folder, which a clone of PAS does not have"),
    (r"^pas validate manifests|^pas budget --plugins manifests",
     "reads the manifests pas extract wrote from your NekroAgent plugin (tests/conformance/tools/extract runs it on fixtures)"),
    (r"--plugins plugins/?( |$)", "reads the page's example host set-up, which is described, not shipped"),
    (r"\./\.github/pas|--format github plugins/",
     "runs in your repository, with PAS checked out at .github/pas (tests/docs/test_docs_workflows.py checks those recipes and runs the NekroAgent one)"),
    (r"mike (deploy|set-default)|git push|git switch gh-pages", "publishes the site to a remote branch"),
    (r"mkdocs build|pip install '\.\[docs\]'",
     "builds the site: tests/docs/test_docs_site_build.py runs mkdocs build --strict with the docs extra"),
    (r"(^|&& )\.venv/bin/python -m pytest\b", "runs this very test suite (the full command or the inner loop)"),
    (r"-- (uvx|npx -y) ",
     "starts a third-party MCP server that uvx or npx downloads (tests/conformance/tools/extract starts an SDK "
     "server of ours; bench/mcp_budget.py installs real ones into a cache)"),
)
RULE_PAGES = "docs/rules/"
RULE_PAGE_REASON = ("the rule page's example: tests/conformance/validate/test_validate_docs.py runs pas validate on it "
                    "and compares what it prints")


def skip_reason(command: Command) -> str | None:
    """Why ``command`` is not run, or None when it runs."""
    if command.page.startswith(RULE_PAGES):
        return RULE_PAGE_REASON
    return next((reason for pattern, reason in SKIPS if re.search(pattern, command.key, re.MULTILINE)), None)


def index_packages() -> list[str]:
    """Packages the commands that run install by name from an index (``pip install pygls``): the wheelhouse needs them."""
    names = set()
    for page in pages():
        for command in commands(page):
            if skip_reason(command) is not None:
                continue
            for part in re.split(r"&&|\|\||;|\|", command.key):
                words = part.split()
                if "pip" in " ".join(words[:-1]) and "install" in words:
                    after = words[words.index("install") + 1:]
                    names.update(w for w in after if re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.-]*(\[[A-Za-z0-9_,-]+\])?", w))
    return sorted(names)
