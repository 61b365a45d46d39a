/**
 * folio runs mammoth's conversion stage by stage with its own XML reader and a parsed-style-map
 * cache (src/parse/readers/docx/mammoth-stages.ts, mammoth-xml.ts). These tests pin that this is
 * a speed change only: on every corpus .docx the tree of every XML part equals mammoth's own
 * reader's, and the HTML and messages equal `mammoth.convertToHtml`'s for the same package.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import mammothModule from 'mammoth';
import { describe, expect, it } from 'vitest';
import { packageFile } from '../../src/parse/readers/docx/mammoth.ts';
import { convertToHtmlInStages, NAMESPACES as OFFICE_NAMESPACES, type MammothFile, type MammothMessage, type StageOptions } from '../../src/parse/readers/docx/mammoth-stages.ts';
import { readMammothXml, XmlSyntaxError } from '../../src/parse/readers/docx/mammoth-xml.ts';
import { DocxPackage } from '../../src/parse/readers/docx/package.ts';
import { CORPUS_DIR } from '../helpers/corpus.ts';

type ImageConverter = { readonly __brand: 'ImageConverter' };
const mammoth = mammothModule as unknown as {
  convertToHtml(input: { file: MammothFile }, options: StageOptions): Promise<{ value: string; messages: MammothMessage[] }>;
  images: { imgElement(fn: (image: { altText?: string }) => Promise<Record<string, string>>): ImageConverter };
};
const load = createRequire(import.meta.url);
const officeXmlReader = load('mammoth/lib/docx/office-xml-reader.js') as { read(text: string): Promise<unknown> };
const mammothXmlReader = load('mammoth/lib/xml/reader.js') as { readString(text: string, map: Record<string, string>): Promise<unknown> };

const DOCX_DIR = path.join(CORPUS_DIR, 'office', 'docx');
const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';

function corpusPackages(): { name: string; pkg: DocxPackage }[] {
  const out: { name: string; pkg: DocxPackage }[] = [];
  for (const name of fs.readdirSync(DOCX_DIR).filter((f) => f.endsWith('.docx')).sort()) {
    try {
      out.push({ name, pkg: new DocxPackage(fs.readFileSync(path.join(DOCX_DIR, name))) });
    } catch {
      // the encrypted corpus files are not zip packages: nothing to compare
    }
  }
  return out;
}

async function settle<T>(work: () => Promise<T> | T): Promise<T | string> {
  try {
    return await work();
  } catch {
    return 'THROWS';
  }
}

/** The parts mammoth's docx reader opens (others, such as themes, it never reads). */
const MAMMOTH_PARTS = /^(\[Content_Types\]\.xml|.*\.rels|word\/(document|styles|numbering|footnotes|endnotes|comments)\.xml)$/i;
const OFFICE_MAP: Record<string, string> = { [W]: 'w', 'http://schemas.openxmlformats.org/markup-compatibility/2006': 'mc' };

describe('readMammothXml', () => {
  it('gives the tree mammoth\'s own reader gives for every part mammoth reads, in every corpus .docx', async () => {
    let parts = 0;
    for (const { name, pkg } of corpusPackages()) {
      for (const part of pkg.names.filter((n) => MAMMOTH_PARTS.test(n))) {
        const text = pkg.textOf(part) as string;
        const ours = await settle(() => JSON.parse(JSON.stringify(readMammothXml(text, OFFICE_NAMESPACES))) as unknown);
        const theirs = await settle(async () => JSON.parse(JSON.stringify(await officeXmlReader.read(text))) as unknown);
        expect(ours, `${name} ${part}`).toEqual(theirs);
        parts++;
      }
    }
    expect(parts).toBeGreaterThan(500);
  });

  it('matches mammoth on the XML corners: entities, CDATA, comments, namespaces, line endings, attribute white space', async () => {
    const cases = [
      '<a>&#x41;&#66;&amp;lt; x > y &#128512;</a>',
      '<a><![CDATA[dropped]]>t<!--c-->u<?pi x?></a>',
      `<?xml version="1.0"?>\r\n<w:a xmlns:w="${W}" xmlns="urn:d" xml:space="preserve"><b w:c="1\r\n2\t3" d='x"y'/> <q:e/></w:a>`,
      '<!DOCTYPE a><a xmlns:x=""><x:b/>\u2028</a>trailing',
    ];
    for (const text of cases) {
      const ours = JSON.parse(JSON.stringify(readMammothXml(text, OFFICE_MAP))) as unknown;
      expect(ours, text).toEqual(JSON.parse(JSON.stringify(await mammothXmlReader.readString(text, OFFICE_MAP))) as unknown);
    }
  });

  it('refuses what mammoth refuses: unknown entities, mismatched or unclosed tags, repeated attributes, two roots', async () => {
    for (const text of ['<a>&nbsp;</a>', '<a><b>t</a>', '<a><b>t', '<a b="1" b="2"/>', '<a/><b/>', '<a>1 < 2</a>', '<a x=1/>']) {
      expect(() => readMammothXml(text, OFFICE_MAP), text).toThrow(XmlSyntaxError);
      await expect(mammothXmlReader.readString(text, OFFICE_MAP), text).rejects.toThrow();
    }
  });

  it('stays linear on hostile shapes: a tag with 100,000 attributes, 100,000 declarations, deep nesting', () => {
    const manyAttributes = `<a ${Array.from({ length: 100_000 }, (_, i) => `x${i}="${i}"`).join(' ')}/>`;
    const manyDeclarations = `<a>${'<!x>'.repeat(100_000)}</a>`;
    const deep = `${'<b>'.repeat(50_000)}${'</b>'.repeat(50_000)}`;
    const started = performance.now();
    expect(Object.keys(readMammothXml(manyAttributes, OFFICE_MAP).attributes)).toHaveLength(100_000);
    expect(readMammothXml(manyDeclarations, OFFICE_MAP).children).toEqual([]);
    expect(() => readMammothXml(`${manyAttributes.slice(0, -2)} x7="again"/>`, OFFICE_MAP)).toThrow(XmlSyntaxError);
    let depth = 0;
    for (let node = readMammothXml(deep, OFFICE_MAP); node.children[0]?.type === 'element'; node = node.children[0]) depth++;
    expect(depth).toBe(49_999);
    expect(performance.now() - started).toBeLessThan(3000);
  });
});

describe('convertToHtmlInStages', () => {
  it('gives mammoth.convertToHtml\'s HTML and messages on every corpus .docx', async () => {
    const convertImage = mammoth.images.imgElement(async (image) => ({ alt: image.altText ?? 'Image' }));
    const options: StageOptions = {
      styleMap: ["p[style-name='Title'] => h1:fresh", "p[style-name='Subtitle'] => h2:fresh", 'not a mapping'],
      includeDefaultStyleMap: true,
      includeEmbeddedStyleMap: true,
      externalFileAccess: false,
      ignoreEmptyParagraphs: true,
      convertImage,
    };
    let compared = 0;
    for (const { name, pkg } of corpusPackages()) {
      const file = packageFile(pkg);
      const ours = await settle(() => convertToHtmlInStages(file, (part) => pkg.textOf(part), options));
      const theirs = await settle(() => mammoth.convertToHtml({ file }, options));
      const shape = (r: typeof ours): unknown => (typeof r === 'string' ? r : { html: r.value, messages: r.messages.map((m) => `${m.type}: ${m.message}`) });
      expect(shape(ours), name).toEqual(shape(theirs));
      if (typeof ours !== 'string') compared++;
    }
    expect(compared).toBeGreaterThan(90);
  });
});

