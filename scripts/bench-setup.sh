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

# shellcheck source=scripts/apt-install.sh
. "$(dirname "$0")/apt-install.sh"
apt_install "folio bench setup" "${needed[@]}"
