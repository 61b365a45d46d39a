import { describe, expect, it } from 'vitest';
import { documentFromHtml } from '../../src/parse/document.ts';
import { toMarkdown } from '../../src/parse/writers/markdown.ts';
import { postProcess } from '../../src/parse/writers/markdown/post-process.ts';

function md(bodyHtml: string): string {
  return toMarkdown(documentFromHtml(bodyHtml).body);
}

describe('markdown writer: blocks', () => {
  it('writes ATX headings and paragraphs, collapsing whitespace', () => {
    expect(md('<h1>Title</h1><h3>Sub <em>part</em></h3><p>one\n   two</p>')).toBe('# Title\n\n### Sub *part*\n\none two');
  });

  it('keeps a heading on one line and drops empty headings', () => {
    expect(md('<h2>first<br>second</h2><h2> </h2><p>x</p>')).toBe('## first second\n\nx');
  });

  it('writes `-` bullets, nested lists indented under their item', () => {
    expect(md('<ul><li>a<ul><li>b<ul><li>c</li></ul></li></ul></li><li>d</li></ul>')).toBe('- a\n  - b\n    - c\n- d');
  });

  it('keeps the start of an ordered list and indents by the marker width', () => {
    expect(md('<ol start="9"><li>nine</li><li>ten<ul><li>sub</li></ul></li></ol>')).toBe('9. nine\n10. ten\n    - sub');
  });

  it('honours li value and nests a list placed directly inside a list', () => {
    expect(md('<ol><li>one</li><li value="7">seven</li><li>eight</li></ol>')).toBe('1. one\n7. seven\n8. eight');
    expect(md('<ul><li>a</li><ul><li>b</li></ul><li>c</li></ul>')).toBe('- a\n  - b\n- c');
  });

  it('writes task-list checkboxes', () => {
    expect(md('<ul><li><input type="checkbox" checked> done</li><li><input type="checkbox"> todo</li></ul>')).toBe('- [x]  done\n- [ ]  todo');
  });

  it('writes blockquotes, nested ones included, without trailing spaces', () => {
    expect(md('<blockquote><p>q1</p><p>q2</p><blockquote><p>deep</p></blockquote></blockquote>')).toBe('> q1\n>\n> q2\n>\n> > deep');
  });

  it('writes hr as --- and br as a hard break', () => {
    expect(md('<p>a<br>b</p><hr><p>c</p>')).toBe('a  \nb\n\n---\n\nc');
  });

  it('collapses runs of blank lines and trims', () => {
    expect(md('<p>a</p><p><br></p><p>&nbsp;</p><div><br><br><br></div><p>b</p>\n\n')).toBe('a\n\nb');
  });

  it('keeps a list in one piece when an item holds only a script', () => {
    expect(md('<ul><li>a</li><li><script>var x = 1;</script></li><li>b</li></ul>')).toBe('- a\n- b');
  });

  it('strips stray leading whitespace outside lists, keeps list indentation and ideographic indents', () => {
    expect(postProcess('x\n\n    ![a](/a.png)\n\n- item\n\n  more of the item\n  - nested\n\nafter\n\n   - shifted list')).toBe(
      'x\n\n![a](/a.png)\n\n- item\n\n  more of the item\n  - nested\n\nafter\n\n- shifted list',
    );
    expect(md('<p>\u3000\u3000翱翔于距地球数千公里的太空中</p>')).toBe('\u3000\u3000翱翔于距地球数千公里的太空中');
  });

  it('drops script, style, noscript and template; unknown elements are transparent', () => {
    const out = md('<p>keep</p><script>alert(1)</script><style>p{color:red}</style><noscript>no js</noscript><template><p>tpl</p></template><custom-card>card <span>text</span></custom-card>');
    expect(out).toBe('keep\n\ncard text');
  });

  it('never emits HTML for unknown or presentational markup', () => {
    const out = md('<section><font color="red">red</font> <center>mid</center><details><summary>S</summary>hidden body</details></section>');
    expect(out).not.toMatch(/<\/?[a-z]/i);
    expect(out).toContain('red');
    expect(out).toContain('hidden body');
  });
});

describe('markdown writer: inline', () => {
  it('writes emphasis, strong, strikethrough; sup and sub as text', () => {
    expect(md('<p><b>bold</b> <i>it</i> <s>gone</s> <del>del</del> x<sup>2</sup> H<sub>2</sub>O</p>')).toBe('**bold** *it* ~~gone~~ ~~del~~ x2 H2O');
  });

  it('moves edge whitespace outside the delimiters', () => {
    expect(md('<p>a<strong> b </strong>c</p>')).toBe('a **b** c');
  });

  it('writes links with titles; drops javascript: and empty links but keeps their text', () => {
    expect(md('<p><a href="/x" title="T">t</a> <a href="javascript:void(0)">js</a> <a href="/y"></a> <a href="#">top</a></p>')).toBe('[t](/x "T") js top');
  });

  it('encodes spaces in link destinations and keeps balanced parentheses', () => {
    expect(md('<p><a href="https://e.com/a b">s</a> <a href="/wiki/Foo_(bar)">w</a> <a href="/a)b">u</a></p>')).toBe(
      '[s](https://e.com/a%20b) [w](/wiki/Foo_(bar)) [u](/a\\)b)',
    );
  });

  it('writes images per the contract: src → ![alt](src), no src → ![alt], neither → nothing', () => {
    expect(md('<p><img src="/a.png" alt="A"></p>')).toBe('![A](/a.png)');
    expect(md('<p><img alt="Chart of sales"></p>')).toBe('![Chart of sales]');
    expect(md('<p>x<img alt="">y</p>')).toBe('xy');
    expect(md('<p><img src="x.png"></p>')).toBe('![](x.png)');
  });

  it('writes a linked image', () => {
    expect(md('<a href="/big.png"><img src="/small.png" alt="S"></a>')).toBe('[![S](/small.png)](/big.png)');
  });

  it('writes inline code, with a longer fence when the code holds backticks', () => {
    expect(md('<p>use <code>npm i</code> and <code>a`b</code> or <code>`x`</code></p>')).toBe('use `npm i` and ``a`b`` or `` `x` ``');
  });

  it('escapes markdown syntax in text, but not underscores inside words', () => {
    expect(md('<p>snake_case _under_ a*b [1] &lt;div&gt;</p>')).toBe('snake_case \\_under\\_ a\\*b \\[1\\] \\<div>');
  });

  it('escapes list and heading markers only at the start of a line', () => {
    expect(md('<p>- not a list</p><p>1. not ordered</p><p># not a heading</p><p>a - b = c # d</p>')).toBe(
      '\\- not a list\n\n1\\. not ordered\n\n\\# not a heading\n\na - b = c # d',
    );
  });

  it('writes TeX for MathML that carries it', () => {
    expect(md('<p>Area <math><semantics><mi>r</mi><annotation encoding="application/x-tex">\\pi r^2</annotation></semantics></math>.</p>')).toBe('Area $\\pi r^2$.');
  });
});

describe('markdown writer: code blocks', () => {
  it('fences a pre/code block with the language from language-x', () => {
    expect(md('<pre><code class="language-ts">const a = 1;\n\n\nconst b = 2;</code></pre>')).toBe('```ts\nconst a = 1;\n\n\nconst b = 2;\n```');
  });

  it('takes the language from lang-x and from a wrapper, and accepts pre without code', () => {
    expect(md('<pre class="lang-py"><code>print(1)</code></pre>')).toBe('```py\nprint(1)\n```');
    expect(md('<div class="language-go highlighter-rouge"><div class="highlight"><pre><code>go run .</code></pre></div></div>')).toBe('```go\ngo run .\n```');
    expect(md('<pre>plain\n  indented</pre>')).toBe('```\nplain\n  indented\n```');
  });

  it('lengthens the fence when the code contains one', () => {
    expect(md('<pre><code>```md\nx\n```</code></pre>')).toBe('````\n```md\nx\n```\n````');
  });

  it('turns <br> and line elements into line breaks and leaves gutters and buttons out', () => {
    expect(md('<pre><code>a<br>b</code></pre>')).toBe('```\na\nb\n```');
    expect(md('<pre><div class="line">x = 1</div><div class="line"><br></div><div class="line">y = 2</div></pre>')).toBe('```\nx = 1\n\ny = 2\n```');
    expect(md('<pre><button>Copy</button><span class="lineno">1</span>one\n<span class="lineno">2</span>two</pre>')).toBe('```\none\ntwo\n```');
  });

  it('keeps code indentation inside list items', () => {
    expect(md('<ul><li>step<pre><code>a\n  b</code></pre></li></ul>')).toBe('- step\n\n  ```\n  a\n    b\n  ```');
  });

  it('treats <code style="white-space: pre"> with several lines as a block', () => {
    expect(md('<div><code style="white-space: pre">line one\nline two</code></div>')).toBe('```\nline one\nline two\n```');
  });
});

describe('markdown writer: stability and limits', () => {
  it('gives the same output for the same input and leaves the document untouched', () => {
    const doc = documentFromHtml('<h1>T</h1><table><tr><td>a</td><td>b</td></tr><tr><td>1</td><td>2</td></tr></table><p>x  y</p>');
    const before = doc.body.innerHTML;
    const first = toMarkdown(doc.body);
    expect(toMarkdown(doc.body)).toBe(first);
    expect(doc.body.innerHTML).toBe(before);
  });

  it('converts a very deeply nested document without overflowing the stack', () => {
    const depth = 5000;
    const html = `${'<div><b>'.repeat(depth / 2)}deep text${'</b></div>'.repeat(depth / 2)}<p>after</p>`;
    const out = md(html);
    expect(out).toContain('deep text');
    expect(out).toContain('after');
  });
});
