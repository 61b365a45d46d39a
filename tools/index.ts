/**
 * The tool registry: every MCP tool, built from the services it needs. Streamable HTTP
 * (src/mcp/http.ts) and stdio build it once at start and hand the list to createMcpServer.
 * A tool is present when the service it is thin over is: `parse` always; `scrape` and `map`
 * with an outbound fetcher; `search` with a search service; `crawl`, `crawl_status`,
 * `batch_scrape` and `batch_scrape_status` with the crawl service; with the browser engine,
 * `scrape` renders (actions, screenshot) for keyed callers and `interact`, `interact_stop`,
 * `browser_create`, `browser_execute`, `browser_list`, `browser_delete` are listed (keyed only); `agent`, `agent_status` and
 * `extract` with the agent service.
 */
import type { ParseRunner } from '../src/limits/runner.ts';
import type { LocalFileReader, UploadRefService } from '../src/uploads/types.ts';
import type { CrawlService } from '../src/web/crawl/index.ts';
import type { Fetcher } from '../src/web/fetch/types.ts';
import type { SearchOperation } from '../src/web/search/index.ts';
import type { AgentService } from '../src/agent/index.ts';
import { createAgentTool } from './agent.ts';
import { createAgentStatusTool } from './agent-status.ts';
import { createExtractTool } from './extract.ts';
import { createBatchScrapeStatusTool } from './batch-scrape-status.ts';
import { createBatchScrapeTool } from './batch-scrape.ts';
import { createCrawlStatusTool } from './crawl-status.ts';
import { createCrawlTool } from './crawl.ts';
import { createMapTool } from './map.ts';
import { parseTool } from './parse.ts';
import { ParseResultStore, type ParseResults } from './parse-results.ts';
import { scrapeTool } from './scrape.ts';
import { createSearchTool } from './search.ts';
import type { AnyToolDefinition } from './types.ts';
import type { BrowserService } from '../src/browser/index.ts';
import { createBrowserCreateTool } from './browser-create.ts';
import { createBrowserDeleteTool } from './browser-delete.ts';
import { createBrowserExecuteTool } from './browser-execute.ts';
import { createBrowserListTool } from './browser-list.ts';
import { createInteractStopTool } from './interact-stop.ts';
import { createInteractTool } from './interact.ts';

export interface ToolDeps {
  runner: ParseRunner;
  /** Remote servers: the upload command → uploadRef round trip for `parse{filePath}`. */
  uploads?: UploadRefService;
  /** The stdio server on the caller's machine: `parse{filePath}` reads the file directly. */
  localFiles?: LocalFileReader;
  /** Results kept for `parse{resultId, offset}`: Redis with REDIS_URL (src/mcp/redis); a fresh in-memory store when absent. */
  results?: ParseResults;
  /** The SSRF-protected outbound fetcher: `scrape` and `map`. */
  fetcher?: Fetcher;
  /** Crawl and batch jobs: `crawl`, `crawl_status`, `batch_scrape`, `batch_scrape_status`. */
  crawls?: CrawlService;
  /** The search operation: `search`. */
  search?: SearchOperation;
  /** The browser engine (with `fetcher`): rendered scrapes for keyed callers, interact and browser_* tools. */
  browser?: BrowserService;
  /** The public base URL (the browser sessions' cdpUrl). */
  publicUrl?: string;
  /** Agent and extract jobs: `agent`, `agent_status`, `extract` (keyed only). */
  agents?: AgentService;
}

export function buildTools(deps: ToolDeps): AnyToolDefinition[] {
  const results = deps.results ?? new ParseResultStore();
  const tools: AnyToolDefinition[] = [
    parseTool({
      runner: deps.runner,
      results,
      ...(deps.uploads ? { uploads: deps.uploads } : {}),
      ...(deps.localFiles ? { localFiles: deps.localFiles } : {}),
    }),
  ];
  if (deps.fetcher) {
    tools.push(scrapeTool({ fetcher: deps.fetcher, runner: deps.runner, ...(deps.browser ? { browser: deps.browser } : {}) }));
    tools.push(createMapTool({ fetcher: deps.fetcher }));
    if (deps.browser?.enabled) {
      tools.push(createInteractTool({ browser: deps.browser, fetcher: deps.fetcher, runner: deps.runner }));
      tools.push(createInteractStopTool(deps.browser));
      tools.push(createBrowserCreateTool(deps.browser, deps.publicUrl ?? ''));
      tools.push(createBrowserExecuteTool(deps.browser));
      tools.push(createBrowserListTool(deps.browser, deps.publicUrl ?? ''));
      tools.push(createBrowserDeleteTool(deps.browser));
    }
  }
  if (deps.search) tools.push(createSearchTool(deps.search));
  if (deps.crawls) {
    tools.push(createCrawlTool({ crawls: deps.crawls }));
    tools.push(createCrawlStatusTool({ crawls: deps.crawls }));
    tools.push(createBatchScrapeTool({ crawls: deps.crawls }));
    tools.push(createBatchScrapeStatusTool({ crawls: deps.crawls }));
  }
  if (deps.agents) {
    tools.push(createAgentTool({ agents: deps.agents }));
    tools.push(createAgentStatusTool({ agents: deps.agents }));
    tools.push(createExtractTool({ agents: deps.agents }));
  }
  return tools;
}
