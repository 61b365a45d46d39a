/**
 * The parts of the clean step that do not depend on main-content extraction: noise, hidden
 * elements, blockAds, includeTags / excludeTags, and the page-furniture contract for the other
 * document kinds. Most run with onlyMainContent off so each rule is seen on its own.
 */
import { describe, expect, it } from 'vitest';
import { documentFromHtml, emptyMetadata, type ReadResult } from '../../src/parse/document.ts';
import { bodyText, cleanAs, cleanPage, normalize } from './clean-helpers.ts';

const OFF = { onlyMainContent: false } as const;
const fixture = (name: string) => `html/defuddle/fixtures/${name}.html`;

describe('noise', () => {
  it('removes script, style, noscript, meta, template and comments, and empties the head (ars-1)', async () => {
    const read = await cleanPage('html/readability/ars-1/source.html', OFF);
    const body = read.document.body;
    expect(body.querySelectorAll('script, style, noscript, meta, template, link, title')).toHaveLength(0);
    expect(read.document.head.childNodes).toHaveLength(0);
    expect(body.innerHTML).not.toContain('<!--');
    // The raw HTML is untouched.
    expect(read.rawHtml).toContain('<script');
  });
});

describe('hidden elements', () => {
  it('drops display:none and [hidden] paragraphs, keeps the visible ones (defuddle hidden--nodes)', async () => {
    const read = await cleanPage(fixture('hidden--nodes'), OFF);
    expect(read.document.body.querySelectorAll('p')).toHaveLength(1);
    expect(bodyText(read)).toContain('Secondary header');
    expect(bodyText(read)).toContain('Third header');
  });

  it('drops a visibility:hidden block, keeps the rest of the article (defuddle hidden--visibility)', async () => {
    const text = bodyText(await cleanPage(fixture('hidden--visibility'), OFF));
    expect(text).not.toContain('Lorem ipsum dolor sit amet, consectetur adipisicing elit');
    expect(text).toContain('Tempor incididunt ut labore et dolore magna aliqua.');
  });

  it('drops aria-hidden rendering and keeps the assistive MathML (readability mathjax)', async () => {
    const read = await cleanPage('html/readability/mathjax/source.html', OFF);
    expect(read.document.body.querySelectorAll('[aria-hidden="true"]')).toHaveLength(0);
    expect(read.document.body.querySelectorAll('mjx-assistive-mml math').length).toBeGreaterThan(0);
  });
});

describe('blockAds', () => {
  it('removes ad slots by class words (aktualne advert__*, pixnet adsbygoogle) and keeps them when off', async () => {
    const blocked = await cleanPage('html/readability/aktualne/source.html', OFF);
    expect(blocked.document.body.querySelectorAll('.advert, .advert__content')).toHaveLength(0);
    const kept = await cleanPage('html/readability/aktualne/source.html', { ...OFF, blockAds: false });
    expect(kept.document.body.querySelectorAll('.advert, .advert__content').length).toBeGreaterThan(0);
    const pixnet = await cleanPage('html/readability/pixnet/source.html', OFF);
    expect(pixnet.document.body.querySelectorAll('ins.adsbygoogle')).toHaveLength(0);
  });

  it('removes a cookie-consent overlay (defuddle gated-content--cookie-consent), and not when off', async () => {
    const blocked = bodyText(await cleanPage(fixture('gated-content--cookie-consent'), OFF));
    expect(blocked).not.toContain('We use cookies and similar tracking technologies');
    expect(blocked).toContain('The company on Thursday began removing advertisements from attorneys');
    const kept = bodyText(await cleanPage(fixture('gated-content--cookie-consent'), { ...OFF, blockAds: false }));
    expect(kept).toContain('We use cookies and similar tracking technologies');
  });

  it('does not take "ad" inside other words for an ad (header, download, badge, shadow)', async () => {
    const read = await cleanPage('html/readability/ars-1/source.html', OFF);
    expect(read.document.body.querySelector('header.article-header')).not.toBeNull();
    expect(read.document.body.querySelector('header.site-header')).not.toBeNull();
  });
});

describe('includeTags / excludeTags', () => {
  it('includeTags keeps only the matches, in document order (v8-blog h2)', async () => {
    const page = await cleanPage('html/readability/v8-blog/source.html', OFF);
    const headings = Array.from(page.document.body.querySelectorAll('h2')).map((h) => normalize(h.textContent ?? ''));
    const read = await cleanPage('html/readability/v8-blog/source.html', { includeTags: ['h2'] });
    const children = Array.from(read.document.body.children);
    expect(children.map((c) => c.localName)).toEqual(headings.map(() => 'h2'));
    expect(children.map((c) => normalize(c.textContent ?? ''))).toEqual(headings);
    expect(headings.length).toBeGreaterThan(3);
  });

  it('includeTags keeps the outermost match when matches nest (keep-tabular-data); what it chose is kept whole', async () => {
    const read = await cleanPage('html/readability/keep-tabular-data/source.html', { includeTags: ['table', 'td'] });
    const children = Array.from(read.document.body.children);
    expect(children.every((c) => c.localName === 'table')).toBe(true);
    expect(bodyText(read)).toContain('Implementation draft');
    const nav = await cleanPage('html/readability/wapo-1/source.html', { includeTags: ['#site-menu'] });
    expect(bodyText(nav)).toContain('WP BrandConnect');
  });

  it('excludeTags removes every match; selectors see the page as written (wikipedia .infobox, table.navbox td)', async () => {
    const read = await cleanPage('html/readability/wikipedia/source.html', { ...OFF, excludeTags: ['.infobox', 'table.navbox td'] });
    expect(read.document.body.querySelector('.infobox')).toBeNull();
    expect(read.document.body.querySelectorAll('table.navbox td')).toHaveLength(0);
    expect(bodyText(read)).toContain('Mozilla is a free-software community');
  });

  it('a match inside an excluded element stays excluded', async () => {
    const read = await cleanPage('html/readability/wikipedia/source.html', { includeTags: ['table'], excludeTags: ['.infobox'] });
    const tables = Array.from(read.document.body.children);
    expect(tables.length).toBeGreaterThan(0);
    expect(tables.every((t) => t.localName === 'table' && !t.classList.contains('infobox'))).toBe(true);
  });

  it('includeTags matching <body> keeps everything; excludeTags matching <body> leaves it empty', async () => {
    const all = await cleanPage(fixture('hidden--visibility'), { ...OFF, includeTags: ['body'] });
    expect(bodyText(all)).toContain('Tempor incididunt ut labore');
    const none = await cleanPage(fixture('hidden--visibility'), { ...OFF, excludeTags: ['body'] });
    expect(none.document.body.childNodes).toHaveLength(0);
  });
});

describe('page furniture of paged documents (contracts)', () => {
  function pagedDocument(): ReadResult {
    const document = documentFromHtml(
      '<section data-page="1">\n<header data-furniture="header">Annual Report 2023 — Page 1</header>\n' +
        '<h1>Results</h1>\n<p>Revenue grew by 12 percent.</p>\n<nav><p>Navigation is content in a PDF</p></nav>\n' +
        '<footer data-furniture="footer">Confidential</footer>\n</section>',
    );
    return { document, metadata: emptyMetadata(), warnings: [], rawHtml: document.body.innerHTML };
  }

  it('onlyMainContent drops [data-furniture]; nothing else web-specific is applied to a PDF', () => {
    const read = cleanAs('pdf', pagedDocument());
    const text = bodyText(read);
    expect(text).not.toContain('Annual Report 2023 — Page 1');
    expect(text).not.toContain('Confidential');
    expect(text).toContain('Revenue grew by 12 percent.');
    expect(text).toContain('Navigation is content in a PDF');
  });

  it('without onlyMainContent the running header and footer stay as ordinary content', () => {
    const text = bodyText(cleanAs('docx', pagedDocument(), OFF));
    expect(text).toContain('Annual Report 2023 — Page 1');
    expect(text).toContain('Confidential');
  });

  it('includeTags and excludeTags apply to every kind', () => {
    expect(bodyText(cleanAs('docx', pagedDocument(), { includeTags: ['h1'] }))).toBe('Results');
    expect(bodyText(cleanAs('xlsx', pagedDocument(), { ...OFF, excludeTags: ['p'] }))).toBe('Annual Report 2023 — Page 1 Results Confidential');
  });
});
