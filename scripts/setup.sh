#!/usr/bin/env bash
# System packages folio needs, installed on a fresh Debian/Ubuntu machine. Runs from `npm ci`
# (preinstall), so the README's start and test commands both go through it. Idempotent: it
# touches apt only when something is missing.
#   - python3, make, g++: better-sqlite3 compiles its native addon from source when no prebuilt
#     binary can be downloaded (the usual case on a machine that reaches only package registries).
#   - redis-server: the tests of crawl jobs on Redis (REDIS_URL) start a real one; a deployment
#     may use any Redis 6.2+ instead.
#   - chromium: the sign-in and consent page tests drive it headless through playwright-core.
set -euo pipefail

needed=()
command -v python3 >/dev/null 2>&1 || needed+=(python3)
command -v make >/dev/null 2>&1 || needed+=(make)
command -v g++ >/dev/null 2>&1 || needed+=(g++)
command -v redis-server >/dev/null 2>&1 || needed+=(redis-server)
command -v chromium >/dev/null 2>&1 || needed+=(chromium)

if [ ${#needed[@]} -eq 0 ]; then
  exit 0
fi

echo "folio setup: installing system packages: ${needed[*]}" >&2
if ! command -v apt-get >/dev/null 2>&1; then
  echo "folio setup: apt-get not found; install these packages with your system's package manager: ${needed[*]}" >&2
  exit 1
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "folio setup: run as root (or install sudo) to install: ${needed[*]}" >&2
    exit 1
  fi
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${needed[@]}" >/dev/null
echo "folio setup: done" >&2
