#!/usr/bin/env bash
# Makes sure a `redis-server` binary exists for the BullMQ queue tests (packages/harness/test/queue*,
# packages/cli/test/queue*). Installs Debian's `redis-server` package when running as root; otherwise
# says what to run. Idempotent and quiet when Redis is already there. Exits 0 even when it cannot
# install Redis (the queue tests then skip with a message), so `test:all` goes on. The tests start their own
# redis-server on a free loopback port (no config file, no persistence); nothing is started here.
set -euo pipefail

REDIS="${EVALKERN_REDIS_SERVER:-redis-server}"

if command -v "$REDIS" >/dev/null 2>&1; then
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "ensure-redis: $REDIS is missing and this is not root." >&2
  echo "ensure-redis: install it with: sudo apt-get update && sudo apt-get install -y redis-server" >&2
  echo "ensure-redis: (or point EVALKERN_REDIS_SERVER at an existing redis-server binary); the queue tests skip without it" >&2
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure-redis: $REDIS is missing and apt-get is not available on this machine." >&2
  echo "ensure-redis: install Redis 7 yourself and set EVALKERN_REDIS_SERVER to its path; the queue tests skip without it." >&2
  exit 0
fi

echo "ensure-redis: installing Debian's redis-server package..."
export DEBIAN_FRONTEND=noninteractive
if ! apt-get update -qq; then
  echo "ensure-redis: apt-get update failed; the queue tests skip without redis-server." >&2
  exit 0
fi
# --no-install-recommends: no redis-tools etc.; policy-rc.d keeps the package from starting a system service.
if [ ! -e /usr/sbin/policy-rc.d ]; then
  printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d
  trap 'rm -f /usr/sbin/policy-rc.d' EXIT
fi
if ! apt-get install -y -qq --no-install-recommends redis-server >/dev/null; then
  echo "ensure-redis: apt-get install redis-server failed; the queue tests skip without it." >&2
  exit 0
fi

if ! command -v "$REDIS" >/dev/null 2>&1; then
  echo "ensure-redis: apt-get finished but $REDIS is still missing; the queue tests skip without it." >&2
  exit 0
fi
echo "ensure-redis: $("$REDIS" --version 2>/dev/null || echo "$REDIS installed")"
