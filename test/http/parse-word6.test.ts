/**
 * Word 6.0 and Word 95 `.doc` files through POST /v2/parse on a started service: generated
 * files (test/helpers/word6.ts) answer 200 with their text, headings, table and a cp1252
 * character; a fast-saved one too; damaged and encrypted ones a 400 in the error shape.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWord6Doc, oleFile, word6Stream, type Word6Block } from '../helpers/word6.ts';
import { postParse, startTestService, upload, type TestService } from './helpers.ts';

const BLOCKS: Word6Block[] = [
  { heading: 1, text: 'Minutes of the meeting' },
  'The committee met on 3 March; the café was closed – “for repairs”.',
  { table: [['Item', 'Owner'], ['Budget', 'Ann']] },
  'See the \x13HYPERLINK "https://example.org/minutes"\x14full minutes\x15.',
];

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
}, 60_000);
afterAll(async () => {
  await service.stop();
});

describe('POST /v2/parse with Word 6.0 / Word 95 .doc files', () => {
  for (const [label, options] of [
    ['Word 6.0', { version: 'word6' }],
    ['Word 95', { version: 'word95' }],
    ['fast-saved Word 95', { version: 'word95', fastSaved: true }],
  ] as const) {
    it(`${label}: 200 with markdown, heading, table, link and cp1252 characters`, async () => {
      const res = await postParse(service, upload('minutes.doc', buildWord6Doc(BLOCKS, options), { formats: ['markdown'] }), { timeoutMs: 30_000 });
      expect(res.status).toBe(200);
      const markdown = (res.json.data as { markdown: string }).markdown;
      expect(markdown).toMatch(/^# Minutes of the meeting$/m);
      expect(markdown).toContain('The committee met on 3 March; the café was closed – “for repairs”.');
      expect(markdown).toMatch(/^\| Item \| Owner \|$/m);
      expect(markdown).toMatch(/^\| Budget \| Ann \|$/m);
      expect(markdown).toContain('[full minutes](https://example.org/minutes)');
    });
  }

  it('running header and footer kept with onlyMainContent false, dropped with true', async () => {
    const bytes = buildWord6Doc(BLOCKS, { version: 'word95', header: 'Board of Directors', footer: 'Confidential draft' });
    const full = await postParse(service, upload('minutes.doc', bytes, { formats: ['markdown'], onlyMainContent: false }), { timeoutMs: 30_000 });
    const fullMarkdown = (full.json.data as { markdown: string }).markdown;
    expect(fullMarkdown.indexOf('Board of Directors')).toBeLessThan(fullMarkdown.indexOf('Minutes of the meeting'));
    expect(fullMarkdown.indexOf('Confidential draft')).toBeGreaterThan(fullMarkdown.indexOf('full minutes'));
    const main = await postParse(service, upload('minutes.doc', bytes, { formats: ['markdown'], onlyMainContent: true }), { timeoutMs: 30_000 });
    const mainMarkdown = (main.json.data as { markdown: string }).markdown;
    expect(mainMarkdown).not.toContain('Board of Directors');
    expect(mainMarkdown).not.toContain('Confidential draft');
    expect(mainMarkdown).toMatch(/^# Minutes of the meeting$/m);
  });

  it('a damaged Word 95 file is a 400 CORRUPT_FILE and an encrypted one a 400 ENCRYPTED_FILE, both naming the version', async () => {
    const stream = word6Stream(BLOCKS, { fastSaved: true });
    stream.writeUInt32LE(stream.length + 4096, 0x160);
    const damaged = await postParse(service, upload('damaged.doc', oleFile({ WordDocument: stream })), { timeoutMs: 30_000 });
    expect(damaged.status).toBe(400);
    expect(damaged.json).toMatchObject({ success: false, code: 'CORRUPT_FILE' });
    expect(String(damaged.json.error)).toContain('Word 6.0/95');
    const locked = await postParse(service, upload('locked.doc', buildWord6Doc(BLOCKS, { encrypted: true })), { timeoutMs: 30_000 });
    expect(locked.status).toBe(400);
    expect(locked.json).toMatchObject({ success: false, code: 'ENCRYPTED_FILE' });
    expect(String(locked.json.error)).toContain('Word 6.0/95');
  });
});
