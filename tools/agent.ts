/**
 * The `agent` tool (firecrawl-mcp's firecrawl_agent): starts an agent job — a tool-calling LLM
 * loop over folio's search, map and scrape (docs/agent.md) — and returns its id at once; the
 * caller polls `agent_status`. Thin over the agent service (POST /v2/agent).
 */
import { z } from 'zod';
import type { AgentService } from '../src/agent/index.ts';
import { defineTool, type AnyToolDefinition } from './types.ts';

export interface AgentToolDeps {
  agents: AgentService;
}

const AgentInput = z.object({
  prompt: z.string().min(1).max(10_000).describe('What to find out, in plain words.'),
  urls: z.array(z.string()).max(100).optional().describe('Pages to start from.'),
  schema: z.record(z.string(), z.unknown()).optional().describe('A JSON Schema the answer must match.'),
  maxCredits: z.number().int().min(1).optional().describe('The most credits the job may spend.'),
  strictConstrainToURLs: z.boolean().optional().describe('Visit only `urls` and the pages under them.'),
  showSources: z.boolean().optional().describe('Also say which of the pages read back each top-level field of the answer (`sources`).'),
});

export function createAgentTool(deps: AgentToolDeps): AnyToolDefinition {
  return defineTool({
    name: 'agent',
    title: 'Autonomous web research',
    description:
      'Start an agent job that searches, maps and scrapes the web on its own to answer `prompt` (optionally as JSON matching `schema`). Returns a job id at once: call `agent_status` with it every few seconds until the status is completed or failed. Use it for open questions that need several pages; for one known page use `scrape`, for known pages and a schema use `extract`.',
    inputSchema: AgentInput,
    annotations: { readOnlyHint: true, openWorldHint: true },
    keyless: false,
    async run(input, ctx) {
      const { id, warning } = await deps.agents.start(ctx.caller.owner, 'agent', input);
      const text = `Agent job started: ${id}. Call \`agent_status\` with {"id": "${id}"} in a few seconds to read its progress and, once completed, its answer.${warning ? ` ${warning}` : ''}`;
      return { text, structured: { success: true, id, status: 'processing', ...(warning ? { warning } : {}) } };
    },
  });
}
