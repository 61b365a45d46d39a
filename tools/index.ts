/**
 * The tool registry: every MCP tool, built from the services it needs. Streamable HTTP
 * (src/mcp/http.ts) and stdio build it once at start and hand the list to createMcpServer.
 * New tools (scrape, search, map, crawl, crawl_status) are added here.
 */
import type { ParseRunner } from '../src/limits/runner.ts';
import type { LocalFileReader, UploadRefService } from '../src/uploads/types.ts';
import { parseTool } from './parse.ts';
import { ParseResultStore } from './parse-results.ts';
import type { AnyToolDefinition } from './types.ts';

export interface ToolDeps {
  runner: ParseRunner;
  /** Remote servers: the upload command → uploadRef round trip for `parse{filePath}`. */
  uploads?: UploadRefService;
  /** The stdio server on the caller's machine: `parse{filePath}` reads the file directly. */
  localFiles?: LocalFileReader;
  /** Results kept for `parse{resultId, offset}`; a fresh in-memory store when absent. */
  results?: ParseResultStore;
}

export function buildTools(deps: ToolDeps): AnyToolDefinition[] {
  const results = deps.results ?? new ParseResultStore();
  return [
    parseTool({
      runner: deps.runner,
      results,
      ...(deps.uploads ? { uploads: deps.uploads } : {}),
      ...(deps.localFiles ? { localFiles: deps.localFiles } : {}),
    }),
  ];
}
