/**
 * Keeping an `agent` or `extract` call open while its job runs: one MCP progress notification per
 * step of the job (its message names the step: "scrape https://…", "LLM turn 2: 1 tool call(s)",
 * "extracted from https://…"; sent only when the client gave a progressToken), until the job
 * ends or the wait is over. Cancelling the call cancels the job.
 */
import type { AgentService, AgentStatusView } from '../src/agent/index.ts';
import type { AgentJobKind } from '../src/store/agent-jobs.ts';
import type { ToolCallContext } from './types.ts';

const POLL_MS = 250;

/** The job's status when it ended, or undefined when `waitMs` ran out first. */
export async function waitForAgentJob(agents: AgentService, owner: string, kind: AgentJobKind, id: string, waitMs: number, ctx: ToolCallContext): Promise<AgentStatusView | undefined> {
  // Progress must increase with each notification (MCP "Progress"): one unit per step reported.
  let reported = 0;
  const stop = agents.onProgress(id, (p) => ctx.progress({ progress: ++reported, message: `${p.message} (${p.steps} steps, ${p.credits} credits so far)` }));
  const onAbort = () => void agents.cancel(owner, kind, id).catch(() => undefined);
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  const deadline = Date.now() + waitMs;
  try {
    for (;;) {
      const view = await agents.status(owner, kind, id);
      if (view.status !== 'processing') return view;
      ctx.signal.throwIfAborted();
      if (Date.now() >= deadline) return undefined;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(POLL_MS, Math.max(0, deadline - Date.now())));
        ctx.signal.addEventListener('abort', () => {
          clearTimeout(timer);
          resolve();
        }, { once: true });
      });
    }
  } finally {
    stop();
    ctx.signal.removeEventListener('abort', onAbort);
  }
}
