#!/usr/bin/env bash
# Install Node 22 (scripts/install-node22.sh) and examples/ai-sdk/node_modules from its committed
# package-lock.json: ai 7.0.173, zod 4 (25 MB, 10 packages).
# Idempotent and cached (npm's cache; node_modules is reused while package-lock.json is unchanged).
# Then: PATH="$HOME/.cache/pas/node22/bin:$PATH" node examples/ai-sdk/cli.mjs  (see its README)
set -euo pipefail
cd "$(dirname "$0")/.."
exec bash scripts/install-node22.sh examples/ai-sdk
