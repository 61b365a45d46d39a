/**
 * URLs and images in the cleaned document: absolute URLs against the base, srcset / <picture>
 * to the largest candidate, lazy-loaded images, base64 images, search-engine redirects.
 */
import { describe, expect, it } from 'vitest';
import { largestCandidate, parseSrcset } from '../../src/parse/clean/srcset.ts';
import { redirectTarget } from '../../src/parse/clean/urls.ts';
import { cleanHtml, cleanPage, READABILITY_BASE } from './clean-helpers.ts';

const OFF = { onlyMainContent: false } as const;
const fixture = (name: string) => `html/defuddle/fixtures/${name}.html`;

function linkTo(read: { document: Document }, text: string): string | null | undefined {
  return Array.from(read.document.body.querySelectorAll('a')).find((a) => a.textContent?.trim() === text)?.getAttribute('href');
}

describe('absolute URLs', () => {
  it('resolves relative links against <base href> (pixnet)', async () => {
    const read = await cleanPage('html/readability/pixnet/source.html', OFF);
    expect(read.baseUrl).toBe('http://stevenhgm.pixnet.net/blog/post/39926056');
    expect(linkTo(read, '得恩亞納部落')).toBe('http://stevenhgm.pixnet.net/blog/post/44340778');
    const icons = Array.from(read.document.body.querySelectorAll('img')).map((i) => i.getAttribute('src') ?? '');
    expect(icons).toContain('http://s.pixfs.net/blog/images/common/push_0rz_icon.gif');
  });

  it('leaves URLs as they are when no base is known', async () => {
    const read = await cleanPage(fixture('issues--227-noscript-lazy-images'), OFF);
    expect(read.baseUrl).toBeUndefined();
    expect(read.document.body.querySelector('img')?.getAttribute('src')).toBe('/images/hero.webp');
  });

  it('keeps fragment, mailto and already absolute links working', async () => {
    const read = await cleanPage('html/readability/wikipedia/source.html', OFF, READABILITY_BASE);
    const hrefs = Array.from(read.document.body.querySelectorAll('a[href]')).map((a) => a.getAttribute('href') ?? '');
    expect(hrefs.every((h) => /^(https?:|mailto:|javascript:)/.test(h))).toBe(true);
    expect(hrefs).toContain('http://fakehost/wiki/Mozilla_Foundation');
  });
});

describe('srcset and <picture>', () => {
  it('puts the largest density candidate into src and drops srcset (wikipedia: 2x of 1.5x/2x)', async () => {
    const read = await cleanPage('html/readability/wikipedia/source.html', OFF, READABILITY_BASE);
    const logo = Array.from(read.document.body.querySelectorAll('img')).find((i) => i.getAttribute('alt') === 'Mozilla dinosaur head logo.png');
    expect(logo?.getAttribute('src')).toBe('http://upload.wikimedia.org/wikipedia/commons/thumb/5/5c/Mozilla_dinosaur_head_logo.png/400px-Mozilla_dinosaur_head_logo.png');
    expect(read.document.body.querySelectorAll('img[srcset]')).toHaveLength(0);
  });

  it('resolves <picture><source srcSet> (React camelCase) over a base64 placeholder, and removes the sources', async () => {
    const read = await cleanPage(fixture('elements--srcset-normalization'));
    const img = read.document.body.querySelector('picture img');
    expect(img?.getAttribute('src')).toBe('https://www.example.com/images/hero.webp');
    expect(img?.getAttribute('alt')).toBe('Hero image with React SSR attributes.');
    expect(read.document.body.querySelectorAll('source')).toHaveLength(0);
  });

  it('picks by width descriptor when there is one, keeps commas inside URLs', () => {
    const candidates = parseSrcset('https://img.example/w_320,h_200/a.jpg 320w, https://img.example/w_1280,h_800/a.jpg 1280w, https://img.example/w_640,h_400/a.jpg 640w');
    expect(candidates.map((c) => c.url)).toEqual([
      'https://img.example/w_320,h_200/a.jpg',
      'https://img.example/w_1280,h_800/a.jpg',
      'https://img.example/w_640,h_400/a.jpg',
    ]);
    expect(largestCandidate(candidates)).toBe('https://img.example/w_1280,h_800/a.jpg');
    expect(largestCandidate(parseSrcset('a.png, b.png 1.5x'), 'src.png')).toBe('b.png');
    expect(largestCandidate(parseSrcset('a.png 1x'), 'src.png')).toBe('src.png');
  });
});

describe('lazy and base64 images (defuddle elements--base64-placeholder-removal)', () => {
  it('with removeBase64Images (default): placeholders lose their src, alt stays; lazy and picture images resolve', async () => {
    const read = await cleanPage(fixture('elements--base64-placeholder-removal'));
    const img = (alt: string) => Array.from(read.document.body.querySelectorAll('img')).find((i) => i.getAttribute('alt') === alt);
    expect(img('Unresolvable placeholder.')?.hasAttribute('src')).toBe(false);
    expect(img('Resolvable from picture source.')?.getAttribute('src')).toBe('https://www.example.com/images/resolved.webp');
    expect(img('Resolvable from data-src.')?.getAttribute('src')).toBe('https://www.example.com/images/lazy-loaded.jpg');
    expect(img('A real image.')?.getAttribute('src')).toBe('https://www.example.com/images/real-image.jpg');
    expect(read.document.body.innerHTML).not.toContain('data:image');
  });

  it('with removeBase64Images false: a base64 image keeps its data URI', async () => {
    const read = await cleanPage(fixture('elements--base64-placeholder-removal'), { removeBase64Images: false });
    const placeholder = Array.from(read.document.body.querySelectorAll('img')).find((i) => i.getAttribute('alt') === 'Unresolvable placeholder.');
    expect(placeholder?.getAttribute('src')).toMatch(/^data:image\/gif;base64,R0lGOD/);
  });

  it('drops the inline SVG data URIs of a Bing page (markitdown must-not-include)', async () => {
    const read = await cleanPage('html/markitdown/test_serp.html');
    expect(read.document.body.innerHTML).not.toContain('data:image/svg+xml');
  });
});

describe('search-engine redirects', () => {
  it('decodes Bing, Google and DuckDuckGo redirects; a redirect to javascript: leads nowhere', () => {
    expect(redirectTarget('https://www.bing.com/ck/a?!&&p=x&u=a1aHR0cHM6Ly9lbi53aWtpcGVkaWEub3JnL3dpa2kvTWljcm9zb2Z0&ntb=1')).toBe('https://en.wikipedia.org/wiki/Microsoft');
    expect(redirectTarget('https://www.bing.com/ck/a?!&&p=x&u=a1Lz9GT1JNPVo5RkQx&ntb=1')).toBe('https://www.bing.com/?FORM=Z9FD1');
    expect(redirectTarget('https://www.bing.com/ck/a?!&&p=x&u=a1amF2YXNjcmlwdDp2b2lkKDAp&ntb=1')).toBeNull();
    expect(redirectTarget('https://www.google.com/url?q=https://example.org/page&sa=U')).toBe('https://example.org/page');
    expect(redirectTarget('https://duckduckgo.com/l/?uddg=https%3A%2F%2Fexample.org%2F&rut=1')).toBe('https://example.org/');
    expect(redirectTarget('https://example.org/url?q=1')).toBeUndefined();
  });

  it('rewrites the links in the document', async () => {
    const read = await cleanHtml('<p><a href="https://www.google.com/url?q=https://developer.mozilla.org/&amp;sa=U">MDN</a></p>', OFF);
    expect(read.document.body.querySelector('a')?.getAttribute('href')).toBe('https://developer.mozilla.org/');
  });
});
