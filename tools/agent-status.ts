/**
 * The `agent_status` tool (firecrawl-mcp's firecrawl_agent_status): an agent job's status, what it
 * spent, and once completed its answer. Thin over the agent service (GET /v2/agent/:id).
 */
import { z } from 'zod';
import type { AgentService } from '../src/agent/index.ts';
import { defineTool, type AnyToolDefinition } from './types.ts';

export interface AgentStatusToolDeps {
  agents: AgentService;
}

const AgentStatusInput = z.object({
  id: z.string().describe('The job id `agent` returned.'),
});

export function createAgentStatusTool(deps: AgentStatusToolDeps): AnyToolDefinition {
  return defineTool({
    name: 'agent_status',
    title: 'Agent job status and answer',
    description: 'Read an agent job started with `agent`: its status (processing, completed, failed, cancelled), the steps and credits it used, and its answer once completed.',
    inputSchema: AgentStatusInput,
    annotations: { readOnlyHint: true, openWorldHint: false },
    keyless: false,
    async run(input, ctx) {
      const view = await deps.agents.status(ctx.caller.owner, 'agent', input.id);
      ctx.progress({ progress: view.steps, message: `${view.steps} steps, ${view.creditsUsed} credits` });
      const head = `Status: ${view.status}. Steps: ${view.steps}. Credits used: ${view.creditsUsed}.`;
      const body =
        view.status === 'processing'
          ? `Still working: call \`agent_status\` with {"id": "${input.id}"} again in a few seconds.`
          : view.status === 'completed'
            ? `Answer:\n${JSON.stringify(view.data, null, 2)}${view.sources ? `\nSources:\n${JSON.stringify(view.sources, null, 2)}` : ''}`
            : (view.error ?? '');
      return { text: [head, view.warning ?? '', body].filter(Boolean).join('\n'), structured: { success: true, id: input.id, ...view } };
    },
  });
}
