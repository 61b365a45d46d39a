/**
 * The `extract` tool (firecrawl-mcp's firecrawl_extract): structured data from given pages (a URL
 * ending in `/*` takes the pages under it) with the configured LLM. Starts an extract job and
 * waits for it, sending a progress notification per step ("scrape https://…", "extracted from …"). Thin over the agent service
 * (POST /v2/extract).
 */
import { z } from 'zod';
import type { AgentService } from '../src/agent/index.ts';
import { waitForAgentJob } from './agent-wait.ts';
import { defineTool, type AnyToolDefinition } from './types.ts';

export interface ExtractToolDeps {
  agents: AgentService;
}

const ExtractInput = z.object({
  urls: z.array(z.string()).min(1).max(100).describe('Pages to read; `https://host/path/*` takes the pages under that path.'),
  prompt: z.string().max(10_000).optional().describe('What to extract.'),
  schema: z.record(z.string(), z.unknown()).optional().describe('A JSON Schema the result must match.'),
  enableWebSearch: z.boolean().optional().describe('Also read pages the search backend finds for the prompt.'),
  showSources: z.boolean().optional().describe('Say which pages each field came from.'),
  zeroDataRetention: z.boolean().optional().describe('Keep nothing of the job: its answer and trace stay in memory and are handed out once (the team needs ZDR, the server an LLM cleared for it).'),
});

export function createExtractTool(deps: ExtractToolDeps): AnyToolDefinition {
  return defineTool({
    name: 'extract',
    title: 'Extract structured data from pages',
    description:
      'Read the given pages and extract structured data with the LLM: give a `prompt`, a JSON `schema`, or both. The result is one JSON object merged from all pages. Does not follow links: for open research use `agent`.',
    inputSchema: ExtractInput,
    annotations: { readOnlyHint: true, openWorldHint: true },
    keyless: false,
    async run(input, ctx) {
      const owner = ctx.caller.owner;
      const { id, warning } = await deps.agents.start(owner, 'extract', input);
      const view = await waitForAgentJob(deps.agents, owner, 'extract', id, Number.POSITIVE_INFINITY, ctx);
      if (!view) throw new Error('an extract job without a wait limit cannot outlast its wait');
      const warnings = [warning, view.warning].filter(Boolean).join(' ');
      const text = view.status === 'completed' ? `${JSON.stringify(view.data, null, 2)}${warnings ? `\n\nWarning: ${warnings}` : ''}` : `Extract ${view.status}: ${view.error ?? ''}`;
      return { text, structured: { success: view.status === 'completed', id, ...view, ...(warnings ? { warning: warnings } : {}) } };
    },
  });
}
