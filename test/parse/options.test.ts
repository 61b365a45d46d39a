import { describe, expect, it } from 'vitest';
import { parseOptions, parseOptionsJson, pdfParserOptions, requestedFormats } from '../../src/parse/options.ts';

function problem(input: unknown): string {
  try {
    parseOptions(input);
  } catch (err) {
    expect(err).toMatchObject({ code: 'BAD_REQUEST', status: 400 });
    return (err as Error).message;
  }
  throw new Error('expected the options to be refused');
}

describe('ParseOptions defaults', () => {
  it('applies every default of the spec', () => {
    const o = parseOptions({});
    expect(o).toMatchObject({
      blockAds: true,
      formats: [{ type: 'markdown' }],
      onlyMainContent: true,
      origin: 'api',
      parsers: [{ type: 'pdf', mode: 'auto' }],
      redactPII: false,
      removeBase64Images: true,
      skipTlsVerification: true,
      timeout: 30000,
      zeroDataRetention: false,
    });
    expect(o.proxy).toBeUndefined();
  });

  it('accepts formats and parsers as bare strings, as the SDKs send them', () => {
    const o = parseOptions({ formats: ['markdown', 'html', { type: 'links' }], parsers: ['pdf'] });
    expect([...requestedFormats(o)]).toEqual(['markdown', 'html', 'links']);
    expect(pdfParserOptions(o)).toEqual({ type: 'pdf', mode: 'auto' });
  });

  it('drops unknown top-level keys the Firecrawl SDK sends', () => {
    const o = parseOptions({ origin: 'js-sdk@4.42.0', fastMode: true, storeInCache: false });
    expect(o.origin).toBe('js-sdk@4.42.0');
    expect(o).not.toHaveProperty('fastMode');
  });

  it('accepts a json format with a valid schema and a redactPII object with defaults', () => {
    const o = parseOptions({
      formats: [{ type: 'json', prompt: 'Extract the title', schema: { type: 'object', properties: { title: { type: 'string' } } } }],
      redactPII: { entities: ['EMAIL'] },
    });
    expect(o.redactPII).toEqual({ mode: 'accurate', entities: ['EMAIL'], replaceStyle: 'tag' });
  });
});

describe('ParseOptions refusals name the field', () => {
  it.each([
    [{ formats: ['screenshot'] }, "`formats[0].type`: parse does not support the 'screenshot' format"],
    [{ formats: [{ type: 'changeTracking' }] }, "'changeTracking'"],
    [{ formats: [{ type: 'json', schema: { type: 'not-a-type' } }] }, '`formats[0].schema`: must be a valid JSON Schema'],
    [{ formats: 'markdown' }, '`formats`'],
    [{ parsers: [{ type: 'pdf', maxPages: 0 }] }, '`parsers[0].maxPages`'],
    [{ parsers: [{ type: 'pdf', maxPages: 10001 }] }, '`parsers[0].maxPages`'],
    [{ parsers: [{ type: 'pdf', mode: 'turbo' }] }, '`parsers[0].mode`'],
    [{ parsers: [{ type: 'pdf', pages: true }] }, '`parsers[0]`'],
    [{ parsers: ['image'] }, '`parsers[0].type`'],
    [{ timeout: 300001 }, '`timeout`'],
    [{ timeout: 1.5 }, '`timeout`'],
    [{ auditMetadata: { username: 'x'.repeat(1025) } }, '`auditMetadata.username`'],
    [{ auditMetadata: { username: 'a', team: 'b' } }, '`auditMetadata`'],
    [{ redactPII: { mode: 'fast', extra: 1 } }, '`redactPII`'],
    [{ redactPII: { entities: ['SSN'] } }, '`redactPII.entities[0]`'],
    [{ proxy: 'stealth' }, '`proxy`'],
    [{ includeTags: ['a['] }, "`includeTags[0]`: 'a[' is not a valid CSS selector"],
    [{ excludeTags: [42] }, '`excludeTags[0]`'],
    [{ blockAds: 'yes' }, '`blockAds`'],
    [{ headers: { 'x-a': 1 } }, '`headers.x-a`'],
  ])('%j', (input, expected) => {
    expect(problem(input)).toContain(expected);
  });

  it('lists every problem, not only the first', () => {
    const message = problem({ timeout: -1, proxy: 'x' });
    expect(message).toContain('`timeout`');
    expect(message).toContain('`proxy`');
  });

  it('refuses options that are not a JSON object', () => {
    expect(() => parseOptionsJson('{"formats": [')).toThrow(/not valid JSON/);
    expect(() => parseOptionsJson('[1,2]')).toThrow(/must be a JSON object/);
    expect(parseOptionsJson('').timeout).toBe(30000);
  });
});
