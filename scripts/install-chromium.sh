#!/usr/bin/env bash
# Install Debian's chromium (and a small CJK font, for the Chinese pages' screenshots) for the
# docs browser test, tests/docs/test_docs_browser.py. Idempotent: installs only what is missing,
# and does nothing at all when both are there. Needs root for apt-get (CI runs as root).
set -euo pipefail

missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ -e /usr/share/fonts/truetype/wqy/wqy-microhei.ttc ] || missing+=(fonts-wqy-microhei)

if [ "${#missing[@]}" -eq 0 ]; then
  echo "install-chromium: already installed: $(/usr/bin/chromium --version 2>/dev/null || echo chromium)"
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "install-chromium: missing ${missing[*]}; installing needs root (apt-get install ${missing[*]})" >&2
  exit 1
fi

export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "install-chromium: installed ${missing[*]}: $(/usr/bin/chromium --version 2>/dev/null || echo chromium)"
