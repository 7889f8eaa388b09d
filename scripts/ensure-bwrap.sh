#!/usr/bin/env bash
# Makes sure bubblewrap (`bwrap`) exists for the sandbox tests (packages/metrics/test/dsrs/sandbox-files.test.ts):
# `SandboxMetric`/`TestPassMetric` with `scratch: true` confine a command's files with it on Linux. Installs
# Debian's `bubblewrap` package when running as root; otherwise says what to run. Idempotent and quiet when
# bwrap is already there. Exits 0 even when it cannot install it: the runs then report `files` as not
# enforced, and the tests check that instead, so `test:all` goes on.
set -euo pipefail

BWRAP="${EVALKERN_BWRAP:-bwrap}"

if [ "$(uname -s)" != "Linux" ]; then
  exit 0
fi

check_works() {
  # bwrap needs user namespaces when not root; say so when it cannot make its namespaces here
  if ! "$BWRAP" --ro-bind / / --unshare-pid --proc /proc --dev /dev -- /bin/sh -c 'exit 0' >/dev/null 2>&1; then
    echo "ensure-bwrap: $BWRAP is installed but cannot create namespaces here (user namespaces off, or a container" >&2
    echo "ensure-bwrap: that forbids mounts); sandboxed commands run without file confinement and report it" >&2
  fi
}

if command -v "$BWRAP" >/dev/null 2>&1; then
  check_works
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "ensure-bwrap: $BWRAP is missing and this is not root." >&2
  echo "ensure-bwrap: install it with: sudo apt-get update && sudo apt-get install -y bubblewrap" >&2
  echo "ensure-bwrap: (or point EVALKERN_BWRAP at an existing bwrap binary); without it sandboxed files are not confined" >&2
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure-bwrap: $BWRAP is missing and apt-get is not available on this machine." >&2
  echo "ensure-bwrap: install bubblewrap yourself and set EVALKERN_BWRAP to its path; without it sandboxed files are not confined." >&2
  exit 0
fi

echo "ensure-bwrap: installing Debian's bubblewrap package..."
export DEBIAN_FRONTEND=noninteractive
# another apt run (e.g. the machine's own setup) may hold the lock: wait for it instead of failing
if ! apt-get -o DPkg::Lock::Timeout=300 update -qq; then
  echo "ensure-bwrap: apt-get update failed; sandboxed files are not confined without bwrap." >&2
  exit 0
fi
if ! apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends bubblewrap >/dev/null; then
  echo "ensure-bwrap: apt-get install bubblewrap failed; sandboxed files are not confined without it." >&2
  exit 0
fi

if ! command -v "$BWRAP" >/dev/null 2>&1; then
  echo "ensure-bwrap: apt-get finished but $BWRAP is still missing; sandboxed files are not confined without it." >&2
  exit 0
fi
check_works
echo "ensure-bwrap: $("$BWRAP" --version 2>/dev/null || echo "$BWRAP installed")"
