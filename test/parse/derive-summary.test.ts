/**
 * The offline extractive summary (src/parse/derive/summary) on real corpus documents read by the
 * real readers, and on small documents built here: it holds the document's key sentence, quotes
 * the document (never invented text), is bounded, skips tables, code and furniture, and splits
 * sentences in the document's language (CJK without spaces too).
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findPii, piiSettings, redactRead } from '../../src/parse/derive/pii/index.ts';
import { DEFAULT_MAX_CHARS, DEFAULT_MAX_SENTENCES, extractiveSummary, summarySentences } from '../../src/parse/derive/summary/extractive.ts';
import { documentFromHtml, emptyMetadata, type ReadResult } from '../../src/parse/document.ts';
import { readCorpus } from '../helpers/corpus.ts';
import { readDocument } from '../helpers/read-document.ts';

async function corpusRead(file: string): Promise<ReadResult> {
  return readDocument(readCorpus(file), path.basename(file));
}

function synthetic(bodyHtml: string, language = 'en'): ReadResult {
  return { document: documentFromHtml(bodyHtml, language), metadata: { ...emptyMetadata(), language }, warnings: [], rawHtml: '' };
}

/**
 * Every sentence of the summary is in the document's text (whitespace and footnote markers such
 * as Wikipedia's `[3]` aside), and the summary is them joined.
 */
function quotesDocument(summary: string, read: ReadResult): void {
  const squash = (s: string): string => s.replace(/\s+/g, '');
  const body = read.document.body.cloneNode(true) as Element;
  for (const sup of body.querySelectorAll('sup')) if (/^\s*\[?\d{1,3}\]?\s*$/.test(sup.textContent ?? '')) sup.remove();
  const text = squash(body.textContent ?? '');
  const sentences = summarySentences(read);
  expect(sentences.length).toBeGreaterThan(0);
  expect(sentences.length).toBeLessThanOrEqual(DEFAULT_MAX_SENTENCES);
  for (const sentence of sentences) expect(text).toContain(squash(sentence));
  expect(squash(summary)).toBe(squash(sentences.join('')));
}

/** Key sentences: the first sentence of a paper's abstract, of a news article, of a story. */
const KEY_SENTENCES: [string, string][] = [
  ['pdf/opendataloader-pdf/PDFUA-Ref-2-03_AcademicAbstract.pdf', 'PDF has long been established as the de facto format for the exchange of print-oriented documents'],
  ['pdf/pdfjs/tracemonkey.pdf', 'Dynamic languages such as JavaScript are more difficult to compile than statically typed ones.'],
  ['html/readability/wikipedia/source.html', 'Mozilla is a free-software community, created in 1998 by members of Netscape.'],
  ['html/readability/lemonde-1/source.html', 'Les députés ont, sans surprise, adopté à une large majorité (438 contre 86 et 42 abstentions) le projet de loi sur le renseignement'],
  ['html/readability/heise/source.html', 'Das in der iOS-Version bereits enthaltene TOTP-Feature ist nun auch für OS X 10.10 verfügbar.'],
  ['html/readability/qq/source.html', '在2014年收购的人工智能公司DeepMind开发出一款能够用自己的记忆学习新知识并利用这些知识来回答问题的计算机。'],
  ['html/readability/hukumusume/source.html', '肉をくわえたイヌが、橋を渡っていました。'],
];

describe('offline summary on corpus documents', () => {
  it.each(KEY_SENTENCES)('%s: holds its key sentence, quotes the document, stays within the bounds', async (file, key) => {
    const read = await corpusRead(file);
    const summary = extractiveSummary(read);
    expect(summary).toContain(key);
    expect(summary.length).toBeLessThanOrEqual(DEFAULT_MAX_CHARS);
    quotesDocument(summary, read);
  });

  it('a Chinese and a Japanese summary join their sentences without spaces, ending in full stops', async () => {
    for (const file of ['html/readability/qq/source.html', 'html/readability/hukumusume/source.html']) {
      const summary = extractiveSummary(await corpusRead(file));
      expect(summary).toMatch(/[。！？）)]$/u);
      expect(summary).not.toMatch(/。 /u);
      expect(summary.length).toBeGreaterThan(50);
    }
  });

  it('an invoice: its terms sentence, none of its table rows', async () => {
    const read = await corpusRead('pdf/opendataloader-pdf/PDFUA-Ref-2-02_Invoice.pdf');
    const summary = extractiveSummary(read);
    expect(summary).toContain('Terms of payment: 30 days net.');
    expect(summary).not.toMatch(/Super Kite|Turbo Flyer|845\.00/);
  });

  it('honours smaller bounds and is deterministic', async () => {
    const read = await corpusRead('pdf/pdfjs/tracemonkey.pdf');
    const short = extractiveSummary(read, { maxChars: 300, maxSentences: 2 });
    expect(short.length).toBeGreaterThan(0);
    expect(short.length).toBeLessThanOrEqual(300);
    expect(summarySentences(read, { maxChars: 300, maxSentences: 2 }).length).toBeLessThanOrEqual(2);
    expect(extractiveSummary(read)).toBe(extractiveSummary(read));
  });
});

describe('offline summary on built documents', () => {
  it('skips tables, code, navigation and link lists; keeps abbreviations inside their sentence', () => {
    const read = synthetic(`<nav><p>Home page of the tidal energy research consortium and its many partners.</p></nav>
      <h1>Tidal power</h1>
      <p>Tidal power converts the energy of tides into electricity for coastal grids. Dr. Smith measured the output of the Orkney turbines over two full years.</p>
      <table><tr><td>The turbine table row is a long sentence about tidal power output that must not appear.</td><td>12</td></tr></table>
      <pre><code>// This code comment about tidal power output must not appear in the summary.</code></pre>
      <p><a href="/a">Read also: tidal power in the news and tidal power in the archives today.</a></p>
      <p>The turbines produced more tidal power in winter than in summer because of the storms.</p>`);
    const summary = extractiveSummary(read);
    expect(summary).toContain('Tidal power converts the energy of tides into electricity for coastal grids.');
    expect(summary).toContain('Dr. Smith measured the output of the Orkney turbines over two full years.');
    expect(summary).not.toMatch(/table row|code comment|Home page|Read also/);
  });

  it('prefers the abstract-like section and joins a paragraph cut by a page break', () => {
    const filler = [
      'Divers counted fish along fixed transects every spring.',
      'Water temperature was logged hourly by moored sensors.',
      'Each transect was photographed from a height of two metres.',
      'Samples of algae were frozen and shipped to the laboratory.',
      'The survey boats left the harbour before sunrise each day.',
      'Volunteers from the local school helped to sort the photographs.',
      'Storms in the second winter delayed the fieldwork by a month.',
      'All counts were entered twice by different people to catch typing errors.',
    ].map((s) => `<p>${s}</p>`).join('');
    const read = synthetic(`<h2>Methods</h2>${filler}<h2>Conclusion</h2><p>We conclude that coral reefs recover within a decade when</p><p>fishing pressure is removed from the protected area.</p>`);
    const summary = extractiveSummary(read, { maxSentences: 2 });
    expect(summary).toContain('We conclude that coral reefs recover within a decade when fishing pressure is removed from the protected area.');
  });

  it('an empty document or one without sentences: the empty string', () => {
    expect(extractiveSummary(synthetic(''))).toBe('');
    expect(extractiveSummary(synthetic('<table><tr><th>A</th><th>B</th></tr><tr><td>1</td><td>2</td></tr></table>'))).toBe('');
  });

  it('summarises what redactPII left: the redacted document gives a redacted summary', async () => {
    const read = synthetic('<h1>Support</h1><p>Write to jane.doe@example.com for a copy of the annual report on tidal power.</p><p>The annual report covers tidal power output for the whole year in detail.</p>');
    const settings = piiSettings({ mode: 'fast', replaceStyle: 'tag' });
    if (!settings) throw new Error('settings');
    await redactRead(read, settings, { rawHtml: false });
    const summary = extractiveSummary(read);
    expect(summary).toContain('Write to <EMAIL> for a copy');
    expect(await findPii(summary, { mode: 'fast', groups: settings.groups })).toEqual([]);
  });
});
