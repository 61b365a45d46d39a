/**
 * One story of the document (the main text, a footnote, a header or a footer): paragraphs as
 * they end, grouped into lists and tables, rendered to the intermediate HTML at the end.
 */
import { PLAIN, renderRuns, runsAreEmpty, type CharFormat, type Run } from './format.ts';
import { emptyCellDef, TableBuilder, type CellDef } from './table.ts';

/** Paragraph properties; `\pard` resets them. */
export interface ParagraphProps {
  inTable: boolean;
  /** `\outlinelevelN` (0-based), -1 for body text. */
  outline: number;
  /** `\sN`: the paragraph style. */
  style: number;
  /** `\lsN` (0: not in a list) and `\ilvlN`. */
  list: number;
  level: number;
  /** `\liN`: the left indent in twips (list nesting follows it when lists change). */
  indent: number;
  /** `\fiN`: the first-line indent (negative: a hanging indent, as list items have). */
  firstIndent: number;
  /** Word 6 numbering (`\pnlvlblt`, `\pnlvlbody`): the list kind, when set. */
  oldList?: 'ul' | 'ol' | undefined;
}

export function defaultParagraph(): ParagraphProps {
  return { inTable: false, outline: -1, style: 0, list: 0, level: 0, indent: 0, firstIndent: 0 };
}

/** What the interpreter knows about list and heading styles when a paragraph ends. */
export interface ParagraphContext {
  headingLevel(props: ParagraphProps): number;
  listTag(props: ParagraphProps): 'ul' | 'ol';
}

/** A list item's depth key: its left indent, else its level in indent-sized steps. */
const TYPED_BULLET = /^\s*[\u2022\u00b7\u25aa\u25e6\u2013\u2014*-]\s*\t\s*/;
const TYPED_NUMBER = /^\s*(?:\d{1,4}|[a-zA-Z]|[ivxlcIVXLC]{1,6})[.)]\s*\t\s*/;

/**
 * A list item whose marker is typed text (pandoc and other generators write `\bullet\tab` or
 * `1.\tab` in a paragraph with a hanging indent, `\fi` < 0, instead of a list table): the
 * list kind, with the marker removed from the runs; undefined for other paragraphs.
 */
function typedListMarker(runs: Run[], para: ParagraphProps): 'ul' | 'ol' | undefined {
  if (para.firstIndent >= 0) return undefined;
  const first = runs[0];
  if (first?.kind !== 'text') return undefined;
  const tag = TYPED_BULLET.test(first.text) ? 'ul' : TYPED_NUMBER.test(first.text) ? 'ol' : undefined;
  if (!tag) return undefined;
  const rest = first.text.replace(tag === 'ul' ? TYPED_BULLET : TYPED_NUMBER, '');
  if (rest === '') runs.shift();
  else runs[0] = { ...first, text: rest };
  return runsAreEmpty(runs) ? undefined : tag;
}

type Block = { kind: 'html'; html: string } | { kind: 'item'; html: string; tag: 'ul' | 'ol'; depth: number };

export class Story {
  para: ParagraphProps = defaultParagraph();
  rowDefs: CellDef[] = [];
  private pendingDef: CellDef = emptyCellDef();
  private runs: Run[] = [];
  private readonly blocks: Block[] = [];
  private table: TableBuilder | undefined;
  private cells: string[] = [];
  private cellParagraphs: string[] = [];
  /** Text box content anchored in the current paragraph: it follows the paragraph. */
  private floating: string[] = [];

  constructor(private readonly context: ParagraphContext) {}

  addText(text: string, format: CharFormat): void {
    if (text === '' || format.hidden) return;
    const last = this.runs[this.runs.length - 1];
    // Text in the same format joins the previous run (V8 joins strings as ropes: linear).
    if (last?.kind === 'text' && last.format === format) last.text += text;
    else this.runs.push({ kind: 'text', text, format });
  }

  addBreak(): void {
    this.runs.push({ kind: 'break' });
  }

  addImage(): void {
    this.runs.push({ kind: 'image' });
  }

  /** Block HTML (a text box) to place after the current paragraph. */
  addFloating(html: string): void {
    this.floating.push(html);
  }

  /** A text marker in plain format (a note reference). */
  addMarker(text: string): void {
    this.runs.push({ kind: 'text', text, format: PLAIN });
  }

  /** `\par`: the paragraph ends (inside a table cell when `\intbl` is set). */
  endParagraph(): void {
    const floating = this.floating;
    this.floating = [];
    if (this.para.inTable) {
      this.cellParagraphs.push(renderRuns(this.runs), ...floating);
      this.runs = [];
      return;
    }
    this.closeTable();
    const runs = this.runs;
    this.runs = [];
    this.paragraph(runs);
    for (const html of floating) this.blocks.push({ kind: 'html', html });
  }

  private paragraph(runs: Run[]): void {
    if (runsAreEmpty(runs)) return;
    const typed = this.para.list > 0 || this.para.oldList ? undefined : typedListMarker(runs, this.para);
    const heading = typed ? 0 : this.context.headingLevel(this.para);
    // A heading is bold by its nature: bold on its text is not emphasis.
    const html = renderRuns(heading > 0 ? runs.map((run) => (run.kind === 'text' && run.format.bold ? { ...run, format: { ...run.format, bold: false } } : run)) : runs);
    if (heading > 0) {
      this.blocks.push({ kind: 'html', html: `<h${heading}>${html}</h${heading}>` });
    } else if (typed) {
      this.blocks.push({ kind: 'item', html, tag: typed, depth: this.para.indent > 0 ? this.para.indent : 360 });
    } else if (this.para.list > 0 || this.para.oldList) {
      const tag = this.para.oldList ?? this.context.listTag(this.para);
      const depth = this.para.indent > 0 ? this.para.indent : (Math.min(this.para.level, 8) + 1) * 360;
      this.blocks.push({ kind: 'item', html, tag, depth });
    } else {
      this.blocks.push({ kind: 'html', html: `<p>${html}</p>` });
    }
  }

  /** `\cell` (and a flattened `\nestcell`/`\nestrow` when `nested`). */
  endCell(nested: boolean): void {
    if (this.runs.length > 0 || this.cellParagraphs.length === 0 || !nested) this.cellParagraphs.push(renderRuns(this.runs));
    this.cellParagraphs.push(...this.floating);
    this.floating = [];
    this.runs = [];
    if (nested) return;
    this.cells.push(
      this.cellParagraphs
        .filter((html) => html.trim() !== '')
        .join('<br>'),
    );
    this.cellParagraphs = [];
  }

  /** `\row`: the cells so far make a row, with the row's cell definitions. */
  endRow(): void {
    if (this.runs.length > 0 || this.cellParagraphs.length > 0) this.endCell(false);
    if (this.cells.length === 0) return;
    this.table ??= new TableBuilder();
    this.table.addRow(this.cells, this.rowDefs);
    this.cells = [];
  }

  /** `\trowd`: a new row definition. */
  startRowDefinition(): void {
    this.rowDefs = [];
    this.pendingDef = emptyCellDef();
  }

  /** The flags of the cell whose `\cellxN` comes next. */
  get cellDef(): CellDef {
    return this.pendingDef;
  }

  /** `\cellxN`: the pending cell definition ends at this right boundary. */
  endCellDef(right: number): void {
    this.pendingDef.right = right;
    this.rowDefs.push(this.pendingDef);
    this.pendingDef = emptyCellDef();
  }

  private closeTable(): void {
    if (this.cells.length > 0 || this.cellParagraphs.length > 0) this.endRow();
    if (this.table) {
      this.blocks.push({ kind: 'html', html: this.table.render() });
      this.table = undefined;
    }
  }

  /** The story as HTML; an unfinished last paragraph counts as a paragraph. */
  render(): string {
    if (!runsAreEmpty(this.runs) || this.floating.length > 0) {
      this.para.inTable = this.para.inTable && this.cells.length + this.cellParagraphs.length > 0;
      this.endParagraph();
    }
    this.closeTable();
    const out: string[] = [];
    const open: { tag: 'ul' | 'ol'; depth: number }[] = [];
    const closeTo = (depth: number): void => {
      for (let top = open[open.length - 1]; top && top.depth > depth; top = open[open.length - 1]) {
        out.push(`</li></${top.tag}>`);
        open.pop();
      }
    };
    for (const block of this.blocks) {
      if (block.kind === 'html') {
        closeTo(-1);
        out.push(block.html);
        continue;
      }
      closeTo(block.depth);
      const top = open[open.length - 1];
      if (top && top.depth === block.depth) {
        if (top.tag === block.tag) {
          out.push('</li>');
        } else {
          out.push(`</li></${top.tag}><${block.tag}>`);
          top.tag = block.tag;
        }
      } else {
        out.push(`<${block.tag}>`);
        open.push({ tag: block.tag, depth: block.depth });
      }
      out.push(`<li>${block.html}`);
    }
    closeTo(-1);
    return out.join('');
  }
}
