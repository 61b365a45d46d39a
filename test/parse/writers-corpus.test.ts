/**
 * The markdown writer on real pages: defuddle's fixtures parsed with linkedom and written
 * directly (no cleaning), compared with the tables and code blocks of defuddle's expected output.
 */
import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { contentBody } from '../../src/parse/writers/html.ts';
import { toMarkdown } from '../../src/parse/writers/markdown.ts';
import { corpusFiles, readCorpus } from '../helpers/corpus.ts';

const DEFUDDLE = 'html/defuddle';

function fixtureMarkdown(name: string): string {
  const { document } = parseHTML(readCorpus(DEFUDDLE, 'fixtures', `${name}.html`).toString('utf8'));
  return toMarkdown(contentBody(document));
}

/** Defuddle's expected markdown without its leading metadata block. */
function expected(name: string): string {
  return readCorpus(DEFUDDLE, 'expected', `${name}.md`).toString('utf8').replace(/^```json\n[\s\S]*?\n```\n/, '');
}

function expectedTables(name: string): string[] {
  return [...expected(name).matchAll(/(?:^\|.*\|$\n?)+/gm)].map((m) => m[0].trim());
}

function expectedCodeBlocks(name: string): string[] {
  return [...expected(name).matchAll(/^```[^\n]*\n[\s\S]*?\n```$/gm)].map((m) => m[0]);
}

describe('markdown writer on defuddle fixtures: tables', () => {
  it.each(['elements--complex-tables', 'elements--data-table', 'scoring--table-with-links', 'general--stephango.com-buy-wisely', 'general--scp-wiki.wikidot.com-scp-9935'])(
    '%s: every expected table appears exactly',
    (name) => {
      const out = fixtureMarkdown(name);
      const tables = expectedTables(name);
      expect(tables.length).toBeGreaterThan(0);
      for (const table of tables) expect(out).toContain(table);
    },
  );

  it('elements--complex-tables: links and bold survive inside cells', () => {
    const lines = fixtureMarkdown('elements--complex-tables').split('\n');
    expect(lines).toContain('| Delta **optimized** | 55 | 2021 | Native | Requires [custom config](https://example.com/config) |');
    expect(lines).toContain('| Framework | Peak Memory (MB) | Idle Memory (MB) |');
  });

  it('elements--data-table: the table without thead takes its first row as header', () => {
    expect(fixtureMarkdown('elements--data-table')).toContain('| Name | Score |\n| --- | --- |\n| Alice | 95 |\n| Bob | 87 |');
  });

  it('daringfireball: header cells written straight into <thead> still make the header row', () => {
    const out = fixtureMarkdown('general--daringfireball.net-2025-02-the_iphone_16e');
    expect(out).toContain('|  | Base | Mesa | Lens(es) |\n| --- | --- | --- | --- |\n| iPhone 16e | 7.8mm | — | 9.5mm |');
    expect(out).toContain('| 16 Pro Max | A18 Pro | — | — | $1200 | $1400 | $1600 |');
    expect(out).not.toContain('text-align');
  });

  it('issues--300: the layout table disappears, the four shortcut tables stay tables', () => {
    const out = fixtureMarkdown('issues--300-nested-layout-tables');
    for (const table of expectedTables('issues--300-nested-layout-tables')) expect(out).toContain(table);
    expect(out).toContain('| Ctrl+S | Save current file |\n| --- | --- |');
    expect(out).toContain('**Moving around**');
  });

  it('elements--empty-table: the empty progress-bar table is dropped', () => {
    const out = fixtureMarkdown('elements--empty-table');
    expect(out).not.toContain('|');
    expect(out).toMatch(/^# Article Title\n\nThis is the article content\./);
  });

  it('table-layout--single-column: the one-cell layout table becomes its content', () => {
    const out = fixtureMarkdown('table-layout--single-column');
    expect(out).not.toContain('|');
    expect(out).toContain('## Projects\n\n- [Project One](https://example.com/project-one) - a cool project\n- [Project Two](https://example.com/project-two) - another project');
  });

  it('issues--284: a <pre> inside a data cell stays in its cell', () => {
    const out = fixtureMarkdown('issues--284-table-cell-header-scoring');
    expect(out).toContain('| Defined in header `<cstddef>` |  |  |\n| --- | --- | --- |\n| Defined in header `<cstdlib>` |  |  |');
    expect(out).toContain('| `typedef /* implementation-defined */ size_t;` |  | (since C++17) |');
  });
});

describe('markdown writer on defuddle fixtures: code blocks', () => {
  it.each([
    'code-blocks--hexo-br',
    'codeblocks--chroma-inline-linenums',
    'codeblocks--chroma-line-spans',
    'codeblocks--code-pre-nesting',
    'codeblocks--hljs-header',
    'codeblocks--mintlify',
    'codeblocks--pygments-lineno',
    'codeblocks--react-syntax-highlighter-linenums',
    'codeblocks--rehype-pretty-code',
    'codeblocks--rehype-pretty-copy',
    'codeblocks--rockthejvm.com-articles-kotlin-101-type-classes',
    'codeblocks--rouge-linenums',
    'codeblocks--stripe',
    'elements--whitespace-newlines',
  ])('%s: every expected fenced block appears exactly (language and lines)', (name) => {
    const out = fixtureMarkdown(name);
    const blocks = expectedCodeBlocks(name);
    expect(blocks.length).toBeGreaterThan(0);
    for (const block of blocks) expect(out).toContain(block);
  });

  it('codeblocks--rouge-linenums: the language comes from the wrapper, the gutter is left out', () => {
    const out = fixtureMarkdown('codeblocks--rouge-linenums');
    expect(out).toContain('```cpp\n// https://godbolt.org/z/9sqM7PvWh\nusing Int = int;');
    expect(out).not.toMatch(/^1$/m);
  });

  it('code-blocks--chroma-linenums: line-number table cells are not code', () => {
    const out = fixtureMarkdown('code-blocks--chroma-linenums');
    expect(out).toContain('```cpp\n');
    expect(out).toContain('        [](uint8_t x) { return x % 2 == 0; }');
    expect(out).not.toContain('|');
  });
});

describe('markdown writer on large pages', () => {
  it('converts a 1.5 MB page (corpus pages concatenated) without error', () => {
    const pages = [...corpusFiles('html/markitdown', /\.html$/), ...corpusFiles(`${DEFUDDLE}/fixtures`, /^(general|elements)--.*\.html$/)];
    const bodies: string[] = [];
    let size = 0;
    for (const file of pages) {
      if (size >= 1_500_000) break;
      const html = readCorpus(file).toString('utf8');
      const body = /<body[^>]*>([\s\S]*)<\/body>/i.exec(html)?.[1] ?? html;
      bodies.push(`<section>${body}</section>`);
      size += body.length;
    }
    expect(size).toBeGreaterThanOrEqual(1_500_000);
    const { document } = parseHTML(`<!doctype html><html><head></head><body>${bodies.join('\n')}</body></html>`);
    const started = performance.now();
    const out = toMarkdown(document.body);
    const elapsed = performance.now() - started;
    expect(out).toContain('Microsoft was founded by [Bill Gates](/wiki/Bill_Gates "Bill Gates")');
    expect(out).toContain('| Framework | Latency (ms) | Year | Runtime | Notes |');
    expect(elapsed).toBeLessThan(15_000);
  });
});
