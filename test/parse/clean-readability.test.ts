/**
 * onlyMainContent against Mozilla Readability's 30 test pages: Readability's extracted article
 * (`expected.html`) is the reference for what the main content is.
 *
 * The aggregate numbers are a ratchet, measured on this corpus when the cleaner was written
 * (mean recall 0.998, worst page 0.942 (qq: the byline and poll Readability keeps), mean
 * boilerplate kept 0.063, worst page 0.62 (pixnet: its 42 reader comments, which folio keeps
 * as content and Readability drops)). Raise them when the cleaner gets better; never lower
 * them to make a change pass.
 */
import fs from 'node:fs';
import { parseHTML } from 'linkedom';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ReadResult } from '../../src/parse/document.ts';
import { sharedCount } from '../../bench/pdf/multiset.ts';
import { corpusPath } from '../helpers/corpus.ts';
import { bodyText, cleanPage, normalize, READABILITY_BASE } from './clean-helpers.ts';

const PAGES = fs
  .readdirSync(corpusPath('html', 'readability'))
  .filter((name) => fs.statSync(corpusPath('html', 'readability', name)).isDirectory())
  .sort();

/** Words, with CJK text counted per character (it has no spaces between words). */
function tokens(text: string): string[] {
  const out: string[] = [];
  for (const word of text.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    if (!word) continue;
    if (/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u.test(word)) out.push(...word);
    else out.push(word);
  }
  return out;
}

/** Multiset overlap: how much of `expected` is in `got`, and how much of `got` is not in `expected`. */
function overlap(expected: string[], got: string[]): { recall: number; boilerplate: number } {
  const common = sharedCount(expected, got);
  return { recall: common / expected.length, boilerplate: got.length === 0 ? 0 : 1 - common / got.length };
}

interface Page {
  name: string;
  cleaned: ReadResult;
  text: string;
  expected: Document;
}

const pages: Page[] = [];

beforeAll(async () => {
  for (const name of PAGES) {
    const cleaned = await cleanPage(`html/readability/${name}/source.html`, {}, READABILITY_BASE);
    const expected = parseHTML(fs.readFileSync(corpusPath('html', 'readability', name, 'expected.html'), 'utf8')).document;
    pages.push({ name, cleaned, text: bodyText(cleaned), expected });
  }
});

function page(name: string): Page {
  const found = pages.find((p) => p.name === name);
  if (!found) throw new Error(`no readability page ${name}`);
  return found;
}

describe('onlyMainContent on the Readability pages', () => {
  it('has all 30 pages', () => {
    expect(PAGES).toHaveLength(30);
  });

  it.each(PAGES.filter((name) => name !== 'ietf-1'))('%s keeps the first and last paragraph of the article', (name) => {
    const p = page(name);
    const paragraphs = Array.from(p.expected.querySelectorAll('p'))
      .map((e) => normalize(e.textContent ?? ''))
      .filter((t) => t.length >= 60);
    expect(paragraphs.length).toBeGreaterThan(0);
    expect(p.text).toContain(paragraphs[0]);
    expect(p.text).toContain(paragraphs[paragraphs.length - 1]);
  });

  it('ietf-1 (an RFC in <pre>) keeps its text blocks verbatim', () => {
    const p = page('ietf-1');
    const blocks = Array.from(p.expected.querySelectorAll('pre')).map((e) => normalize(e.textContent ?? ''));
    expect(blocks.length).toBeGreaterThan(0);
    for (const block of blocks) expect(p.text).toContain(block);
  });

  it('aggregate: keeps ≥ 0.995 of the article words on average, ≥ 0.94 on every page, and little else', () => {
    const scores = pages.map((p) => ({
      name: p.name,
      ...overlap(tokens(p.expected.documentElement?.textContent ?? p.expected.toString()), tokens(p.text)),
    }));
    const mean = (f: (s: (typeof scores)[number]) => number) => scores.reduce((a, s) => a + f(s), 0) / scores.length;
    expect(mean((s) => s.recall)).toBeGreaterThanOrEqual(0.995);
    for (const s of scores) expect({ name: s.name, recall: s.recall >= 0.94 }).toEqual({ name: s.name, recall: true });
    expect(mean((s) => s.boilerplate)).toBeLessThanOrEqual(0.065);
    for (const s of scores) expect({ name: s.name, boilerplate: s.boilerplate <= 0.65 }).toEqual({ name: s.name, boilerplate: true });
  });
});

describe('onlyMainContent: page furniture is gone, the article stays', () => {
  it('ars-1: the article header survives with its kicker and standfirst; site menus, skip links and the login box do not', () => {
    const { text, cleaned } = page('ars-1');
    expect(cleaned.document.body.querySelector('h1')?.textContent?.trim()).toBe('Just-released Minecraft exploit makes it easy to crash game servers');
    expect(text).toContain('Two-year-old bug exposes thousands of servers to crippling attack.');
    expect(text).toContain('Biz & IT');
    for (const gone of ['Skip to main content', 'Advertise with Ars', 'Staff Directory', 'Sign up or login to join the discussions!', 'Stay logged in']) {
      expect(text).not.toContain(gone);
    }
  });

  it('v8-blog: keeps the post, drops the site navigation and the licence footer', () => {
    const { text } = page('v8-blog');
    expect(text).not.toContain('Except as otherwise noted, any code samples from the V8 project are licensed under');
    expect(text).not.toContain('Edit this page on GitHub');
    expect(text).not.toContain('Show navigation');
  });

  it('nytimes-1: drops the browser warning, skip links and the subscription bar', () => {
    const { text } = page('nytimes-1');
    for (const gone of ['NYTimes.com no longer supports Internet Explorer 9', 'Skip to navigation', 'SUBSCRIBE NOW', 'Get The Times.']) {
      expect(text).not.toContain(gone);
    }
  });

  it('wapo-1: drops the section menu', () => {
    const { text } = page('wapo-1');
    for (const gone of ['WP BrandConnect', 'Accessibility for screenreader', 'Classifieds']) expect(text).not.toContain(gone);
  });

  it('medium-1: drops the metabar and the share drawer', () => {
    const { text } = page('medium-1');
    for (const gone of ['Sign in / Sign up', 'Share on Twitter', 'Yes, show me sharing options']) expect(text).not.toContain(gone);
  });

  it('keep-tabular-data: the data table keeps every cell, its header row included', () => {
    const { cleaned, expected } = page('keep-tabular-data');
    const cells = (doc: Document) => Array.from(doc.querySelectorAll('table td, table th')).map((c) => normalize(c.textContent ?? ''));
    expect(cells(cleaned.document)).toEqual(cells(expected));
    expect(cells(cleaned.document)).toContain('Implementation draft');
  });

  it('links-in-tables: tables of links are content when they are the article', () => {
    const { cleaned, expected } = page('links-in-tables');
    const links = (doc: Document) => Array.from(doc.querySelectorAll('table a')).map((a) => normalize(a.textContent ?? ''));
    expect(links(expected).length).toBeGreaterThanOrEqual(6);
    expect(links(cleaned.document)).toEqual(links(expected));
  });

  it('resolves relative links against the page URL (Readability resolves against fakehost too)', () => {
    const { cleaned } = page('lemonde-1');
    const hrefs = Array.from(cleaned.document.body.querySelectorAll('a[href]')).map((a) => a.getAttribute('href') ?? '');
    expect(hrefs).toContain('http://fakehost/pixels/live/2015/05/05/suivez-le-vote-de-la-loi-renseignement-en-direct_4628012_4408996.html');
  });
});
