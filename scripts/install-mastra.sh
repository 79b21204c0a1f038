#!/usr/bin/env bash
# Install Node 22 (scripts/install-node22.sh) and examples/mastra/node_modules from its committed
# package-lock.json: @mastra/core 1.71.0, @mastra/memory 1.31.0, zod 4 (146 MB, 163 packages).
# Idempotent and cached (npm's cache; node_modules is reused while package-lock.json is unchanged).
# Then: PATH="$HOME/.cache/pas/node22/bin:$PATH" node examples/mastra/cli.mjs  (see its README)
set -euo pipefail
cd "$(dirname "$0")/.."
exec bash scripts/install-node22.sh examples/mastra
