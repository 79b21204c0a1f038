#!/usr/bin/env sh
# Create (or reuse) a venv with Microsoft Agent Framework 1.23.0 and the MCP SDK 2.3.0 for
# examples/agent-framework/driver.py.
#
#   scripts/install-agent-framework.sh            # venv at ${PAS_MAF_VENV:-$HOME/.cache/pas/agent-framework-venv}
#   PAS_MAF_VENV=/some/dir scripts/install-agent-framework.sh
#   scripts/install-agent-framework.sh --relock   # resolve afresh and rewrite the lock file (maintainers only)
#
# Every version comes from examples/agent-framework/constraints.txt (what pip resolved when the lock
# was written), so a fresh machine gets the same set. Idempotent: a venv whose installed versions
# already match the lock is left alone. pip's cache is used (no --no-cache-dir).
# mcp and tenacity are not dependencies of agent-framework-core (only of its "all" extra), but its MCP
# tools need both: without tenacity, connecting an MCP tool fails.
set -eu
HERE="$(cd "$(dirname "$0")/.." && pwd)"
VENV="${PAS_MAF_VENV:-$HOME/.cache/pas/agent-framework-venv}"
PYTHON="${PYTHON:-python3}"
LOCK="$HERE/examples/agent-framework/constraints.txt"
REQUIREMENTS="agent-framework-core==1.23.0 mcp==2.3.0 tenacity>=9.1.4,<9.2.0"

matches_lock() {
    # Exit 0 when every "name==version" line of the lock is what the venv has installed.
    "$VENV/bin/python" - "$LOCK" <<'PY'
import importlib.metadata as m, sys
for line in open(sys.argv[1], encoding="utf-8"):
    line = line.split("#", 1)[0].strip()
    if not line:
        continue
    name, version = line.split("==")
    try:
        if m.version(name) != version:
            sys.exit(1)
    except m.PackageNotFoundError:
        sys.exit(1)
PY
}

if [ "${1:-}" = "--relock" ]; then
    rm -rf "$VENV"
    "$PYTHON" -m venv "$VENV"
    # shellcheck disable=SC2086 # the requirement words are split on purpose
    "$VENV/bin/python" -m pip install $REQUIREMENTS
    { echo "# pip freeze of: pip install $REQUIREMENTS ($(date -u +%Y-%m-%d), $("$VENV/bin/python" -V))"; "$VENV/bin/python" -m pip freeze; } > "$LOCK"
    echo "wrote $LOCK"
    exit 0
fi
if [ -x "$VENV/bin/python" ] && matches_lock 2>/dev/null; then
    echo "agent-framework-core 1.23.0 already installed in $VENV"
    exit 0
fi
mkdir -p "$(dirname "$VENV")"
[ -x "$VENV/bin/python" ] || "$PYTHON" -m venv "$VENV"
# shellcheck disable=SC2086
"$VENV/bin/python" -m pip install -c "$LOCK" $REQUIREMENTS
matches_lock || { echo "the venv at $VENV does not match $LOCK after installing" >&2; exit 1; }
echo "installed agent-framework-core 1.23.0 in $VENV"
echo "driver: $VENV/bin/python examples/agent-framework/driver.py"
