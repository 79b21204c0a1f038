#!/usr/bin/env sh
# Create (or reuse) the two venvs with LangGraph bigtool 0.0.3 for examples/langgraph-bigtool/driver.py.
#
#   scripts/install-bigtool.sh [default|working|both]   # both when no argument
#   scripts/install-bigtool.sh --relock [default|working|both]   # resolve afresh, rewrite the lock (maintainers only)
#
# default: what `pip install langgraph-bigtool==0.0.3` resolves (langgraph-prebuilt 1.1.x, where every
#          call of a found tool crashes: bigtool calls ToolNode.inject_tool_args, renamed in 1.0.2);
#          venv ${PAS_BIGTOOL_DEFAULT_VENV:-$HOME/.cache/pas/bigtool-default-venv}.
# working: `pip install langgraph-bigtool==0.0.3 langgraph-prebuilt==1.0.1`, the newest set that works;
#          venv ${PAS_BIGTOOL_WORKING_VENV:-$HOME/.cache/pas/bigtool-working-venv}.
# Every version comes from examples/langgraph-bigtool/constraints-<set>.txt (what pip resolved when
# the lock was written), so a fresh machine gets the same sets. Idempotent: a venv whose installed
# versions already match its lock is left alone. pip's cache is used (no --no-cache-dir).
set -eu
HERE="$(cd "$(dirname "$0")/.." && pwd)"
PYTHON="${PYTHON:-python3}"
RELOCK=""
if [ "${1:-}" = "--relock" ]; then RELOCK=1; shift; fi
WHICH="${1:-both}"

matches_lock() {  # venv lock: exit 0 when every "name==version" line of the lock is installed in the venv
    "$1/bin/python" - "$2" <<'PY'
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

install_set() {  # name venv requirements...
    name="$1"; venv="$2"; shift 2
    lock="$HERE/examples/langgraph-bigtool/constraints-$name.txt"
    if [ -n "$RELOCK" ]; then
        rm -rf "$venv"
        "$PYTHON" -m venv "$venv"
        "$venv/bin/python" -m pip install "$@"
        { echo "# pip freeze of: pip install $* ($(date -u +%Y-%m-%d), $("$venv/bin/python" -V))"; "$venv/bin/python" -m pip freeze; } > "$lock"
        echo "wrote $lock"
        return
    fi
    if [ -x "$venv/bin/python" ] && matches_lock "$venv" "$lock" 2>/dev/null; then
        echo "bigtool ($name set) already installed in $venv"
        return
    fi
    mkdir -p "$(dirname "$venv")"
    [ -x "$venv/bin/python" ] || "$PYTHON" -m venv "$venv"
    "$venv/bin/python" -m pip install -c "$lock" "$@"
    matches_lock "$venv" "$lock" || { echo "the venv at $venv does not match $lock after installing" >&2; exit 1; }
    echo "installed bigtool ($name set) in $venv"
    echo "driver: $venv/bin/python examples/langgraph-bigtool/driver.py"
}

case "$WHICH" in
    default|both) install_set default "${PAS_BIGTOOL_DEFAULT_VENV:-$HOME/.cache/pas/bigtool-default-venv}" \
                      "langgraph-bigtool==0.0.3" ;;
    working) ;;
    *) echo "usage: $0 [--relock] [default|working|both]" >&2; exit 2 ;;
esac
case "$WHICH" in
    working|both) install_set working "${PAS_BIGTOOL_WORKING_VENV:-$HOME/.cache/pas/bigtool-working-venv}" \
                      "langgraph-bigtool==0.0.3" "langgraph-prebuilt==1.0.1" ;;
esac
