/**
 * redactPII through parse(): every mode, entity limit and replace style on a small HTML page, a
 * .docx built here and a corpus page; tables keep their columns and links their syntax (the
 * outputs are parsed again and their structure compared); metadata, links and rawHtml are
 * redacted too and metadata.piiRedacted holds "GROUP:n" strings.
 */
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { parse } from '../../src/parse/index.ts';
import { parseOptions, type ParseOptionsInput } from '../../src/parse/options.ts';
import { readCorpus } from '../helpers/corpus.ts';

const PAGE = `<!doctype html><html><head><title>Contact Wanjiru Kamau</title>
<meta name="description" content="Write to wanjiru.kamau@example.com"></head><body>
<h1>Team</h1>
<p>Mail <a href="mailto:wanjiru.kamau@example.com">wanjiru.kamau@example.com</a> or call <b>+44 20 7946 0958</b>; see <a href="https://example.org/docs">the docs</a>.</p>
<table><thead><tr><th>Name</th><th>Phone</th><th>Card</th></tr></thead>
<tbody><tr><td>Dear Mr. John Smith</td><td>+1 415 555 0132</td><td>4111 1111 1111 1111</td></tr>
<tr><td>Aiko Tanaka</td><td>+81 3-1234-5678</td><td>5500 0000 0000 0004</td></tr></tbody></table>
<p>Build v2.14.3 of 2024-03-15, order 4839201756.</p>
</body></html>`;

async function run(options: ParseOptionsInput, bytes: Buffer = Buffer.from(PAGE), filename = 'team.html') {
  return parse({ bytes, filename }, parseOptions({ formats: ['markdown', 'html', 'links', 'rawHtml'], ...options }));
}

/** Rows × columns of every markdown table, and the count of inline links. */
function markdownStructure(md: string): { tables: number[][]; links: number } {
  const tables: number[][] = [];
  let current: number[] | undefined;
  for (const line of md.split('\n')) {
    if (/^\|.*\|$/.test(line)) {
      current ??= (tables.push([]), tables[tables.length - 1]);
      current?.push(line.replace(/\\\|/g, '').split('|').length - 2);
    } else current = undefined;
  }
  return { tables, links: (md.match(/\]\([^)]*\)/g) ?? []).length };
}

describe('parse() with redactPII', () => {
  it('fast, tag: patterns redacted in markdown, html, links, metadata and rawHtml; names kept; structure kept', async () => {
    const plain = await run({});
    const out = await run({ redactPII: { mode: 'fast' } });
    expect(out.markdown).not.toContain('wanjiru.kamau@example.com');
    expect(out.markdown).toContain('\\<EMAIL>');
    expect(out.markdown).toContain('\\<PHONE>');
    expect(out.markdown).toContain('\\<FINANCIAL>');
    expect(out.markdown).toContain('Aiko Tanaka');
    expect(out.markdown).toContain('v2.14.3 of 2024-03-15, order 4839201756');
    expect(out.html).toContain('&lt;EMAIL&gt;');
    expect(out.html).not.toContain('example.com');
    expect(out.links).toEqual(['mailto:%3CEMAIL%3E', 'https://example.org/docs']);
    expect(out.metadata.description).toBe('Write to <EMAIL>');
    expect(out.metadata.title).toBe('Contact Wanjiru Kamau');
    expect(out.rawHtml).not.toContain('wanjiru.kamau@example.com');
    expect(out.rawHtml).toContain('<a href="mailto:&lt;EMAIL&gt;">&lt;EMAIL&gt;</a>');
    expect(out.metadata.piiRedacted).toEqual(['EMAIL:3', 'PHONE:3', 'FINANCIAL:2']);
    expect(out.warning).toBeUndefined();
    expect(markdownStructure(out.markdown ?? '')).toEqual(markdownStructure(plain.markdown ?? ''));
    expect(markdownStructure(out.markdown ?? '').tables).toEqual([[3, 3, 3, 3]]);
    // The redacted html parses to the same table and link structure as the original.
    const again = await parse({ bytes: Buffer.from(out.html ?? ''), filename: 'again.html' }, parseOptions({}));
    expect(markdownStructure(again.markdown ?? '')).toEqual(markdownStructure(plain.markdown ?? ''));
  });

  it('true (accurate): aggressive detectors with a warning naming the LLM settings', async () => {
    const out = await run({ redactPII: true });
    expect(out.markdown).toContain('\\<PERSON>');
    expect(out.markdown).not.toContain('Aiko Tanaka');
    expect(out.metadata.title).toBe('Contact <PERSON>');
    expect(out.warning).toContain('OPENAI_BASE_URL');
    expect(out.warning).toContain('OLLAMA_BASE_URL');
    expect(out.metadata.piiRedacted).toEqual(expect.arrayContaining([expect.stringMatching(/^PERSON:\d+$/), 'EMAIL:3']));
    expect(markdownStructure(out.markdown ?? '').tables).toEqual([[3, 3, 3, 3]]);
  });

  it('aggressive, mask, entities limited to PERSON and PHONE', async () => {
    const out = await run({ redactPII: { mode: 'aggressive', entities: ['PERSON', 'PHONE'], replaceStyle: 'mask' } });
    expect(out.markdown).toContain('wanjiru.kamau@example.com');
    expect(out.markdown).toContain('4111 1111 1111 1111');
    expect(out.markdown).not.toContain('+44 20 7946 0958');
    // Each masked character is a '*', which markdown writes escaped.
    expect(out.markdown).toContain('\\*'.repeat('+44 20 7946 0958'.length));
    expect(out.markdown).not.toContain('Aiko Tanaka');
    expect(out.warning).toBeUndefined();
    expect((out.metadata.piiRedacted as string[]).every((c) => /^(?:PERSON|PHONE):\d+$/.test(c))).toBe(true);
  });

  it('rawHtml keeps every tag of the input in order; only text and attribute values change', async () => {
    const plain = await run({});
    const out = await run({ redactPII: true });
    const tags = (html: string) => [...html.matchAll(/<\/?([a-zA-Z][\w-]*)/g)].map((m) => m[1]);
    expect(tags(out.rawHtml ?? '')).toEqual(tags(plain.rawHtml ?? ''));
    expect(out.rawHtml).not.toContain('Aiko Tanaka');
    expect(out.rawHtml).toContain('&lt;PERSON&gt;');
  });

  it('fast with PERSON named in entities says that fast finds no names', async () => {
    const out = await run({ redactPII: { mode: 'fast', entities: ['PERSON', 'EMAIL'] } });
    expect(out.markdown).toContain('Aiko Tanaka');
    expect(out.markdown).toContain('\\<EMAIL>');
    expect(out.warning).toContain("mode 'fast' uses patterns only and finds no PERSON");
  });

  it('remove deletes the spans and keeps the table columns', async () => {
    const out = await run({ redactPII: { mode: 'fast', replaceStyle: 'remove' } });
    expect(out.markdown).not.toMatch(/EMAIL|example\.com|4111/);
    expect(markdownStructure(out.markdown ?? '').tables).toEqual([[3, 3, 3, 3]]);
  });

  it('a .docx built here: its paragraphs and table cells are redacted', async () => {
    const w = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
    const p = (t: string) => `<w:p><w:r><w:t xml:space="preserve">${t}</w:t></w:r></w:p>`;
    const cell = (t: string) => `<w:tc>${p(t)}</w:tc>`;
    const body = `${p('Contact: jane@example.com, phone +49 30 12345678.')}<w:tbl><w:tr>${cell('IBAN')}${cell('Owner')}</w:tr><w:tr>${cell('DE89 3704 0044 0532 0130 00')}${cell('Jane Doe')}</w:tr></w:tbl>`;
    const docx = zipSync({
      '[Content_Types].xml': strToU8('<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>'),
      '_rels/.rels': strToU8('<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>'),
      'word/document.xml': strToU8(`<?xml version="1.0"?><w:document xmlns:w="${w}"><w:body>${body}</w:body></w:document>`),
    });
    const out = await parse({ bytes: Buffer.from(docx), filename: 'contact.docx' }, parseOptions({ redactPII: { mode: 'fast' } }));
    expect(out.markdown).toContain('Contact: \\<EMAIL>, phone \\<PHONE>.');
    expect(out.markdown).toMatch(/\|\s*\\<FINANCIAL>\s*\|\s*Jane Doe\s*\|/);
    expect(out.metadata.piiRedacted).toEqual(['EMAIL:1', 'PHONE:1', 'FINANCIAL:1']);
  });

  it('a corpus page: its e-mail header is redacted and nothing else changes in fast mode', async () => {
    const bytes = readCorpus('html', 'defuddle', 'fixtures', 'metadata--email-style-header-block.html');
    const plain = await parse({ bytes, filename: 'mail.html' }, parseOptions({}));
    const out = await parse({ bytes, filename: 'mail.html' }, parseOptions({ redactPII: { mode: 'fast' } }));
    expect(plain.markdown).toContain('hello@example.com');
    expect(out.markdown).not.toContain('hello@example.com');
    expect(out.markdown).toBe(plain.markdown?.replace('hello@example.com', '\\<EMAIL>'));
    expect(out.metadata.piiRedacted).toEqual(['EMAIL:1']);
  });

  it('a corpus PDF (IBM redbook sample): fast redacts the author e-mail and keeps the tables', async () => {
    const bytes = readCorpus('pdf', 'docling', 'redp5110_sampled.pdf');
    const opts = { parsers: [{ type: 'pdf' as const, mode: 'fast' as const }] };
    const plain = await parse({ bytes, filename: 'redp5110.pdf' }, parseOptions(opts));
    const out = await parse({ bytes, filename: 'redp5110.pdf' }, parseOptions({ ...opts, redactPII: { mode: 'fast' } }));
    expect(plain.markdown).toContain('hbedoya@us.ibm.com');
    expect(out.markdown).not.toContain('hbedoya@us.ibm.com');
    expect(out.markdown).toContain('\\<EMAIL>');
    expect(markdownStructure(out.markdown ?? '').tables).toEqual(markdownStructure(plain.markdown ?? '').tables);
  }, 60_000);

  it('a corpus .docx with tables: aggressive redaction keeps the rows and columns of every table and every link', async () => {
    const bytes = readCorpus('office', 'docx', 'kreuzberg-extraction_test.docx');
    const plain = await parse({ bytes, filename: 'extraction_test.docx' }, parseOptions({}));
    const out = await parse({ bytes, filename: 'extraction_test.docx' }, parseOptions({ redactPII: { mode: 'aggressive' } }));
    const before = markdownStructure(plain.markdown ?? '');
    expect(before.tables.length).toBeGreaterThan(0);
    expect(markdownStructure(out.markdown ?? '')).toEqual(before);
    expect(Array.isArray(out.metadata.piiRedacted)).toBe(true);
  }, 60_000);
});
