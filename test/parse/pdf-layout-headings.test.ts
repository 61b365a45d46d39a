/**
 * Headings on pages built in the test: one large bold title, then section heads set only a
 * little larger than the text (11 pt regular over 10 pt, the body's face), each followed by a
 * justified paragraph at ordinary spacing — the heads are headings, not the first lines of their
 * paragraphs; and a bold head in the middle column of a three-column page.
 */
import { describe, expect, it } from 'vitest';
import { readPdf } from '../../src/parse/readers/pdf/index.ts';
import { readCorpus } from '../helpers/corpus.ts';
import { readInput } from '../helpers/read-input.ts';
import { helveticaWidth, placedTextPdf, type PlacedText } from './pdf-placed-text.ts';
import { A4_HEIGHT, gridRuleOps, helveticaA4, textRunOps, type TextRun } from './pdf-table-fixtures.ts';

const WORDS = 'the survey asked each person how often they had seen such content and what they made of it afterwards'.split(' ');

/** A source of running text: each call gives the next line of WORDS filled to `width` points at `size` pt, after `lead`. */
function filler(): (width: number, size: number, lead?: string) => string {
  let k = 0;
  return (width, size, lead = '') => {
    let line = `${lead}${WORDS[k++ % WORDS.length] as string}`;
    while (helveticaWidth(`${line} ${WORDS[k % WORDS.length]}`, size) <= width) line += ` ${WORDS[k++ % WORDS.length]}`;
    return line;
  };
}

/** Sections from `y` down: each head, then six justified lines of 10 pt text (the last one short); returns the y after them. */
function sections(runs: PlacedText[], heads: readonly string[], y: number, head: { size: number; bold?: boolean; gap: number; after: number }): number {
  const next = filler();
  for (const text of heads) {
    runs.push({ text, x: 72, y, size: head.size, ...(head.bold ? { bold: true } : {}) });
    y += head.gap;
    for (let i = 0; i < 6; i++) {
      runs.push({ text: next(446, 10), x: 72, y, width: i === 5 ? undefined : 450 });
      y += 13;
    }
    y += head.after;
  }
  return y;
}

function page(headSize: number): Buffer {
  const runs: PlacedText[] = [{ text: 'A Study of Online Content', x: 72, y: 90, size: 22, bold: true }];
  sections(runs, ['Background', 'Methods', 'Findings'], 130, { size: headSize, gap: 18, after: 10 });
  return placedTextPdf(runs);
}

async function headings(bytes: Buffer): Promise<string[]> {
  const result = await readPdf(readInput('pdf', bytes, { options: { parsers: [{ type: 'pdf', mode: 'fast' }] } }));
  return [...result.document.querySelectorAll('h1, h2, h3, h4, h5, h6')].map((h) => `${h.tagName.toLowerCase()} ${h.textContent?.trim()}`);
}


/** Eight numbered references at 10 pt from `top` down, three justified lines each: a paper's end, the page's main size. */
function numberedReferences(top: number): PlacedText[] {
  const runs: PlacedText[] = [];
  let y = top;
  const next = filler();
  for (let n = 1; n <= 8; n++) {
    for (let i = 0; i < 3; i++) {
      runs.push({ text: next(446, 10, i === 0 ? `${n}. ` : ''), x: i === 0 ? 72 : 84, y, width: i === 2 ? undefined : 450 - (i === 0 ? 0 : 12) });
      y += 13;
    }
    y += 6;
  }
  return runs;
}
describe('pdf layout: headings on built pages', () => {
  it('finds section heads set 10 % larger than the text under a single large title', async () => {
    expect(await headings(page(11))).toEqual(['h1 A Study of Online Content', 'h2 Background', 'h2 Methods', 'h2 Findings']);
  });

  it('leaves a first line set within 5 % of the text to its paragraph', async () => {
    expect(await headings(page(10.4))).toEqual(['h1 A Study of Online Content']);
  });

  it('finds a bold head in the middle column of three, on a row with two lines of running text beside it', async () => {
    // A row of three lines is a table's row only when its lines are cell-sized; here two are
    // lines of running text in the other columns.
    const width = 150;
    const xs = [40, 40 + width + 14, 40 + 2 * (width + 14)];
    const runs: PlacedText[] = [{ text: 'Quarterly Newsletter', x: 40, y: 60, size: 24, bold: true }];
    const next = filler();
    xs.forEach((x, column) => {
      for (let i = 0; i < 40; i++) {
        const y = 100 + i * 12;
        if (column === 1 && i === 14) continue;
        if (column === 1 && i === 15) {
          runs.push({ text: 'Survey Results', x, y, size: 9, bold: true });
          continue;
        }
        runs.push({ text: next(width - 4, 9), x, y, size: 9, width: i % 9 === 8 ? undefined : width });
      }
    });
    expect(await headings(placedTextPdf(runs))).toEqual(['h1 Quarterly Newsletter', 'h2 Survey Results']);
  });

  it('leaves a running head over a larger title in the top band to the text, not to the headings', async () => {
    // A page cut out of a book: the running head (folio and authors, bold at the text's size) in
    // the top tenth, right above the chapter's title; the page cannot show it recurs.
    const runs: PlacedText[] = [
      { text: '8 Encinas Franco and Laguna', x: 72, y: 50, size: 10, bold: true },
      { text: 'Women in Electoral Politics', x: 72, y: 110, size: 16, bold: true },
    ];
    sections(runs, ['Background', 'Findings'], 140, { size: 10, bold: true, gap: 16, after: 12 });
    const bytes = placedTextPdf(runs);
    expect(await headings(bytes)).toEqual(['h1 Women in Electoral Politics', 'h2 Background', 'h2 Findings']);
    const result = await readPdf(readInput('pdf', bytes, { options: { parsers: [{ type: 'pdf', mode: 'fast' }] } }));
    expect([...result.document.querySelectorAll('p')].map((p) => p.textContent?.trim())).toContain('8 Encinas Franco and Laguna');
  });

  it('leaves two sentences set larger than the main size of the page to the text (a proof over the references)', async () => {
    // The end of a paper: the proof's text at 12 pt, the references under it at 10 pt carry
    // more characters, so 12 pt reads as larger than the text; two sentences are still prose.
    const runs: PlacedText[] = [
      { text: 'Proof. Let S be the set of generators of the group described above. Then every', x: 72, y: 80, size: 12 },
      { text: 'element of the group is a product of them, which gives the spectrum as', x: 72, y: 95, size: 12 },
    ];
    runs.push(...numberedReferences(130));
    expect(await headings(placedTextPdf(runs))).toEqual([]);
  });

  it('leaves one sentence set larger than the main size of the page, filling the measure, to the text', async () => {
    // The same end of a paper: a remark at 12 pt over two justified lines (the first runs to
    // the margin where the references end theirs), one sentence ended by a period, is prose; the
    // title on a line of its own, though it ends with a period too, is a heading.
    const runs: PlacedText[] = [
      { text: 'A Note on the Spectra of Graphs.', x: 72, y: 40, size: 12 },
      { text: 'Here we recall that the functional is induced on the quotient ring by the ideal, and we', x: 72, y: 80, size: 12, width: 450 },
      { text: 'conclude that the eigenvalue is the sum of these values over every divisor of the ring.', x: 72, y: 95, size: 12 },
    ];
    runs.push(...numberedReferences(130));
    expect(await headings(placedTextPdf(runs))).toEqual(['h1 A Note on the Spectra of Graphs.']);
  });

  it('leaves the larger type of a real article page that fills its measure to the text (olmOCR math_2503_04086)', async () => {
    // Its 12 pt text over 10 pt references: "Here we recall … R/AnnR(xi))." read as a heading.
    const result = await readPdf(readInput('pdf', readCorpus('pdf', 'olmocr', 'pdfs', 'math_2503_04086.pdf'), { options: { parsers: [{ type: 'pdf', mode: 'fast' }] } }));
    const heads = [...result.document.querySelectorAll('h1, h2, h3, h4, h5, h6')].map((h) => h.textContent?.trim() ?? '');
    expect(heads.some((h) => h.startsWith('Here we recall'))).toBe(false);
    expect(heads.some((h) => h.startsWith('The following corollary'))).toBe(false);
    expect(result.document.body.textContent).toContain('Here we recall that');
  });

  it('finds side heads set in italic at the text size over their paragraphs, not italic text of other kinds', async () => {
    // A handbook's side heads: a short title-cased line in italic right over its paragraph in
    // roman (no more space than the leading). An epigraph in italic over more italic, and an
    // italic line ending a sentence, are text.
    const runs: PlacedText[] = [{ text: 'Self-Locking Nuts', x: 72, y: 60, size: 18, bold: true }];
    const next = filler();
    let y = 100;
    const paragraph = (lines: number, italic = false) => {
      for (let i = 0; i < lines; i++) {
        runs.push({ text: next(446, 10), x: 72, y, ...(i === lines - 1 || italic ? {} : { width: 450 }), ...(italic ? { italic: true } : {}) });
        y += 12.5;
      }
      y += 12;
    };
    runs.push({ text: 'Every nut here is made to hold under vibration', x: 72, y, italic: true });
    y += 12.5;
    paragraph(2, true);
    for (const head of ['Boots Self-Locking Nut', 'Elastic Stop Nut']) {
      runs.push({ text: head, x: 72, y, italic: true });
      y += 12.5;
      paragraph(5);
    }
    runs.push({ text: 'This is how the nut is made.', x: 72, y, italic: true });
    y += 12.5;
    paragraph(4);
    expect(await headings(placedTextPdf(runs))).toEqual(['h1 Self-Locking Nuts', 'h2 Boots Self-Locking Nut', 'h2 Elastic Stop Nut']);
  });

  it('finds the italic side heads of a real handbook page (docling amt_handbook_sample)', async () => {
    const result = await readPdf(readInput('pdf', readCorpus('pdf', 'docling', 'amt_handbook_sample.pdf'), { options: { parsers: [{ type: 'pdf', mode: 'fast' }] } }));
    const heads = [...result.document.querySelectorAll('h1, h2, h3, h4, h5, h6')].map((h) => h.textContent?.trim());
    expect(heads).toEqual(['Boots Self-Locking Nut', 'Stainless Steel Self-Locking Nut', 'Elastic Stop Nut']);
    expect(result.document.querySelector('h2 + p, h1 + p')?.textContent).toMatch(/^The Boots self-locking nut is of one piece/u);
  });

  it('leaves a bold lead-in that the numbering of a list runs through to the list, not a head that restarts it', async () => {
    // Steps 1–3, a bold line at the steps' size, steps 4–5 (the numbering runs through it: a
    // lead-in inside the list); then a bold head and steps numbered from 1 again (a head); then
    // a head set larger than the steps with the numbering running on (a head too).
    const runs: PlacedText[] = [{ text: 'Laboratory Procedure', x: 72, y: 60, size: 18, bold: true }];
    const next = filler();
    let y = 100;
    const step = (n: number) => {
      runs.push({ text: next(430, 10, `${n}. `), x: 72, y, width: 430 });
      runs.push({ text: next(300, 10), x: 72, y: y + 12 });
      y += 34;
    };
    [1, 2, 3].forEach(step);
    runs.push({ text: 'Digest Prep (switch to the small pipette):', x: 72, y, bold: true });
    y += 24;
    [4, 5].forEach(step);
    runs.push({ text: 'Set Up the Digests', x: 72, y, bold: true });
    y += 24;
    [1, 2].forEach(step);
    runs.push({ text: 'Run the Gel', x: 72, y, size: 13, bold: true });
    y += 26;
    [3, 4].forEach(step);
    expect(await headings(placedTextPdf(runs))).toEqual(['h1 Laboratory Procedure', 'h3 Set Up the Digests', 'h2 Run the Gel']);
  });

  it('leaves the lead-in of a real lab page inside its numbered steps (bench 01030000000121, a tuning page)', async () => {
    const result = await readPdf(readInput('pdf', readCorpus('pdf-bench', 'pdfs', '01030000000121.pdf'), { options: { parsers: [{ type: 'pdf', mode: 'fast' }] } }));
    const heads = [...result.document.querySelectorAll('h1, h2, h3, h4, h5, h6')].map((h) => h.textContent?.trim());
    expect(heads).toEqual(['II. Set Up the Restriction Digests of the “Suspect” and “Evidence” DNA']);
    expect(result.document.body.textContent).toContain('Restriction Enzyme Digest Prep');
  });

  it('leaves an author name parted from the list of authors by their marks to the list', async () => {
    // The last name of an author list stands on a line of its own under a row of affiliation
    // marks, set in the list's own type (12 pt over 10 pt text): a fragment of the list.
    const runs: PlacedText[] = [
      { text: 'Lassa Fever in Sierra Leone', x: 72, y: 60, size: 20, bold: true },
      { text: 'Jeffrey Shaffer, Donald Grant, John Schieffelin, Matt Boisen, Augustine Goba,', x: 72, y: 90, size: 12 },
      { text: '1 2 3 4 5', x: 150, y: 97, size: 6 },
      { text: 'Pardis Sabeti', x: 72, y: 106, size: 12 },
      { text: 'Abstract', x: 72, y: 140, size: 12, bold: true },
    ];
    let y = 160;
    const next = filler();
    for (let i = 0; i < 12; i++) {
      runs.push({ text: next(446, 10), x: 72, y, width: i === 11 ? undefined : 450 });
      y += 13;
    }
    expect(await headings(placedTextPdf(runs))).toEqual(['h1 Lassa Fever in Sierra Leone', 'h2 Abstract']);
  });

  it('leaves display lines in the text face to the text where the headings are set in a face of their own', async () => {
    // A paper's first page: the title and section heads in the bold face, the authors and their
    // affiliation a size larger than the text but in its regular face.
    const runs: PlacedText[] = [
      { text: 'Scaling Language Models by Depth', x: 120, y: 70, size: 16, bold: true },
      { text: 'Dahyun Kim, Chanjun Park and Sanghoon Kim', x: 150, y: 100, size: 12 },
      { text: 'Upstage AI, South Korea', x: 220, y: 126, size: 12 },
    ];
    sections(runs, ['Abstract', '1 Introduction'], 160, { size: 12, bold: true, gap: 18, after: 12 });
    expect(await headings(placedTextPdf(runs))).toEqual(['h1 Scaling Language Models by Depth', 'h2 Abstract', 'h2 1 Introduction']);
  });

  it('leaves a field\'s label over its value in another style to the text, not a heading ending in a colon alone', async () => {
    // A repository's cover page: the title, then fields set a size above the notes, each label in
    // italic over its value in roman; and a head of its own ending in a colon.
    const runs: PlacedText[] = [
      { text: 'Digital Rights in Publishing', x: 72, y: 90, size: 12, bold: true },
      { text: 'Published in:', x: 72, y: 130, size: 10, italic: true },
      { text: 'International Conference on Law and Technology, Cambridge', x: 72, y: 142, size: 10 },
      { text: 'Publication date:', x: 72, y: 180, size: 10, italic: true },
      { text: '2002', x: 72, y: 192, size: 10 },
    ];
    const next = filler();
    for (let i = 0; i < 8; i++) runs.push({ text: next(446, 8), x: 72, y: 230 + 10 * i, size: 8, width: 450 });
    runs.push({ text: 'For more information:', x: 72, y: 330, size: 10, bold: true });
    for (let i = 0; i < 6; i++) runs.push({ text: next(446, 8), x: 72, y: 344 + 10 * i, size: 8, width: 450 });
    expect(await headings(placedTextPdf(runs))).toEqual(['h1 Digital Rights in Publishing', 'h2 For more information:']);
  });

  it('finds the heads of a page set in a smaller scale than its document, measured against that page\'s text (docling redp5110_sampled)', async () => {
    // Page 3 is an IBM brochure bound into the paper: its text at 7.5 pt (the paper's at 10), its
    // heads at 9.5 pt in a face of their own over its paragraphs.
    const result = await readPdf(readInput('pdf', readCorpus('pdf', 'docling', 'redp5110_sampled.pdf'), { options: { parsers: [{ type: 'pdf', mode: 'fast' }] } }));
    const heads = [...result.document.querySelectorAll('h1, h2, h3, h4, h5, h6')].map((h) => h.textContent?.trim());
    expect(heads).toContain('We build confident, satisfied clients');
    expect(heads).toContain('Who we are, some of what we do');
    expect(heads).not.toContain('Because no one else is IBM.');
    expect(heads).not.toContain('Solution Brief');
    const head = [...result.document.querySelectorAll('h1, h2, h3, h4, h5, h6')].find((h) => h.textContent?.trim() === 'We build confident, satisfied clients');
    expect(head?.nextElementSibling?.textContent).toMatch(/^No one else has the vast consulting experiences/u);
  });

  it('ranks a long document\'s heads by its inner pages\' styles, not below its cover\'s display type (docling redp5110_sampled)', async () => {
    const result = await readPdf(readInput('pdf', readCorpus('pdf', 'docling', 'redp5110_sampled.pdf'), { options: { parsers: [{ type: 'pdf', mode: 'fast' }] } }));
    const level = (text: string) => {
      const h = [...result.document.querySelectorAll('h1, h2, h3, h4, h5, h6')].find((e) => e.textContent?.trim() === text);
      return Number(h?.tagName.slice(1));
    };
    expect(level('Row and Column Access Control Support in IBM DB2 for i')).toBe(1);
    expect(level('Chapter 1. Securing and protecting IBM DB2 data')).toBe(2);
    // The section's heads a level above its subsections' (both were h6 under the cover's styles).
    expect(level('1.1 Security fundamentals')).toBeLessThan(level('1.3.1 Existing row and column control'));
  });

  it('leaves a stack of three display lines in one style with no text between them to the text, not heads with their sections', async () => {
    // A cover: the title, then three blurbs in bold one under another, then the text.
    const runs: PlacedText[] = [
      { text: 'Access Control in Databases', x: 72, y: 80, size: 24, bold: true },
      { text: 'Implement roles and duties', x: 72, y: 150, size: 14, bold: true },
      { text: 'Leverage row permissions', x: 72, y: 180, size: 14, bold: true },
      { text: 'Protect columns by masks', x: 72, y: 210, size: 14, bold: true },
    ];
    sections(runs, ['Background', 'Methods', 'Findings'], 260, { size: 14, bold: true, gap: 18, after: 10 });
    expect(await headings(placedTextPdf(runs))).toEqual(['h1 Access Control in Databases', 'h2 Background', 'h2 Methods', 'h2 Findings']);
  });

  it('leaves a real cover\'s stacked blurbs to the text (docling redp5110_sampled)', async () => {
    const result = await readPdf(readInput('pdf', readCorpus('pdf', 'docling', 'redp5110_sampled.pdf'), { options: { parsers: [{ type: 'pdf', mode: 'fast' }] } }));
    const heads = [...result.document.querySelectorAll('h1, h2, h3, h4, h5, h6')].map((h) => h.textContent?.trim());
    expect(heads).not.toContain('Implement roles and separation of duties');
    expect(heads).not.toContain('Protect columns by defining column masks');
    expect(result.document.body.textContent).toContain('Leverage row permissions on the database');
    expect(heads).toContain('Row and Column Access Control Support in IBM DB2 for i');
  });

  it('leaves a subtitle in italic right under a larger title to the text, not a head set apart below it', async () => {
    const deck = (gap: number) => {
      const runs: PlacedText[] = [
        { text: 'Center of Excellence', x: 72, y: 90, size: 22, bold: true },
        { text: 'Expert help for your business', x: 72, y: 90 + gap, size: 14, italic: true },
      ];
      sections(runs, ['Background', 'Methods'], 170, { size: 12, bold: true, gap: 18, after: 10 });
      return placedTextPdf(runs);
    };
    // Set right under the title (its top 2 pt below the title's foot): the title's deck.
    expect(await headings(deck(18))).toEqual(['h1 Center of Excellence', 'h2 Background', 'h2 Methods']);
    // Set apart (a line's space between): a heading of its own.
    expect(await headings(deck(40))).toEqual(['h1 Center of Excellence', 'h2 Expert help for your business', 'h3 Background', 'h3 Methods']);
  });
  it('parts a head from a head a step smaller right under it (a word processor\'s Heading 1 at 14 pt over its Heading 2 at 13)', async () => {
    // One-line paragraphs with space after each, as a word processor sets a list of cases: the
    // gap between lines of the page is mostly a paragraph's, so the white above a head is no
    // wider than usual.
    const wordPage = (h2Top: number) => {
      const runs: PlacedText[] = [
        { text: 'Code review fixture', x: 72, y: 90, size: 14, bold: true },
        { text: 'Case A normal prose', x: 72, y: h2Top, size: 13, bold: true },
      ];
      const next = filler();
      let y = h2Top + 22;
      for (let p = 0; p < 10; p++) {
        runs.push({ text: `${next(p % 3 === 0 ? 400 : 250, 11)}.`, x: 72, y });
        y += 26;
      }
      return placedTextPdf(runs);
    };
    // Its own space above it (a head's space before): two heads.
    expect(await headings(wordPage(118))).toEqual(['h1 Code review fixture', 'h2 Case A normal prose']);
    // At a paragraph's leading (under half an em of white between the lines): one title of two lines.
    expect(await headings(wordPage(106))).toEqual(['h1 Code review fixture Case A normal prose']);
  });
  it('measures the body size with the text in tables: the heads of a document set mostly in tables are headings', async () => {
    // Three heads at 12 pt regular, each over a ruled table of 8 pt text and a note of 8 pt under
    // it: outside the tables most characters are the heads'.
    const heads = ['Table with rich cells', 'Table with nested cells', 'Table with pictures'];
    const ops: string[] = [];
    const runs: TextRun[] = [];
    let y = 90;
    heads.forEach((head, h) => {
      ops.push(`BT /F1 12 Tf 72 ${A4_HEIGHT - y} Td (${head}) Tj ET`);
      const top = y + 12;
      const ys = [0, 1, 2, 3, 4].map((r) => top + 18 * r);
      ops.push(...gridRuleOps([72, 222, 372, 522], ys));
      for (let r = 0; r < 4; r++) for (let c = 0; c < 3; c++) runs.push([r === 0 ? `Column ${'ABC'[c]}` : `Cell ${h + 1}${r}${'abc'[c]} of the table`, 76 + 150 * c, top + 18 * r + 12]);
      runs.push([`Note ${h + 1}`, 72, top + 72 + 14]);
      y = top + 72 + 44;
    });
    const bytes = helveticaA4(`0.5 w\n${[...ops, ...textRunOps(runs)].join('\n')}\n`);
    expect(await headings(bytes)).toEqual(heads.map((h) => `h1 ${h}`));
  });
});
