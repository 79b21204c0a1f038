#!/usr/bin/env bash
# Make sure Node.js (18 or later) is on PATH for tests/examples/js, which runs the conformance suite
# against examples/js-scheduler/. Idempotent: does nothing when a recent enough node is there;
# otherwise installs Debian's nodejs package (bookworm ships 18.x). Needs root for apt-get (CI
# runs as root). Nothing is fetched from npm: the example has no dependencies.
set -euo pipefail

MIN_MAJOR=18

major() { node -e 'process.stdout.write(process.versions.node.split(".")[0])' 2>/dev/null || echo 0; }

if command -v node >/dev/null 2>&1 && [ "$(major)" -ge "$MIN_MAJOR" ]; then
  echo "ensure-node: already installed: node $(node --version)"
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "ensure-node: node ${MIN_MAJOR}+ is missing; installing it needs root (apt-get install nodejs)" >&2
  exit 1
fi

export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends nodejs >/dev/null
if [ "$(major)" -lt "$MIN_MAJOR" ]; then
  echo "ensure-node: the installed node $(node --version 2>/dev/null || echo '(none)') is older than ${MIN_MAJOR}" >&2
  exit 1
fi
echo "ensure-node: installed node $(node --version)"
