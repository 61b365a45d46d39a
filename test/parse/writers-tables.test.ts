import { describe, expect, it } from 'vitest';
import { documentFromHtml } from '../../src/parse/document.ts';
import { toMarkdown } from '../../src/parse/writers/markdown.ts';

function md(bodyHtml: string): string {
  return toMarkdown(documentFromHtml(bodyHtml).body);
}

describe('markdown writer: tables', () => {
  it('uses the thead row as the header', () => {
    expect(md('<table><thead><tr><th>Name</th><th>Score</th></tr></thead><tbody><tr><td>Alice</td><td>95</td></tr></tbody></table>')).toBe(
      '| Name | Score |\n| --- | --- |\n| Alice | 95 |',
    );
  });

  it('uses the first row as the header when there is no thead (mammoth tables)', () => {
    expect(md('<table><tr><td><p>Name</p></td><td><p>Score</p></td></tr><tr><td><p>Bob</p></td><td><p>87</p></td></tr></table>')).toBe(
      '| Name | Score |\n| --- | --- |\n| Bob | 87 |',
    );
  });

  it('puts thead first and tfoot last whatever their order in the source', () => {
    expect(md('<table><tbody><tr><td>b1</td></tr></tbody><thead><tr><th>head</th></tr></thead><tfoot><tr><td>foot</td></tr></tfoot><tbody><tr><td>b2</td></tr></tbody></table>')).toBe(
      '| head |\n| --- |\n| b1 |\n| b2 |\n| foot |',
    );
  });

  it('wraps header cells placed directly in thead (no tr) into a row', () => {
    expect(md('<table><thead><th></th><th>Base</th></thead><tbody><tr><td>16e</td><td>7.8mm</td></tr></tbody></table>')).toBe(
      '|  | Base |\n| --- | --- |\n| 16e | 7.8mm |',
    );
  });

  it('writes a table with a cell spanning some columns as an HTML table, the cell once with its colspan', () => {
    expect(md('<table><tr><th colspan="2">Wide</th><th>C</th></tr><tr><td>1</td><td>2</td><td>3</td></tr></table>')).toBe(
      '<table>\n<thead>\n<tr><th colspan="2">Wide</th><th>C</th></tr>\n</thead>\n<tr><td>1</td><td>2</td><td>3</td></tr>\n</table>',
    );
  });

  it('writes a cell that spans the whole width once (a banner row, an infobox logo), in a pipe table', () => {
    expect(md('<table><tr><td colspan="2"><img src="/logo.png" alt="Logo"></td></tr><tr><th>Founded</th><td>1975</td></tr><tr><th colspan="2">Key people</th></tr><tr><td>CEO</td><td>Ann</td></tr></table>')).toBe(
      '| ![Logo](/logo.png) |  |\n| --- | --- |\n| Founded | 1975 |\n| Key people |  |\n| CEO | Ann |',
    );
    // Spanning every column of a table that a later row makes wider is a partial span.
    expect(md('<table><tr><th colspan="2">Wide</th></tr><tr><td>1</td><td>2</td><td>3</td></tr></table>')).toBe(
      '<table>\n<thead>\n<tr><th colspan="2">Wide</th></tr>\n</thead>\n<tr><td>1</td><td>2</td><td>3</td></tr>\n</table>',
    );
  });

  it('writes a table with a rowspan as an HTML table: the value once, not repeated in every row', () => {
    const out = md('<table><tr><td>H1</td><td>H2</td><td>H3</td></tr><tr><td rowspan="2">R</td><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr></table><p>after</p>');
    expect(out).toBe('<table>\n<tr><td>H1</td><td>H2</td><td>H3</td></tr>\n<tr><td rowspan="2">R</td><td>a</td><td>b</td></tr>\n<tr><td>c</td><td>d</td></tr>\n</table>\n\nafter');
    expect(out.match(/R/g)).toHaveLength(1);
  });

  it('keeps a cell spanning both rows and columns with both spans', () => {
    expect(md('<table><tr><th>A</th><th>B</th><th>C</th></tr><tr><td rowspan="2" colspan="2">X</td><td>1</td></tr><tr><td>2</td></tr><tr><td>p</td><td>q</td><td>r</td></tr></table>')).toBe(
      '<table>\n<thead>\n<tr><th>A</th><th>B</th><th>C</th></tr>\n</thead>\n<tr><td colspan="2" rowspan="2">X</td><td>1</td></tr>\n<tr><td>2</td></tr>\n<tr><td>p</td><td>q</td><td>r</td></tr>\n</table>',
    );
  });

  it('clamps a rowspan past the last row and writes rowspan=0 as the rows to the end', () => {
    expect(md('<table><tr><th>k</th><th>v</th></tr><tr><td rowspan="0">all</td><td>1</td></tr><tr><td>2</td></tr><tr><td rowspan="9">x</td></tr></table>')).toBe(
      '<table>\n<thead>\n<tr><th>k</th><th>v</th></tr>\n</thead>\n<tr><td rowspan="3">all</td><td>1</td></tr>\n<tr><td>2</td></tr>\n<tr><td>x</td></tr>\n</table>',
    );
  });

  it('in an HTML table: joins a cell\'s lines with <br>, keeps inline markdown, drops markdown escapes and escapes HTML', () => {
    expect(
      md('<table><tr><th rowspan="2">a &lt;b&gt; &amp; *c* [d] snake_case _e_</th><th><p>x | y</p><p><a href="https://e.com/?a=1&amp;b=2">E</a> <strong>new</strong> <code>k\\*</code></p></th></tr><tr><td>1</td></tr></table>'),
    ).toBe(
      '<table>\n<tr><th rowspan="2">a &lt;b&gt; &amp; *c* [d] snake_case _e_</th><th>x | y<br>[E](https://e.com/?a=1&amp;b=2) **new** `k\\*`</th></tr>\n<tr><td>1</td></tr>\n</table>',
    );
  });

  it('in an HTML table: the thead rows go in <thead> as <th>, even when the source wrote <td> there', () => {
    expect(md('<table><thead><tr><td>Area</td><td>Competence</td></tr><tr><td>a</td><td>b</td></tr></thead><tbody><tr><td rowspan="2">1. Values</td><td>1.1</td></tr><tr><td>1.2</td></tr></tbody></table>')).toBe(
      '<table>\n<thead>\n<tr><th>Area</th><th>Competence</th></tr>\n<tr><th>a</th><th>b</th></tr>\n</thead>\n<tr><td rowspan="2">1. Values</td><td>1.1</td></tr>\n<tr><td>1.2</td></tr>\n</table>',
    );
  });

  it('in an HTML table: a head cell spanning two rows takes both into the head; a row header in the body stays <th>', () => {
    expect(md('<table><tr><th rowspan="2">Party</th><th colspan="2">Result</th></tr><tr><th>Seats</th><th>Votes</th></tr><tr><th>Red</th><td>3</td><td>40</td></tr></table>')).toBe(
      '<table>\n<thead>\n<tr><th rowspan="2">Party</th><th colspan="2">Result</th></tr>\n<tr><th>Seats</th><th>Votes</th></tr>\n</thead>\n<tr><th>Red</th><td>3</td><td>40</td></tr>\n</table>',
    );
  });

  it('in an HTML table: no <thead> when the table names no header row (as the html format writes it)', () => {
    expect(md('<table><tr><td rowspan="2">R</td><td>a</td></tr><tr><td>b</td></tr></table>')).toBe('<table>\n<tr><td rowspan="2">R</td><td>a</td></tr>\n<tr><td>b</td></tr>\n</table>');
    // Header cells only: a grid of labels, no head over nothing.
    expect(md('<table><tr><th rowspan="2">R</th><th>a</th></tr><tr><th>b</th></tr></table>')).toBe('<table>\n<tr><th rowspan="2">R</th><th>a</th></tr>\n<tr><th>b</th></tr>\n</table>');
  });

  it('judges merged cells in a large table of row spans without expanding them', () => {
    const rows = Array.from({ length: 2000 }, (_, i) => `<tr><td rowspan="65534" colspan="1000">r${i}</td><td>v</td></tr>`).join('');
    const started = performance.now();
    const out = md(`<table><tr><th>h</th><th>v</th></tr>${rows}</table>`);
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(out.startsWith('<table>\n')).toBe(true);
    expect(out).toContain('<td colspan="1000" rowspan="2000">r0</td>');
  });

  it('escapes pipes and joins lines, paragraphs and list items in a cell with <br>', () => {
    expect(md('<table><tr><th>Expr</th><th>Out</th></tr><tr><td>a | b</td><td>line1<br>line2</td></tr><tr><td><p>para1</p><p>para2</p></td><td><ul><li>x</li><li>y</li></ul></td></tr></table>')).toBe(
      '| Expr | Out |\n| --- | --- |\n| a \\| b | line1<br>line2 |\n| para1<br>para2 | - x<br>- y |',
    );
  });

  it('escapes pipes inside inline code in a cell and writes a <pre> in a cell as code spans', () => {
    expect(md('<table><tr><th>op</th><th>code</th></tr><tr><td><code>a|b</code></td><td><pre><code>x = 1\ny = 2</code></pre></td></tr></table>')).toBe(
      '| op | code |\n| --- | --- |\n| `a\\|b` | `x = 1`<br>`y = 2` |',
    );
  });

  it('flattens a table nested in a data cell into that cell', () => {
    expect(md('<table><tr><th>K</th><th>V</th></tr><tr><td>inner</td><td><table><tr><td>n1</td><td>n2</td></tr><tr><td>n3</td><td>n4</td></tr></table></td></tr></table>')).toBe(
      '| K | V |\n| --- | --- |\n| inner | n1 n2<br>n3 n4 |',
    );
  });

  it('pads ragged rows and drops rows with no text', () => {
    expect(md('<table><tr><td>a</td><td>b</td><td>c</td></tr><tr><td>d</td></tr><tr><td></td><td> </td></tr><tr><td>e</td><td>f</td></tr></table>')).toBe(
      '| a | b | c |\n| --- | --- | --- |\n| d |  |  |\n| e | f |  |',
    );
  });

  it('drops empty tables', () => {
    expect(md('<p>before</p><table><tr><td></td><td style="background:red"> </td></tr></table><table></table><p>after</p>')).toBe('before\n\nafter');
  });

  it('renders a single-cell layout table as its content', () => {
    expect(md('<table><tr><td><h2>Layout</h2><p>Body <b>text</b></p><ul><li>item</li></ul></td></tr></table>')).toBe('## Layout\n\nBody **text**\n\n- item');
  });

  it('renders a one-row table wrapping other tables as layout, keeping the inner tables', () => {
    const out = md(
      '<table><tr><td><b>File</b><table><tr><td>Ctrl+S</td><td>Save</td></tr><tr><td>Ctrl+O</td><td>Open</td></tr></table></td>' +
        '<td><b>Move</b><table><tr><td>Ctrl+A</td><td>Start</td></tr><tr><td>Ctrl+E</td><td>End</td></tr></table></td></tr></table>',
    );
    expect(out).toBe('**File**\n\n| Ctrl+S | Save |\n| --- | --- |\n| Ctrl+O | Open |\n\n**Move**\n\n| Ctrl+A | Start |\n| --- | --- |\n| Ctrl+E | End |');
  });

  it('renders a highlighter code table (gutter + code) as a fenced block', () => {
    expect(md('<figure class="highlight python"><table><tr><td class="gutter"><pre>1<br>2</pre></td><td class="code"><pre>a = 1<br>b = 2</pre></td></tr></table></figure>')).toBe(
      '```python\na = 1\nb = 2\n```',
    );
  });

  it('writes the caption as a line before the table', () => {
    expect(md('<table><caption>Results</caption><tr><th>h</th></tr><tr><td>v</td></tr></table>')).toBe('Results\n\n| h |\n| --- |\n| v |');
  });

  it('keeps links, emphasis and images inside cells', () => {
    expect(md('<table><tr><th>Name</th><th>Logo</th></tr><tr><td><a href="https://e.com">E</a> <strong>new</strong></td><td><img src="/l.png" alt="L"></td></tr></table>')).toBe(
      '| Name | Logo |\n| --- | --- |\n| [E](https://e.com) **new** | ![L](/l.png) |',
    );
  });

  it('lays out a table whose span expansion would be enormous without expanding spans', () => {
    const rows = Array.from({ length: 300 }, (_, i) => `<tr><td colspan="1000">r${i}</td></tr>`).join('');
    const out = md(`<table><tr><th>h</th></tr>${rows}</table>`);
    expect(out.split('\n')).toHaveLength(302);
    expect(out).toContain('| r299 |');
  });
});
