import { describe, expect, it } from 'vitest';
import { importHtml } from '../../src/parse/readers/docx/imported-html.ts';
import { checkHtmlBounds } from '../../src/parse/readers/html/bounds.ts';
import { DEFAULT_SOURCE_LIMITS } from '../../src/parse/limits.ts';
import fs from 'node:fs';
import { corpusPath } from '../helpers/corpus.ts';

describe('html bounds', () => {
  it('lets every corpus page through under the default limits', () => {
    const files = (fs.readdirSync(corpusPath('html'), { recursive: true }) as string[]).filter((f) => /\.html?$/i.test(f));
    expect(files.length).toBeGreaterThan(10);
    // A depth limit of 64 still passes every real page: the estimate does not count omitted end tags as nesting.
    for (const f of files) expect(() => checkHtmlBounds(fs.readFileSync(corpusPath('html', f), 'latin1'), { ...DEFAULT_SOURCE_LIMITS, maxHtmlDepth: 64 }), f).not.toThrow();
  });

  it('does not count elements whose end tag may be left out, void elements or raw text as depth', () => {
    const limits = { maxHtmlNodes: 100_000, maxHtmlDepth: 10 };
    expect(() => checkHtmlBounds(`<ul>${'<li>item <p>para <br><img src=x>'.repeat(500)}</ul><script>${'<div>'.repeat(50)}</script>`, limits)).not.toThrow();
    expect(() => checkHtmlBounds('<div>'.repeat(11), limits)).toThrow(/nests its elements more than 10 deep \(the limit FOLIO_MAX_HTML_DEPTH\)/);
    expect(() => checkHtmlBounds(`${'<div></div>'.repeat(100)}`, { ...limits, maxHtmlNodes: 99 })).toThrow(/more than 99 elements/);
  });

  it('bounds an HTML page imported into a Word document (altChunk) too, saying where it came from', () => {
    const started = Date.now();
    expect(() => importHtml(`<body>${'<div>'.repeat(100_000)}x</body>`, { embedImages: false, imageFallbackAlt: 'Image' })).toThrow(
      /The Word document could not be read: an HTML page imported into it \(altChunk\) nests its elements more than 5000 deep/,
    );
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
