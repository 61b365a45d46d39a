/**
 * The `extract` tool (firecrawl-mcp's firecrawl_extract): structured data from given pages (a URL
 * ending in `/*` takes the pages under it) with the configured LLM. Starts an extract job and
 * waits for it, sending progress notifications as pages are read. Thin over the agent service
 * (POST /v2/extract).
 */
import { z } from 'zod';
import type { AgentService } from '../src/agent/index.ts';
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
});

const POLL_MS = 250;

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
      const stop = deps.agents.onProgress(id, (spent) => ctx.progress({ progress: spent.steps, message: `${spent.steps} steps, ${spent.credits} credits` }));
      const onAbort = () => void deps.agents.cancel(owner, 'extract', id).catch(() => undefined);
      ctx.signal.addEventListener('abort', onAbort, { once: true });
      try {
        for (;;) {
          const view = await deps.agents.status(owner, 'extract', id);
          if (view.status !== 'processing') {
            const warnings = [warning, view.warning].filter(Boolean).join(' ');
            const text = view.status === 'completed' ? `${JSON.stringify(view.data, null, 2)}${warnings ? `\n\nWarning: ${warnings}` : ''}` : `Extract ${view.status}: ${view.error ?? ''}`;
            return { text, structured: { success: view.status === 'completed', id, ...view, ...(warnings ? { warning: warnings } : {}) } };
          }
          ctx.signal.throwIfAborted();
          await new Promise((r) => setTimeout(r, POLL_MS));
        }
      } finally {
        stop();
        ctx.signal.removeEventListener('abort', onAbort);
      }
    },
  });
}
