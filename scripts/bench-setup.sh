#!/usr/bin/env bash
# Reference converters for `npm run bench:office` (bench/office.ts), installed on a Debian/Ubuntu
# machine the way scripts/setup.sh installs folio's own packages. They are the benchmark's
# yardstick ONLY: folio never calls them at runtime, and nothing outside bench/ may depend on them.
#   - pandoc: reads .docx, .odt and .rtf (the reference's markdown: `-t gfm`, and `-t plain`).
#   - libreoffice-writer-nogui / libreoffice-calc-nogui: `soffice --headless --convert-to` turns
#     .doc into .docx (which pandoc then reads) and .xls/.xlsx into .csv per sheet, for the formats
#     pandoc cannot read (issue 4, "Measured against peers").
# Idempotent: it touches apt only when something is missing.
set -euo pipefail

needed=()
command -v pandoc >/dev/null 2>&1 || needed+=(pandoc)
if ! command -v soffice >/dev/null 2>&1; then
  needed+=(libreoffice-writer-nogui libreoffice-calc-nogui)
else
  # soffice is there but may lack Calc (spreadsheets) or Writer (.doc).
  dir="$(dirname "$(readlink -f "$(command -v soffice)")")"
  [ -e "$dir/../program/libsclo.so" ] || [ -e "$dir/libsclo.so" ] || needed+=(libreoffice-calc-nogui)
  [ -e "$dir/../program/libswlo.so" ] || [ -e "$dir/libswlo.so" ] || needed+=(libreoffice-writer-nogui)
fi

if [ ${#needed[@]} -eq 0 ]; then
  exit 0
fi

echo "folio bench setup: installing the benchmark's reference converters: ${needed[*]}" >&2
if ! command -v apt-get >/dev/null 2>&1; then
  echo "folio bench setup: apt-get not found; install these packages with your system's package manager: ${needed[*]}" >&2
  exit 1
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "folio bench setup: run as root (or install sudo) to install: ${needed[*]}" >&2
    exit 1
  fi
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${needed[@]}" >/dev/null
echo "folio bench setup: done" >&2
