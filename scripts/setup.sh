#!/usr/bin/env bash
# System packages folio needs, installed on a fresh Debian/Ubuntu machine. Runs from `npm ci`
# (preinstall), so the README's start and test commands both go through it. Idempotent: it
# touches apt only when something is missing.
#   - python3, make, g++: better-sqlite3 compiles its native addon from source when no prebuilt
#     binary can be downloaded (the usual case on a machine that reaches only package registries).
#   - redis-server: the tests of crawl jobs on Redis (REDIS_URL) start a real one; a deployment
#     may use any Redis 6.2+ instead.
#   - postgresql: the tests of the PostgreSQL store (DATABASE_URL, docs/scale-out.md) start a
#     throw-away cluster with its initdb and pg_ctl (Debian keeps them in /usr/lib/postgresql/<v>/bin,
#     which the tests search); a deployment may use any PostgreSQL 13+ instead. The package's own
#     cluster service is not needed.
#     These two are the tests' own servers: a production install (`npm ci --omit=dev`, or
#     NODE_ENV=production, where npm leaves the dev dependencies out) does not install them.
#   - chromium: the browser engine (rendered scrape, screenshots, actions: docs/browser.md) and the
#     sign-in and consent page tests drive it headless through playwright-core.
#   - tesseract-ocr, tesseract-ocr-eng, poppler-utils: PDF OCR (`mode: auto|ocr`) rasterizes pages
#     with pdftoppm and reads them with tesseract (docs/pdf-ocr.md). Other OCR languages are the
#     tesseract-ocr-<lang> packages, named in FOLIO_OCR_LANGUAGES. tesseract-ocr-osd: the script
#     detection that warns when a page is set in a script those languages cannot read.
set -euo pipefail

needed=()
command -v python3 >/dev/null 2>&1 || needed+=(python3)
command -v make >/dev/null 2>&1 || needed+=(make)
command -v g++ >/dev/null 2>&1 || needed+=(g++)
# npm passes `--omit=dev` as npm_config_omit ("dev", or "dev optional"); NODE_ENV=production omits
# the dev dependencies without setting it.
with_tests=yes
case " ${npm_config_omit:-} " in *" dev "*) with_tests=no ;; esac
[ "${NODE_ENV:-}" = production ] && with_tests=no
if [ "$with_tests" = yes ]; then
  command -v redis-server >/dev/null 2>&1 || needed+=(redis-server)
  # initdb on PATH (a source build) or in Debian's per-version directory.
  { command -v initdb >/dev/null 2>&1 || [ -n "$(ls /usr/lib/postgresql/*/bin/initdb 2>/dev/null)" ]; } || needed+=(postgresql)
fi
command -v chromium >/dev/null 2>&1 || needed+=(chromium)
command -v tesseract >/dev/null 2>&1 || needed+=(tesseract-ocr)
[ -n "$(ls /usr/share/tesseract-ocr/*/tessdata/eng.traineddata 2>/dev/null)" ] || needed+=(tesseract-ocr-eng)
[ -n "$(ls /usr/share/tesseract-ocr/*/tessdata/osd.traineddata 2>/dev/null)" ] || needed+=(tesseract-ocr-osd)
command -v pdftoppm >/dev/null 2>&1 || needed+=(poppler-utils)

# shellcheck source=scripts/apt-install.sh
. "$(dirname "$0")/apt-install.sh"
apt_install "folio setup" "${needed[@]}"
