/**
 * onlyMainContent on Defuddle's hand-made and trimmed real pages and on markitdown's test pages:
 * the hard cases for not dropping real content (content wrapped in <header>, an aria-hidden
 * <main>, code blocks whose highlighter classes look like furniture) and for dropping furniture
 * (Wikipedia chrome, search-engine redirects).
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { corpusPath } from '../helpers/corpus.ts';
import { bodyText, cleanHtml, cleanPage } from './clean-helpers.ts';

const fixture = (name: string) => `html/defuddle/fixtures/${name}.html`;

interface MarkitdownCase {
  file: string;
  url: string;
  must_include: string[];
  must_not_include: string[];
}

const vectors = JSON.parse(fs.readFileSync(corpusPath('html', 'markitdown', 'markitdown-vectors.json'), 'utf8')) as { cases: MarkitdownCase[] };

function vector(file: string): MarkitdownCase {
  const found = vectors.cases.find((c) => c.file === file);
  if (!found) throw new Error(`no markitdown vector for ${file}`);
  return found;
}

/** markitdown's Markdown strings as plain text: `[text](url "title")` → text, `**bold**` → bold. */
function plain(markdown: string): string {
  return markdown.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/\*\*/g, '').replace(/[[\]]/g, '');
}

describe('onlyMainContent keeps real content', () => {
  it('keeps an article whose whole body is wrapped in a <header> (Webflow), drops the page nav and footer', async () => {
    const read = await cleanPage(fixture('issues--header-wraps-content'));
    const text = bodyText(read);
    expect(read.document.body.querySelector('h1')?.textContent).toBe('We Rewrote Example Tool with AI');
    expect(text).toContain('A few weeks ago, a major cloud provider published a post about rewriting a popular framework with AI in one week.');
    expect(text).toContain('It also enabled further optimizations that compound the savings.');
    expect(text).not.toContain('Copyright 2026 Example Blog');
    expect(read.document.body.querySelector('a[href="/blog"]')).toBeNull();
  });

  it("keeps the article's <header> with its kicker, title and subtitle", async () => {
    const text = bodyText(await cleanPage(fixture('issues--header-with-subtitle-p')));
    expect(text).toContain('Gaming Playing a Classic FPS with One Hand in 2026 Over three decades later, this historical curiosity has more than a few rough edges');
    expect(text).toContain('When the original first-person shooter was released in 1992, it changed gaming forever.');
  });

  it('keeps a <main> that is aria-hidden when it holds the page text (a hidden element holding most of the page is kept)', async () => {
    const text = bodyText(await cleanPage(fixture('issues--162-aria-hidden-main-content')));
    expect(text).toContain('Hello, we believe in building in the open and sharing progress publicly');
    expect(text).toContain('Over the coming months, we will publish architecture notes, design tradeoffs, and implementation updates.');
  });

  it('keeps code blocks whole, highlighter spans named "comment" included', async () => {
    const read = await cleanPage(fixture('codeblocks--hljs-header'));
    const code = read.document.body.querySelector('pre code')?.textContent ?? '';
    expect(code).toContain('# Prompt the user for their name');
    expect(code).toContain('read -p "Enter your name: " name');
    expect(code).toContain('echo "Hello, $name"');
  });

  it('keeps a callout <aside> inside the article, drops the share aside (ars-1)', async () => {
    const kotlin = bodyText(await cleanPage(fixture('codeblocks--rockthejvm.com-articles-kotlin-101-type-classes')));
    expect(kotlin).toContain('Type classes are tough. If you need to become proficient in Kotlin');
    const ars = await cleanPage('html/readability/ars-1/source.html');
    expect(ars.document.body.querySelector('#social-left')).toBeNull();
  });

  it('keeps a paragraph whose class merely contains "related" (h2-related)', async () => {
    expect(bodyText(await cleanPage(fixture('issues--217-writerside-docs')))).toContain('Use these methods to interact with the API.');
  });

  it('keeps every result and the Wikipedia card of a Bing results page (markitdown test_serp)', async () => {
    const v = vector('test_serp.html');
    const read = await cleanPage('html/markitdown/test_serp.html', {}, v.url);
    const text = bodyText(read);
    for (const must of v.must_include) {
      if (must.startsWith('](')) continue;
      expect(text).toContain(plain(must));
    }
    const hrefs = Array.from(read.document.body.querySelectorAll('a[href]')).map((a) => a.getAttribute('href') ?? '');
    expect(hrefs).toContain('https://en.wikipedia.org/wiki/Microsoft');
  });

  it('keeps the blog post of markitdown test_blog', async () => {
    const v = vector('test_blog.html');
    const text = bodyText(await cleanPage('html/markitdown/test_blog.html', {}, v.url));
    for (const must of v.must_include) expect(text).toContain(plain(must));
  });
});

describe('onlyMainContent drops furniture', () => {
  it('drops Wikipedia chrome (markitdown test_wikipedia) and keeps the article', async () => {
    const v = vector('test_wikipedia.html');
    const read = await cleanPage('html/markitdown/test_wikipedia.html', {}, v.url);
    const text = bodyText(read);
    for (const must of v.must_include) expect(text).toContain(plain(must));
    for (const mustNot of v.must_not_include) expect(text).not.toContain(mustNot);
    const gates = Array.from(read.document.body.querySelectorAll('a[href]')).find((a) => a.textContent?.trim() === 'Bill Gates');
    expect(gates?.getAttribute('href')).toBe('https://en.wikipedia.org/wiki/Bill_Gates');
  });

  it('replaces Bing click-tracking links by their targets and unlinks redirects to nowhere', async () => {
    const v = vector('test_serp.html');
    const read = await cleanPage('html/markitdown/test_serp.html', {}, v.url);
    for (const mustNot of v.must_not_include) expect(read.document.body.innerHTML).not.toContain(mustNot);
    expect(read.document.body.innerHTML).not.toContain('bing.com/ck/a');
  });

  it('keeps the article text before a trailing list of related posts', async () => {
    const text = bodyText(await cleanPage(fixture('content-patterns--trailing-related-posts')));
    expect(text).toContain("Coffee cools following Newton's law of cooling.");
    expect(text).toContain('They were kind enough to charge me for that service.');
  });

  it('drops the page header, navigation and footer around a plain <main> (cookie-consent page)', async () => {
    const read = await cleanPage(fixture('gated-content--cookie-consent'));
    const text = bodyText(read);
    expect(text).toContain('The company on Thursday began removing advertisements from attorneys');
    expect(text).toContain('the move could draw attention from lawmakers');
    expect(read.document.body.querySelector('a[href="/politics"]')).toBeNull();
    expect(text).not.toContain('Manage your tracker preferences');
  });

  it('without onlyMainContent keeps the navigation and footer', async () => {
    const read = await cleanPage(fixture('issues--header-wraps-content'), { onlyMainContent: false });
    expect(bodyText(read)).toContain('Copyright 2026 Example Blog');
    expect(read.document.body.querySelector('a[href="/blog"]')?.textContent).toBe('Blog');
  });
});

describe('onlyMainContent and elements hidden by class', () => {
  it("drops Wikipedia's hidden maintenance categories and keeps the visible ones (readability wikipedia-3)", async () => {
    const text = bodyText(await cleanPage('html/readability/wikipedia-3/source.html'));
    expect(text).toContain('Matrices');
    expect(text).not.toContain('Hidden categories');
    expect(text).not.toContain('Articles with short description');
    const all = bodyText(await cleanPage('html/readability/wikipedia-3/source.html', { onlyMainContent: false }));
    expect(all).toContain('Articles with short description');
  });

  it('keeps hidden prose (an accordion answer), responsive and screen-reader text; drops a hidden box of links', async () => {
    const filler = '<p>' + 'The article text goes on for a while so that the page has a body. '.repeat(20) + '</p>';
    const html = `<html><body><main><h1>FAQ</h1>${filler}
      <div class="faq"><button>How long does shipping take?</button><div class="answer hidden">Orders leave the warehouse within two working days of payment.</div></div>
      <div class="hidden md:block">Shown on wide screens: the delivery map explained in words.</div>
      <span class="visually-hidden">Opens in a new window</span>
      <div class="links is-hidden"><a href="/a">Alpha</a> <a href="/b">Beta</a> <a href="/c">Gamma</a></div>
    </main></body></html>`;
    const text = bodyText(await cleanHtml(html));
    expect(text).toContain('Orders leave the warehouse within two working days');
    expect(text).toContain('Shown on wide screens');
    expect(text).toContain('Opens in a new window');
    expect(text).not.toContain('Gamma');
  });
});
