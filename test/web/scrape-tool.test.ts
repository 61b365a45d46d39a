/**
 * The `scrape` MCP tool over the same scrape() as the HTTP route: a real Fetcher against the
 * local test site and the in-process parse runner; input validated by its own zod schema, the
 * markdown sliced by maxChars/offset, refusals as ServiceErrors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ServiceError } from '../../src/errors.ts';
import { inProcessRunner } from '../../src/limits/runner.ts';
import { createFetcher, type ClosableFetcher } from '../../src/web/fetch/fetcher.ts';
import { scrapeTool, ScrapeToolInputSchema } from '../../tools/scrape.ts';
import type { AnyToolDefinition, ToolCallContext, ToolProgress } from '../../tools/types.ts';
import { startSite, type TestSite } from './site.ts';

let site: TestSite;
let fetcher: ClosableFetcher;
let tool: AnyToolDefinition;

beforeAll(async () => {
  site = await startSite();
  fetcher = createFetcher({ allow: [site.hostPort] });
  tool = scrapeTool({ fetcher, runner: inProcessRunner() });
});
afterAll(async () => {
  await fetcher.close();
  await site.close();
});

function call(args: Record<string, unknown>, progress: ToolProgress[] = []) {
  const ctx: ToolCallContext = { caller: { kind: 'keyless', owner: 'keyless:test' }, signal: new AbortController().signal, progress: (p) => progress.push(p) };
  return tool.run(tool.inputSchema.parse(args), ctx);
}

describe('scrape tool', () => {
  it('is keyless, read-only, and tells a model to use parse for local files', () => {
    expect(tool.name).toBe('scrape');
    expect(tool.keyless).toBe(true);
    expect(tool.description).toContain('use `parse` instead');
    const schema = z.toJSONSchema(ScrapeToolInputSchema, { io: 'input', unrepresentable: 'any' }) as { properties: Record<string, { items?: { anyOf?: unknown[] } }>; required?: string[] };
    expect(schema.required).toContain('url');
    expect(JSON.stringify(schema.properties.formats?.items)).toContain('"markdown"');
    // The screenshot format is offered, and says it needs an API key (keyless callers are refused).
    expect(JSON.stringify(schema.properties.formats?.items)).toContain('screenshot of the rendered page (needs an API key)');
  });

  it('returns the page markdown as text and the data object as structured content', async () => {
    const result = await call({ url: `${site.url}/article.html` });
    expect(result.text).toContain('# Tidal Energy in Small Harbours');
    expect((result.structured.metadata as { statusCode: number }).statusCode).toBe(200);
  });

  it('slices long markdown with maxChars and continues at offset', async () => {
    const whole = String((await call({ url: `${site.url}/docs/report.docx` })).structured.markdown);
    expect(whole.length).toBeGreaterThan(400);
    const first = await call({ url: `${site.url}/docs/report.docx`, maxChars: 200 });
    expect(first.structured.markdown).toBe(whole.slice(0, 200));
    expect(first.text).toContain('"offset": 200');
    expect(first.structured.continuation).toMatchObject({ nextOffset: 200, totalChars: whole.length });
    const second = await call({ url: `${site.url}/docs/report.docx`, maxChars: 200, offset: 200 });
    expect(second.structured.markdown).toBe(whole.slice(200, 400));
  });

  it('shows upstream errors and warnings in the text', async () => {
    const missing = await call({ url: `${site.url}/missing` });
    expect(missing.text).toContain('404 Not Found');
    const shell = await call({ url: `${site.url}/app-shell` });
    expect(shell.text).toContain('[folio warning]');
  });

  it('refuses blocked URLs and unsupported formats with ServiceErrors', async () => {
    const blocked = await call({ url: 'http://127.0.0.1:1/' }).catch((e: unknown) => e);
    expect(blocked).toBeInstanceOf(ServiceError);
    expect((blocked as ServiceError).code).toBe('URL_BLOCKED');
    const shot = await call({ url: site.url, formats: ['screenshot'] }).catch((e: unknown) => e);
    expect((shot as ServiceError).code).toBe('NOT_YET_SUPPORTED');
  });
});
