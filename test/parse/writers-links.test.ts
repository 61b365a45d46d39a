import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { documentFromHtml } from '../../src/parse/document.ts';
import { contentBody, toHtml } from '../../src/parse/writers/html.ts';
import { collectImages, collectLinks } from '../../src/parse/writers/links.ts';
import { toMarkdown } from '../../src/parse/writers/markdown.ts';
import { readCorpus } from '../helpers/corpus.ts';

describe('links writer', () => {
  it('lists every a[href] once, in document order', () => {
    const doc = documentFromHtml('<a href="https://b.example/">b</a><p><a href="/a">a</a> <a href="https://b.example/">again</a></p><a>no href</a><a href=" /c ">c</a>');
    expect(collectLinks(doc)).toEqual(['https://b.example/', '/a', '/c']);
  });

  it('keeps mailto:, tel: and #fragment links; drops javascript:, empty and bare # hrefs', () => {
    const doc = documentFromHtml(
      '<a href="mailto:x@example.com">m</a><a href="tel:+15550100">t</a><a href="#section-2">s</a>' +
        '<a href="javascript:void(0)">j</a><a href="JavaScript:alert(1)">J</a><a href="java\nscript:alert(1)">split</a><a href="">e</a><a href="#">h</a>',
    );
    expect(collectLinks(doc)).toEqual(['mailto:x@example.com', 'tel:+15550100', '#section-2']);
  });

  it('collects links from a real page (markitdown test_blog.html)', () => {
    const { document } = parseHTML(readCorpus('html/markitdown', 'test_blog.html').toString('utf8'));
    const links = collectLinks(document);
    expect(new Set(links).size).toBe(links.length);
    expect(links).toContain('https://arxiv.org/abs/2303.04673');
    expect(links.some((l) => l.toLowerCase().startsWith('javascript:'))).toBe(false);
  });
});

describe('images writer', () => {
  it('lists every img[src] once, leaving out data: images and images without src', () => {
    const doc = documentFromHtml('<img src="/a.png" alt="a"><img alt="placeholder"><img src="data:image/png;base64,iVBORw0KGgo="><p><img src="/b.jpg"><img src="/a.png"></p><img src="">');
    expect(collectImages(doc)).toEqual(['/a.png', '/b.jpg']);
  });
});

describe('html writer', () => {
  it('serializes the body content as it is', () => {
    const doc = documentFromHtml('<h1>T</h1><p>a <b>b</b></p><table><tr><td colspan="2">x</td></tr></table>');
    expect(toHtml(doc)).toBe('<h1>T</h1><p>a <b>b</b></p><table><tr><td colspan="2">x</td></tr></table>');
  });

  it('finds the real body when something precedes <head> (linkedom would invent an empty one)', () => {
    const { document } = parseHTML('<!doctype html><html><script>var x;</script><head><title>t</title></head><body><p>content</p></body></html>');
    expect(contentBody(document).innerHTML).toBe('<p>content</p>');
    expect(toHtml(document)).toBe('<p>content</p>');
    expect(toMarkdown(document.body)).toBe('content');
  });
});
