/**
 * Structure counts of a GFM markdown text (folio's markdown and pandoc's `-t gfm` alike):
 *   - tables: pipe tables (a delimiter row such as `| --- | :-: |`, GFM §4.10) plus raw HTML
 *     `<table` elements (pandoc writes tables with spans or block content as HTML);
 *   - headings: ATX headings (`#`…`######`, GFM §4.2) plus setext underlines after a paragraph
 *     line (§4.3), plus raw HTML `<h1>`…`<h6>`;
 *   - list items: bullet (`-`, `*`, `+`) and ordered (`1.`, `1)`) list markers (GFM §5.2), at any
 *     indent, plus raw HTML `<li`.
 * Lines inside fenced code blocks are not counted.
 */
export interface StructureCounts {
  tables: number;
  headings: number;
  listItems: number;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const TABLE_DELIMITER = /^\s*\|?\s*:?-{1,}:?\s*(\|\s*:?-{1,}:?\s*)+\|?\s*$|^\s*\|\s*:?-{1,}:?\s*\|\s*$/;
const ATX = /^ {0,3}#{1,6}(\s|$)/;
const SETEXT = /^ {0,3}(=+|-+)\s*$/;
const LIST_ITEM = /^\s*([-*+]|\d{1,9}[.)])\s+\S/;
const THEMATIC_BREAK = /^ {0,3}([-*_])(\s*\1){2,}\s*$/;

function countMatches(text: string, pattern: RegExp): number {
  return text.match(pattern)?.length ?? 0;
}

export function countStructure(markdown: string): StructureCounts {
  const counts: StructureCounts = { tables: 0, headings: 0, listItems: 0 };
  let fence: string | null = null;
  let previous = '';
  for (const line of markdown.split('\n')) {
    const opening = FENCE.exec(line);
    if (fence !== null) {
      if (opening && (opening[1] as string)[0] === fence[0] && (opening[1] as string).length >= fence.length) fence = null;
      previous = '';
      continue;
    }
    if (opening) {
      fence = opening[1] as string;
      previous = '';
      continue;
    }
    if (TABLE_DELIMITER.test(line) && previous.includes('|')) counts.tables++;
    else if (ATX.test(line)) counts.headings++;
    else if (SETEXT.test(line) && previous.trim() !== '' && !previous.includes('|') && !LIST_ITEM.test(previous) && !THEMATIC_BREAK.test(previous)) counts.headings++;
    else if (LIST_ITEM.test(line) && !THEMATIC_BREAK.test(line)) counts.listItems++;
    previous = line;
  }
  counts.tables += countMatches(markdown, /<table[\s>]/gi);
  counts.headings += countMatches(markdown, /<h[1-6][\s>]/gi);
  counts.listItems += countMatches(markdown, /<li[\s>]/gi);
  return counts;
}
