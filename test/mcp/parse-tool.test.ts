/**
 * The parse tool over Streamable HTTP with a real parser: progress notifications for a
 * multi-page PDF, maxChars continuation that reassembles the whole markdown, the
 * zeroDataRetention variant, and owner-bound results.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inProcessRunner } from '../../src/limits/runner.ts';
import { parseOptions } from '../../src/parse/options.ts';
import { buildTools } from '../../tools/index.ts';
import { readCorpus } from '../helpers/corpus.ts';
import { connectMcp, corpusReader, startMcpApp, structuredOf, textOf, type McpApp } from './helpers.ts';

const PDF = 'pdf/pdfjs/tracemonkey.pdf';
let app: McpApp;
let keyless: Client;
let keyed: Client;
let expected: string;

beforeAll(async () => {
  app = await startMcpApp({ tools: ({ runner }) => buildTools({ runner, localFiles: corpusReader }) });
  keyless = await connectMcp(`${app.url}/v2/mcp`);
  keyed = await connectMcp(`${app.url}/v2/mcp`, { authorization: `Bearer ${app.key}` });
  const direct = await inProcessRunner()({ bytes: readCorpus('pdf', 'pdfjs', 'tracemonkey.pdf'), filename: 'tracemonkey.pdf' }, parseOptions({}));
  expected = direct.markdown ?? '';
});
afterAll(async () => {
  await keyless.close();
  await keyed.close();
  await app.stop();
});

interface Continuation {
  offset: number;
  totalChars: number;
  nextOffset: number | null;
  resultId: string | null;
  nextCall: { name: string; arguments: Record<string, unknown> } | null;
}

describe('parse over MCP', () => {
  it('sends progress notifications (pages done of total) for a multi-page PDF', async () => {
    const seen: { progress: number; total?: number; message?: string }[] = [];
    const result = await keyless.callTool({ name: 'parse', arguments: { filePath: PDF, maxChars: 1_000_000 } }, undefined, { onprogress: (p) => seen.push(p) });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toBe(expected);
    expect(seen.length).toBeGreaterThan(1);
    const total = seen[0]?.total ?? 0;
    expect(total).toBe(14);
    expect(seen.map((p) => p.progress)).toEqual(Array.from({ length: seen.length }, (_, i) => i + 1));
    expect(seen[seen.length - 1]).toMatchObject({ progress: total, total, message: `${total} of ${total} pages parsed` });
    expect(structuredOf(result).metadata).toMatchObject({ numPages: 14 });
  });

  it('maxChars slices reassemble the whole markdown exactly, following the continuation', async () => {
    expect(expected.length).toBeGreaterThan(20_000);
    let args: Record<string, unknown> = { filePath: PDF, maxChars: 7000 };
    let whole = '';
    let calls = 0;
    for (;;) {
      const result = await keyed.callTool({ name: 'parse', arguments: args });
      expect(result.isError, textOf(result)).toBeFalsy();
      calls++;
      const data = structuredOf(result);
      const slice = String(data.markdown);
      const c = data.continuation as Continuation;
      expect(slice.length).toBeLessThanOrEqual(7000);
      expect(c.totalChars).toBe(expected.length);
      whole += slice;
      const text = textOf(result);
      expect(text.startsWith(slice)).toBe(true);
      if (c.nextCall === null) {
        expect(text).toBe(slice);
        break;
      }
      // The text tells the model the exact next call.
      expect(text.slice(slice.length)).toContain(JSON.stringify(c.nextCall.arguments));
      expect(c.nextCall.arguments).toEqual({ resultId: c.resultId, offset: c.nextOffset, maxChars: 7000 });
      args = c.nextCall.arguments;
    }
    expect(whole).toBe(expected);
    expect(calls).toBe(Math.ceil(expected.length / 7000));
  });

  it('a result is kept for its owner only', async () => {
    const first = await keyed.callTool({ name: 'parse', arguments: { filePath: PDF, maxChars: 5000 } });
    const c = structuredOf(first).continuation as Continuation;
    expect(c.resultId).toMatch(/^res_/);
    const other = await keyless.callTool({ name: 'parse', arguments: { resultId: c.resultId, offset: 5000 } });
    expect(other.isError).toBe(true);
    expect(textOf(other)).toMatch(/unknown or has expired/);
    const past = await keyed.callTool({ name: 'parse', arguments: { resultId: c.resultId, offset: expected.length + 1 } });
    expect(textOf(past)).toMatch(/past the end/);
  });

  it('under zeroDataRetention nothing is kept: the continuation asks for the file again with an offset', async () => {
    const first = await keyless.callTool({ name: 'parse', arguments: { filePath: PDF, maxChars: 9000, zeroDataRetention: true } });
    const c = structuredOf(first).continuation as Continuation;
    expect(c.resultId).toBeNull();
    expect(c.nextCall).toBeNull();
    expect(c.nextOffset).toBe(9000);
    expect(textOf(first)).toMatch(/not kept because zeroDataRetention is on.*same file and options plus "offset": 9000/);
    const second = await keyless.callTool({ name: 'parse', arguments: { filePath: PDF, maxChars: 9000, zeroDataRetention: true, offset: 9000 } });
    expect(String(structuredOf(first).markdown) + String(structuredOf(second).markdown)).toBe(expected.slice(0, 18_000));
  });

  it('invalid options are a tool error naming the field', async () => {
    const result = await keyless.callTool({ name: 'parse', arguments: { filePath: PDF, parsers: [{ type: 'pdf', maxPages: 0 }], maxChars: 5 } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^Invalid arguments for parse: .*`parsers\[0\]\.maxPages`.*`maxChars`/);
  });
});
