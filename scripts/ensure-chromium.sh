#!/usr/bin/env bash
# Makes sure /usr/bin/chromium exists for vitest's browser mode (playwright's own browser download
# cannot work on our machines). Installs Debian's `chromium` package when running as root; otherwise
# says what to run. Idempotent and quiet when Chromium is already there.
set -euo pipefail

CHROMIUM="${EVALKERN_CHROMIUM:-/usr/bin/chromium}"

if [ -x "$CHROMIUM" ]; then
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "ensure-chromium: $CHROMIUM is missing and this is not root." >&2
  echo "ensure-chromium: install it with: sudo apt-get update && sudo apt-get install -y chromium" >&2
  echo "ensure-chromium: (or point EVALKERN_CHROMIUM at an existing Chromium/Chrome binary)" >&2
  exit 1
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure-chromium: $CHROMIUM is missing and apt-get is not available on this machine." >&2
  echo "ensure-chromium: install Chromium yourself and set EVALKERN_CHROMIUM to its path." >&2
  exit 1
fi

echo "ensure-chromium: installing Debian's chromium package (about 25 s)..."
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends chromium >/dev/null

if [ ! -x "$CHROMIUM" ]; then
  echo "ensure-chromium: apt-get finished but $CHROMIUM is still missing." >&2
  exit 1
fi
echo "ensure-chromium: $("$CHROMIUM" --version 2>/dev/null || echo "$CHROMIUM installed")"
