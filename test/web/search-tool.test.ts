/**
 * The `search` MCP tool over the real search operation and a fake SearXNG: keyless, same fields
 * as the HTTP request (validated by its input schema), a numbered list as text cut at maxChars,
 * the whole data as structured content.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSearch } from '../../src/web/search/index.ts';
import { searxngBackend } from '../../src/web/search/searxng.ts';
import { createSearchTool } from '../../tools/search.ts';
import type { AnyToolDefinition, ToolCallContext } from '../../tools/types.ts';
import { searxngWebUrl, startFakeSearxng, type FakeServer } from './fake-searxng.ts';

let searxng: FakeServer;
let tool: AnyToolDefinition;
const ctx: ToolCallContext = { caller: { kind: 'keyless', owner: 'keyless:test' }, signal: new AbortController().signal, progress: () => undefined };

beforeAll(async () => {
  searxng = await startFakeSearxng();
  tool = createSearchTool(createSearch({ backends: [searxngBackend(searxng.url)] }));
});
afterAll(async () => {
  await searxng.close();
});

describe('search tool', () => {
  it('is keyless and read-only', () => {
    expect(tool.name).toBe('search');
    expect(tool.keyless).toBe(true);
    expect(tool.annotations?.readOnlyHint).toBe(true);
  });

  it('its schema applies the HTTP defaults, refuses what the HTTP route refuses and tolerates what it tolerates', () => {
    expect(tool.inputSchema.parse({ query: 'x' })).toMatchObject({ query: 'x', limit: 5, sources: [{ type: 'web' }], timeout: 60_000, maxChars: 20_000 });
    expect(tool.inputSchema.safeParse({ query: 'x', limit: 500 }).success).toBe(false);
    expect(tool.inputSchema.safeParse({ query: 'x', bogus: 1 }).success).toBe(true);
    expect(tool.inputSchema.safeParse({ query: 'x', toolDetail: 'compact', domainTools: true, sources: ['web', 'alexandria'] }).success).toBe(true);
    expect(tool.inputSchema.safeParse({ query: 'x', toolDetail: 'all' }).success).toBe(false);
    expect(tool.inputSchema.safeParse({ query: 'x', includeDomains: ['a.com'], excludeDomains: ['b.com'] }).success).toBe(false);
  });

  it('answers a numbered list per source and the data as structured content', async () => {
    const input = tool.inputSchema.parse({ query: 'tool test', limit: 2, sources: ['web', 'news'] });
    const result = await tool.run(input, ctx);
    expect(result.text).toBe(
      [
        'Web results for "tool test":',
        '',
        `1. Result 1 about tool test\n   ${searxngWebUrl('tool test', 1)}\n   Snippet 1 & more about tool test.`,
        '',
        `2. Result 2 about tool test\n   ${searxngWebUrl('tool test', 2)}\n   Snippet 2 & more about tool test.`,
        '',
        'News for "tool test":',
        '',
        '1. News 1: tool test\n   https://news1.example.net/tool-test\n   2024-05-01T10:00:00\n   News snippet 1.',
        '',
        '2. News 2: tool test\n   https://news2.example.net/tool-test\n   2024-05-02T10:00:00\n   News snippet 2.',
      ].join('\n'),
    );
    expect(Object.keys(result.structured).sort()).toEqual(['news', 'web']);
    expect((result.structured.web as unknown[]).length).toBe(2);
  });

  it('cuts the text at maxChars and says so', async () => {
    const input = tool.inputSchema.parse({ query: 'long', limit: 25, maxChars: 600 });
    const result = await tool.run(input, ctx);
    expect(result.text.length).toBeLessThanOrEqual(600);
    expect(result.text).toMatch(/\[Cut at 600 of \d+ characters: raise maxChars or ask for fewer results\.\]$/);
    expect((result.structured.web as unknown[]).length).toBe(25);
  });

  it('a backend failure is a ServiceError the transport turns into a tool error', async () => {
    searxng.mode = 'error';
    try {
      await expect(tool.run(tool.inputSchema.parse({ query: 'x' }), ctx)).rejects.toMatchObject({ code: 'FETCH_FAILED', message: 'Search backend SearXNG answered HTTP 500.' });
    } finally {
      searxng.mode = 'ok';
    }
  });
});
