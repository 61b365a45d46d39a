/** The `browser_delete` tool: closes a browser session (as DELETE /v2/browser/{id}, the same answer). */
import { z } from 'zod';
import type { BrowserService } from '../src/browser/index.ts';
import { ServiceError } from '../src/errors.ts';
import { ownerOf } from './browser-result.ts';
import { defineTool, type AnyToolDefinition } from './types.ts';

export function createBrowserDeleteTool(browser: BrowserService): AnyToolDefinition {
  return defineTool({
    name: 'browser_delete',
    title: 'Close a browser session',
    description: 'Close a browser session (from `browser_create`) and delete its profile.',
    inputSchema: z.object({ sessionId: z.string().min(1).describe('The id from browser_create.') }),
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    keyless: false,
    async run(input, ctx) {
      const session = await browser.sessions.use(input.sessionId, ownerOf(ctx.caller).teamId);
      if (!session || session.kind !== 'session') throw new ServiceError('NOT_FOUND', `No browser session ${input.sessionId.slice(0, 64)} of your team is open.`);
      await browser.sessions.end(session, 'deleted by its owner');
      const creditsBilled = session.creditsBilled ?? 0;
      return {
        text: `Closed browser session ${session.id}${creditsBilled > 0 ? ` (${creditsBilled} credits of browser time)` : ''}.`,
        structured: { success: true, status: 'destroyed', sessionDurationMs: Date.now() - session.createdAt.getTime(), creditsBilled },
      };
    },
  });
}
