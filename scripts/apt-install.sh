#!/usr/bin/env bash
# Sourced by scripts/setup.sh and scripts/bench-setup.sh: `apt_install <label> <package>...`
# installs the given Debian packages (apt-get, through sudo when not root), or says plainly what
# to install by hand where there is no apt-get. Does nothing when the list is empty.
apt_install() {
  local label="$1"
  shift
  [ $# -eq 0 ] && return 0
  echo "$label: installing system packages: $*" >&2
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "$label: apt-get not found; install these packages with your system's package manager: $*" >&2
    return 1
  fi
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
      echo "$label: run as root (or install sudo) to install: $*" >&2
      return 1
    fi
  fi
  DEBIAN_FRONTEND=noninteractive $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "$@" >/dev/null
  echo "$label: done" >&2
}
