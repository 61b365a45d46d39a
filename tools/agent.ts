/**
 * The `agent` tool (firecrawl-mcp's firecrawl_agent): starts an agent job — a tool-calling LLM
 * loop over folio's search, map and scrape (docs/agent.md) — and returns its id at once; the
 * caller polls `agent_status`. With `waitSeconds`, the call stays open until the job ends or the
 * time is up, with an MCP progress notification per step; cancelling the call then cancels the
 * job (as `crawl` does). Thin over the agent service (POST /v2/agent).
 */
import { z } from 'zod';
import type { AgentService } from '../src/agent/index.ts';
import { waitForAgentJob } from './agent-wait.ts';
import { waitSecondsInput } from './crawl.ts';
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
  zeroDataRetention: z.boolean().optional().describe('Keep nothing of the job: its answer and trace stay in memory and are handed out once (the team needs ZDR, the server an LLM cleared for it).'),
  waitSeconds: waitSecondsInput('the job runs, with a progress notification per step, and return its answer if it ends in time', 'job'),
});

export function createAgentTool(deps: AgentToolDeps): AnyToolDefinition {
  return defineTool({
    name: 'agent',
    title: 'Autonomous web research',
    description:
      'Start an agent job that searches, maps and scrapes the web on its own to answer `prompt` (optionally as JSON matching `schema`). Returns a job id at once (or, with `waitSeconds`, waits for the answer): call `agent_status` with the id every few seconds until the status is completed or failed. Use it for open questions that need several pages; for one known page use `scrape`, for known pages and a schema use `extract`.',
    inputSchema: AgentInput,
    annotations: { readOnlyHint: true, openWorldHint: true },
    keyless: false,
    async run(input, ctx) {
      const { waitSeconds, ...request } = input;
      const owner = ctx.caller.owner;
      const { id, warning } = await deps.agents.start(owner, 'agent', request);
      const view = waitSeconds > 0 ? await waitForAgentJob(deps.agents, owner, 'agent', id, waitSeconds * 1000, ctx) : undefined;
      if (view) {
        const warnings = [warning, view.warning].filter(Boolean).join(' ');
        const body = view.status === 'completed' ? `Answer:\n${JSON.stringify(view.data, null, 2)}${view.sources ? `\nSources:\n${JSON.stringify(view.sources, null, 2)}` : ''}` : `Agent job ${view.status}: ${view.error ?? ''}`;
        const text = [`Agent job ${id}: ${view.status} after ${view.steps} steps, ${view.creditsUsed} credits.`, warnings, body].filter(Boolean).join('\n');
        return { text, structured: { success: view.status === 'completed', id, ...view, ...(warnings ? { warning: warnings } : {}) } };
      }
      const still = waitSeconds > 0 ? ` It is still running after ${waitSeconds} s.` : '';
      const text = `Agent job started: ${id}.${still} Call \`agent_status\` with {"id": "${id}"} in a few seconds to read its progress and, once completed, its answer.${warning ? ` ${warning}` : ''}`;
      return { text, structured: { success: true, id, status: 'processing', ...(warning ? { warning } : {}) } };
    },
  });
}
