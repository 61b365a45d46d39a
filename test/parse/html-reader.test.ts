import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { readCorpus } from '../helpers/corpus.ts';
import { normalize, readBytes, readPage } from './clean-helpers.ts';

const LEMONDE_TITLE = "Le projet de loi sur le renseignement massivement approuvé à l'Assemblée";
const HUKUMUSUME_TITLE = '欲張りなイヌ ＜福娘童話集 きょうのイソップ童話＞';
const QQ_TITLE = 'DeepMind新电脑已可利用记忆自学 人工智能迈上新台阶_科技_腾讯网';

/** The characters of `text` that `encoding` can hold (a legacy charset has no ▾ or emoji). */
function representable(text: string, encoding: string): string {
  return [...text].filter((ch) => ch.charCodeAt(0) < 0x80 || iconv.decode(iconv.encode(ch, encoding), encoding) === ch).join('');
}

/** A corpus page with its first charset declaration replaced, encoded in that charset. */
function reencode(page: string, declaration: string, encoding: string): { text: string; bytes: Buffer } {
  const original = readCorpus('html', 'readability', page, 'source.html').toString('utf8');
  const text = representable(original.replace(/<meta[^>]*charset[^>]*>/i, declaration), encoding);
  const bytes = iconv.encode(text, encoding);
  expect(iconv.decode(bytes, encoding)).toBe(text);
  return { text, bytes };
}

describe('readHtml: character encoding', () => {
  it('reads a UTF-8 page exactly as received into rawHtml', async () => {
    const bytes = readCorpus('html', 'readability', 'ars-1', 'source.html');
    const read = await readPage('html/readability/ars-1/source.html');
    expect(read.rawHtml).toBe(bytes.toString('utf8'));
    expect(read.warnings).toEqual([]);
  });

  it('strips a UTF-8 byte-order mark (la-nacion is saved with one)', async () => {
    const bytes = readCorpus('html', 'readability', 'la-nacion', 'source.html');
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const read = await readBytes(bytes);
    expect(read.rawHtml.charCodeAt(0)).not.toBe(0xfeff);
    expect(read.metadata.title).toBe('Una solución no violenta para la cuestión mapuche - 07.12.2017 - LA NACION');
  });

  it('decodes a UTF-16LE page with a byte-order mark', async () => {
    const text = readCorpus('html', 'readability', 'hukumusume', 'source.html').toString('utf8');
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode(text, 'utf-16le')]);
    const read = await readBytes(bytes);
    expect(read.metadata.title).toBe(HUKUMUSUME_TITLE);
    expect(read.rawHtml).toBe(text);
  });

  it('honours <meta http-equiv="Content-Type"> for a legacy single-byte charset (ISO-8859-1 = Windows-1252)', async () => {
    const { text, bytes } = reencode('lemonde-1', '<meta http-equiv="Content-Type" content="text/html; charset=ISO-8859-1"/>', 'windows-1252');
    const read = await readBytes(bytes);
    expect(read.rawHtml).toBe(text);
    expect(read.metadata.title).toBe(LEMONDE_TITLE);
    expect(normalize(read.document.body.textContent ?? '')).toContain('Les députés ont, sans surprise, adopté à une large majorité');
    expect(read.warnings).toEqual([]);
  });

  it('honours <meta charset> for Shift_JIS', async () => {
    const { bytes } = reencode('hukumusume', '<meta charset="Shift_JIS">', 'shift_jis');
    const read = await readBytes(bytes);
    expect(read.metadata.title).toBe(HUKUMUSUME_TITLE);
    expect(read.document.body.textContent).toContain('イヌ');
  });

  it('decodes GB2312-declared bytes with the GB18030 decoder (the web\'s GBK)', async () => {
    const { bytes } = reencode('qq', '<meta http-equiv="Content-Type" content="text/html; charset=gb2312" />', 'gb18030');
    const read = await readBytes(bytes);
    expect(read.metadata.title).toBe(QQ_TITLE);
    expect(read.warnings).toEqual([]);
  });

  it('honours an XML declaration when there is no meta charset', async () => {
    const original = readCorpus('html', 'readability', 'lemonde-1', 'source.html').toString('utf8');
    const text = `<?xml version="1.0" encoding="windows-1252"?>\n${original.replace(/<meta[^>]*charset[^>]*>/gi, '')}`;
    const read = await readBytes(iconv.encode(representable(text, 'windows-1252'), 'windows-1252'));
    expect(read.metadata.title).toBe(LEMONDE_TITLE);
  });

  it('reads a page that declares gb2312 but is saved as UTF-8 as UTF-8, and says so', async () => {
    const read = await readPage('html/readability/qq/source.html');
    expect(read.metadata.title).toBe(QQ_TITLE);
    expect(read.warnings).toEqual([expect.stringContaining("declares the 'gb2312' character encoding but its bytes are valid UTF-8")]);
  });

  it('reads an undeclared page that is not UTF-8 as Windows-1252, with a warning', async () => {
    const original = readCorpus('html', 'readability', 'lemonde-1', 'source.html').toString('utf8');
    const text = representable(original.replace(/<meta[^>]*charset[^>]*>/gi, ''), 'windows-1252');
    const read = await readBytes(iconv.encode(text, 'windows-1252'));
    expect(read.metadata.title).toBe(LEMONDE_TITLE);
    expect(read.warnings).toEqual([expect.stringContaining('no character encoding and is not valid UTF-8')]);
  });
});

describe('readHtml: metadata', () => {
  it('reads title, description, language and every meta name/property like Firecrawl (ars-1)', async () => {
    const { metadata } = await readPage('html/readability/ars-1/source.html');
    expect(metadata.title).toBe('Just-released Minecraft exploit makes it easy to crash game servers | Ars Technica');
    expect(metadata.description).toBe('Two-year-old bug exposes thousands of servers to crippling attack.');
    expect(metadata.language).toBe('en-us');
    expect(metadata.extra['og:title']).toBe('Just-released Minecraft exploit makes it easy to crash game servers');
    expect(metadata.extra['twitter:card']).toBe('summary_large_image');
    expect(metadata.extra['twitter:creator']).toBe('@dangoodin001');
    expect(metadata.extra['og:type']).toBe('article');
    // Firecrawl's named fields next to the raw keys.
    expect(metadata.extra.ogTitle).toBe('Just-released Minecraft exploit makes it easy to crash game servers');
    expect(metadata.extra.ogSiteName).toBe('Ars Technica');
    expect(metadata.extra.ogImage).toBe('https://cdn.arstechnica.net/wp-content/uploads/2015/04/server-crash-640x215.jpg');
    expect(metadata.extra.favicon).toBe('https://cdn.arstechnica.net/favicon.ico');
  });

  it('turns a repeated meta key into an array of strings, in document order', async () => {
    const { metadata } = await readPage('html/readability/ars-1/source.html');
    expect(metadata.extra['fb:admins']).toEqual(['592156917', '108943']);
    const tasks = metadata.extra['msapplication-task'];
    expect(Array.isArray(tasks) && tasks.length).toBe(4);
    expect((tasks as string[])[0]).toContain('name=News');
  });

  it('falls back to og:title when the page has no <title> (an SVG icon\'s <title> does not count)', async () => {
    const text = readCorpus('html', 'readability', 'ars-1', 'source.html')
      .toString('utf8')
      .replace(/<title>[\s\S]*?<\/title>/i, '')
      .replace(/<body([^>]*)>/, '<body$1><svg viewBox="0 0 10 10"><title>Share this story</title></svg>');
    const { metadata } = await readBytes(Buffer.from(text));
    expect(metadata.title).toBe('Just-released Minecraft exploit makes it easy to crash game servers');
  });

  it('takes the language from <html lang>, else from og:locale (pixnet: zh-TW / zh_TW)', async () => {
    const page = readCorpus('html', 'readability', 'pixnet', 'source.html').toString('utf8');
    expect((await readBytes(Buffer.from(page))).metadata.language).toBe('zh-TW');
    const withoutLang = page.replace(/(<html[^>]*?) lang="zh-TW"/, '$1');
    const { metadata } = await readBytes(Buffer.from(withoutLang));
    expect(metadata.language).toBe('zh-TW');
    expect(metadata.extra.ogLocale).toBe('zh_TW');
  });

  it('takes the language from a Content-Language http-equiv when there is no lang attribute', async () => {
    const page = readCorpus('html', 'readability', 'lemonde-1', 'source.html').toString('utf8');
    const text = page.replace(/<html lang="fr">/, '<html>').replace('<head>', '<head><meta http-equiv="Content-Language" content="fr-FR">');
    expect((await readBytes(Buffer.from(text))).metadata.language).toBe('fr-FR');
  });

  it('reads upper-case attribute names the way browsers do', async () => {
    const page = readCorpus('html', 'readability', 'ars-1', 'source.html').toString('utf8');
    const text = page.replace('<meta name="description" content=', '<META NAME="description" CONTENT=');
    expect((await readBytes(Buffer.from(text))).metadata.description).toBe('Two-year-old bug exposes thousands of servers to crippling attack.');
  });
});

describe('readHtml: base URL and document shape', () => {
  it('takes baseUrl from an absolute <base href> (pixnet)', async () => {
    const read = await readPage('html/readability/pixnet/source.html');
    expect(read.baseUrl).toBe('http://stevenhgm.pixnet.net/blog/post/39926056');
  });

  it('has no baseUrl for a <base> without href (aktualne) or without one at all (ars-1)', async () => {
    expect((await readPage('html/readability/aktualne/source.html')).baseUrl).toBeUndefined();
    expect((await readPage('html/readability/ars-1/source.html')).baseUrl).toBeUndefined();
  });

  it('ignores a relative <base href>: there is nothing to resolve it against', async () => {
    const page = readCorpus('html', 'readability', 'pixnet', 'source.html').toString('utf8');
    const text = page.replace('<base href="http://stevenhgm.pixnet.net/blog/post/39926056" />', '<base href="/blog/" />');
    expect((await readBytes(Buffer.from(text))).baseUrl).toBeUndefined();
  });

  it('gives a fragment without <html>/<body> tags a proper body', async () => {
    const page = readCorpus('html', 'readability', 'rtl-1', 'source.html').toString('utf8');
    const fragment = /<body>([\s\S]*)<\/body>/.exec(page)?.[1] ?? '';
    const read = await readBytes(Buffer.from(fragment));
    expect(read.document.documentElement.localName).toBe('html');
    expect(read.document.body.querySelectorAll('p')).toHaveLength(3);
    expect(normalize(read.document.body.textContent ?? '')).toContain('Lorem ipsum dolor sit amet.');
    expect(read.rawHtml).toBe(fragment);
  });

  it('keeps content written after </html> in the body, as a browser does', async () => {
    const page = readCorpus('html', 'readability', 'rtl-1', 'source.html').toString('utf8');
    const read = await readBytes(Buffer.from(`${page}<p>Appended after the document.</p>`));
    expect(read.metadata.title).toBe('RTL Test');
    expect(read.document.head.querySelector('title')?.textContent).toBe('RTL Test');
    expect(normalize(read.document.body.textContent ?? '')).toMatch(/laborum\. Appended after the document\.$/);
  });
});
