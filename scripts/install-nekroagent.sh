#!/usr/bin/env sh
# Create (or reuse) a venv with NekroAgent 2.4.0 for examples/nekroagent/adapter.py.
#
#   scripts/install-nekroagent.sh            # venv at ${PAS_NEKRO_VENV:-$HOME/.cache/pas/nekroagent-venv}
#   PAS_NEKRO_VENV=/some/dir scripts/install-nekroagent.sh
#
# Idempotent: an existing venv that already has nekro-agent 2.4.0 is left alone. pip's cache is
# used (no --no-cache-dir), so a second install after deleting the venv is fast.
# Needs Python 3.11 (NekroAgent 2.4.0's requirement): set PYTHON=python3.11 if python3 is another version.
set -eu
VENV="${PAS_NEKRO_VENV:-$HOME/.cache/pas/nekroagent-venv}"
PYTHON="${PYTHON:-python3}"
VERSION="2.4.0"

if [ -x "$VENV/bin/python" ] && "$VENV/bin/python" -c "import importlib.metadata as m, sys; sys.exit(m.version('nekro-agent') != '$VERSION')" 2>/dev/null; then
    echo "nekro-agent $VERSION already installed in $VENV"
    exit 0
fi
mkdir -p "$(dirname "$VENV")"
[ -x "$VENV/bin/python" ] || "$PYTHON" -m venv "$VENV"
"$VENV/bin/python" -m pip install --upgrade pip
"$VENV/bin/python" -m pip install "nekro-agent==$VERSION"
echo "installed nekro-agent $VERSION in $VENV"
echo "adapter command: $VENV/bin/python examples/nekroagent/adapter.py"
