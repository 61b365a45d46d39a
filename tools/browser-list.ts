/** The `browser_list` tool: the team's open browser sessions (as GET /v2/browser). */
import { z } from 'zod';
import { cdpUrlOf, type BrowserService } from '../src/browser/index.ts';
import { ownerOf } from './browser-result.ts';
import { defineTool, type AnyToolDefinition } from './types.ts';

export function createBrowserListTool(browser: BrowserService, publicUrl: string): AnyToolDefinition {
  return defineTool({
    name: 'browser_list',
    title: 'List browser sessions',
    description: 'List the open browser sessions of your team (id, cdpUrl, when created, last used, when they expire).',
    inputSchema: z.object({}),
    annotations: { readOnlyHint: true, openWorldHint: false },
    keyless: false,
    async run(_input, ctx) {
      const sessions = browser.sessions.list(ownerOf(ctx.caller).teamId, 'session').map((s) => ({
        id: s.id,
        status: 'active',
        cdpUrl: cdpUrlOf(publicUrl, s),
        createdAt: s.createdAt.toISOString(),
        lastActivity: s.lastActivity.toISOString(),
        expiresAt: s.expiresAt.toISOString(),
      }));
      const text = sessions.length === 0 ? 'No browser sessions are open.' : sessions.map((s) => `${s.id} — created ${s.createdAt}, last used ${s.lastActivity}, expires ${s.expiresAt}`).join('\n');
      return { text, structured: { success: true, sessions } };
    },
  });
}
