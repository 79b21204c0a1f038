#!/usr/bin/env sh
# Create (or reuse) a venv with NekroAgent for examples/nekroagent/adapter.py, one venv per version.
#
#   scripts/install-nekroagent.sh                # 2.4.0, venv at ${PAS_NEKRO_VENV:-$HOME/.cache/pas/nekroagent-venv}
#   scripts/install-nekroagent.sh 2.3.1          # one version: $HOME/.cache/pas/nekroagent-2.3.1-venv
#   scripts/install-nekroagent.sh all            # the five releases with activation scheduling, 2.3.0 .. 2.4.0
#   PAS_NEKRO_VERSION=2.3.0 scripts/install-nekroagent.sh
#   scripts/install-nekroagent.sh --venv 2.3.1   # print where that version's venv is, install nothing
#
# 2.4.0 keeps its old place (.ci/run and tests/support/nekro_venv.py look there);
# PAS_NEKRO_VENV moves only the 2.4.0 venv. Idempotent: a venv that already has the version is
# left alone. pip's cache is used (no --no-cache-dir), so installing again after deleting a venv
# is fast. Needs Python 3.11 (NekroAgent's requirement): set PYTHON=python3.11 if python3 differs.
set -eu
DEFAULT="2.4.0"
ALL="2.3.0 2.3.1 2.3.2 2.3.3 2.4.0"
PYTHON="${PYTHON:-python3}"

venv_of() {
    if [ "$1" = "$DEFAULT" ]; then
        echo "${PAS_NEKRO_VENV:-$HOME/.cache/pas/nekroagent-venv}"
    else
        echo "$HOME/.cache/pas/nekroagent-$1-venv"
    fi
}

install_one() {
    version="$1"
    venv="$(venv_of "$version")"
    if [ -x "$venv/bin/python" ] && "$venv/bin/python" -c "import importlib.metadata as m, sys; sys.exit(m.version('nekro-agent') != '$version')" 2>/dev/null; then
        echo "nekro-agent $version already installed in $venv"
        return 0
    fi
    mkdir -p "$(dirname "$venv")"
    [ -x "$venv/bin/python" ] || "$PYTHON" -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --upgrade pip
    "$venv/bin/python" -m pip install --quiet "nekro-agent==$version"
    echo "installed nekro-agent $version in $venv"
    echo "adapter command: $venv/bin/python examples/nekroagent/adapter.py"
}

if [ "${1:-}" = "--venv" ]; then
    venv_of "${2:-${PAS_NEKRO_VERSION:-$DEFAULT}}"
    exit 0
fi
WANTED="${1:-${PAS_NEKRO_VERSION:-$DEFAULT}}"
if [ "$WANTED" = "all" ]; then
    WANTED="$ALL"
fi
for version in $WANTED; do
    case " $ALL " in
        *" $version "*) install_one "$version" ;;
        *) echo "install-nekroagent.sh: $version is not one of: $ALL (activation scheduling shipped in 2.3.0)" >&2; exit 2 ;;
    esac
done
