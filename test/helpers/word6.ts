/**
 * Builds Word 6.0 / Word 95 `.doc` files (the FIB of nFib 101/104, 8-bit text, PAPX and CHPX
 * FKPs with one-byte sprms, a style sheet with Heading 1–2, a font table) in an OLE container
 * written by SheetJS's CFB, so the tests make their own inputs. `fastSaved` writes the text as
 * pieces out of file order with a piece table (CLX), as Word's fast save does. Layout checked
 * against LibreOffice's Word 6/95 import (it reads what this writes).
 */
import iconv from 'iconv-lite';
import XLSX from 'xlsx';

/**
 * A paragraph, a heading, a bold paragraph, a numbered or bulleted paragraph (Word 6
 * auto-numbering: sprmPAnld and sprmPNLvlAnm 10) or a table. A `\x02` in a paragraph's text is a
 * footnote reference: the next of `footnotes` (Word 6 numbers them automatically).
 */
export type Word6Block =
  | string
  | { heading: 1 | 2; text: string }
  | { bold: string }
  | { item: string; bullet: boolean }
  | { table: string[][] }
  /** A paragraph in another font (sprmCFtc on its run), written in that font's code page. */
  | { text: string; font: number; codePage: number };

export interface Word6Options {
  version?: 'word6' | 'word95';
  /** Text as pieces in reverse file order, with a piece table and fComplex set. */
  fastSaved?: boolean;
  /** FIB lid (LANGID); 0x0409 by default. */
  lid?: number;
  /** Code page the text is written in (single-byte, or 932/936/949/950 where a CP is a byte); 1252 by default. */
  codePage?: number;
  /** Charset of the document's first font, ftc 0 (0 ANSI, 204 Cyrillic, …). */
  fontCharset?: number;
  /** Charsets of further fonts, ftc 1, 2, … */
  moreFonts?: number[];
  /** A font the Normal style sets (sprmCFtc in its character UPX); else the standard font, ftc 0. */
  normalFont?: number;
  encrypted?: boolean;
  /** Footnote texts, one per `\x02` in the main text, in order. */
  footnotes?: string[];
  /**
   * A running header and/or footer of the one section (its grpfIhdt: odd header, odd footer),
   * after a footnote separator story (the DOP's grpfIhdt), as Word 6 stores only the stories
   * that exist.
   */
  header?: string;
  footer?: string;
}

interface Paragraph {
  text: string;
  istd: number;
  inTable: boolean;
  rowEnd: boolean;
  bold?: boolean;
  list?: 'bullet' | 'number';
  font?: number;
  codePage?: number;
}

const FC_MIN = 0x300;
const PAGE = 512;

function paragraphsOf(blocks: Word6Block[]): Paragraph[] {
  const paragraphs: Paragraph[] = [];
  for (const block of blocks) {
    if (typeof block === 'string') paragraphs.push({ text: `${block}\r`, istd: 0, inTable: false, rowEnd: false });
    else if ('font' in block) paragraphs.push({ text: `${block.text}\r`, istd: 0, inTable: false, rowEnd: false, font: block.font, codePage: block.codePage });
    else if ('item' in block) paragraphs.push({ text: `${block.item}\r`, istd: 0, inTable: false, rowEnd: false, list: block.bullet ? 'bullet' : 'number' });
    else if ('bold' in block) paragraphs.push({ text: `${block.bold}\r`, istd: 0, inTable: false, rowEnd: false, bold: true });
    else if ('heading' in block) paragraphs.push({ text: `${block.text}\r`, istd: block.heading, inTable: false, rowEnd: false });
    else {
      for (const row of block.table) {
        for (const cell of row) paragraphs.push({ text: `${cell}\x07`, istd: 0, inTable: true, rowEnd: false });
        paragraphs.push({ text: '\x07', istd: 0, inTable: true, rowEnd: true });
      }
    }
  }
  return paragraphs;
}

/** Encodes text in a code page (characters it lacks become '?'). */
function encode(text: string, codePage: number): Buffer {
  const names: Record<number, string> = { 932: 'shift_jis', 936: 'gbk', 949: 'euc-kr', 950: 'big5' };
  return iconv.encode(text, names[codePage] ?? `windows-${codePage}`);
}

/** The PAPX of a paragraph: istd, then its sprms in ascending order (padded to whole words). */
function papx(props: Paragraph): Buffer {
  const anld = Buffer.alloc(52);
  anld[0] = props.list === 'bullet' ? 23 : 0; // nfc: bullet, or arabic numbers
  anld[10] = 1; // iStartAt
  const sprms = [
    ...(props.list ? [12, anld.length, ...anld, 13, 10] : []),
    ...(props.inTable ? [24, 1] : []),
    ...(props.rowEnd ? [25, 1] : []),
  ];
  const body = Buffer.from([props.istd & 0xff, props.istd >> 8, ...sprms]);
  return body.length % 2 === 0 ? body : Buffer.concat([body, Buffer.from([0])]);
}

/** PAPX FKP pages for runs [fcStart, fcEnd) with their props, as many runs per page as fit. */
function papxPages(runs: { fcStart: number; fcEnd: number; props: Paragraph }[]): { page: Buffer; fcStart: number }[] {
  const pages: { page: Buffer; fcStart: number }[] = [];
  let at = 0;
  while (at < runs.length) {
    let count = 0;
    let bytes = 4;
    while (at + count < runs.length) {
      const need = 4 + 7 + 2 + papx((runs[at + count] as { props: Paragraph }).props).length;
      if (bytes + need > 500) break;
      bytes += need;
      count++;
    }
    const chunk = runs.slice(at, at + Math.max(1, count));
    pages.push({ page: papxPage(chunk), fcStart: (chunk[0] as { fcStart: number }).fcStart });
    at += chunk.length;
  }
  return pages;
}

/** A PAPX FKP page: rgfc, 7-byte BXs (offset, PHE), PAPXs (cw, istd, grpprl) from the end. */
function papxPage(runs: { fcStart: number; fcEnd: number; props: Paragraph }[]): Buffer {
  const page = Buffer.alloc(PAGE);
  const crun = runs.length;
  let free = 511;
  runs.forEach((run, j) => {
    page.writeUInt32LE(run.fcStart, j * 4);
    page.writeUInt32LE(run.fcEnd, (j + 1) * 4);
    const padded = papx(run.props);
    let at = free - (1 + padded.length);
    if (at % 2 !== 0) at--;
    page[at] = padded.length / 2;
    padded.copy(page, at + 1);
    page[(crun + 1) * 4 + j * 7] = at / 2;
    free = at;
  });
  if (free < (crun + 1) * 4 + crun * 7) throw new Error('too many paragraphs for one PAPX page');
  page[511] = crun;
  return page;
}

interface CharacterRun {
  fcStart: number;
  fcEnd: number;
  bold: boolean;
  font: number | undefined;
}

/** A CHPX FKP page: runs of default properties, bold ones with sprmCFBold (85), others with a font (sprmCFtc, 93). */
function chpxPage(runs: CharacterRun[]): Buffer {
  const page = Buffer.alloc(PAGE);
  const crun = runs.length;
  const boldAt = 500;
  page[boldAt] = 2;
  page[boldAt + 1] = 85;
  page[boldAt + 2] = 1;
  let free = boldAt;
  const fontAt = new Map<number, number>();
  runs.forEach((run, j) => {
    page.writeUInt32LE(run.fcStart, j * 4);
    page.writeUInt32LE(run.fcEnd, (j + 1) * 4);
    let offset = run.bold ? boldAt : 0;
    if (run.font !== undefined) {
      let at = fontAt.get(run.font);
      if (at === undefined) {
        at = free - 4;
        page[at] = 3;
        page[at + 1] = 93;
        page.writeUInt16LE(run.font, at + 2);
        fontAt.set(run.font, at);
        free = at;
      }
      offset = at;
    }
    page[(crun + 1) * 4 + j] = offset / 2;
  });
  if ((crun + 1) * 4 + crun > free) throw new Error('too many character runs for one CHPX page');
  page[511] = crun;
  return page;
}

function plcBte(fcs: number[], pns: number[]): Buffer {
  const plc = Buffer.alloc(fcs.length * 4 + pns.length * 2);
  fcs.forEach((fc, i) => plc.writeUInt32LE(fc, i * 4));
  pns.forEach((pn, i) => plc.writeUInt16LE(pn, fcs.length * 4 + i * 2));
  return plc;
}

function std(sti: number, name: string, istd: number, font?: number): Buffer {
  const base = Buffer.alloc(8);
  base.writeUInt16LE(sti, 0);
  base.writeUInt16LE(1 | ((sti === 0 ? 0x0fff : 0) << 4), 2); // sgc 1 (paragraph), istdBase Normal (or none)
  base.writeUInt16LE(2 | (0 << 4), 4); // cupx 2, istdNext Normal
  const nameBytes = Buffer.concat([Buffer.from([name.length]), Buffer.from(name, 'latin1'), Buffer.from([0])]);
  let body = Buffer.concat([base, nameBytes]);
  base.writeUInt16LE(8 + nameBytes.length, 6); // bchUpe
  body = Buffer.concat([base, nameBytes]);
  if (body.length % 2 !== 0) body = Buffer.concat([body, Buffer.from([0])]);
  const papx = Buffer.from([2, 0, istd & 0xff, istd >> 8]); // cbUPX 2, istd
  const chpx = font === undefined ? Buffer.from([0, 0]) : Buffer.from([3, 0, 93, font & 0xff, font >> 8, 0]); // cbUPX, grpprl (sprmCFtc), pad
  const content = Buffer.concat([body, papx, chpx]);
  const header = Buffer.alloc(2);
  header.writeUInt16LE(content.length, 0);
  return Buffer.concat([header, content]);
}

function styleSheet(normalFont?: number): Buffer {
  const stshi = Buffer.alloc(14);
  stshi.writeUInt16LE(3, 0); // cstd
  stshi.writeUInt16LE(8, 2); // cbSTDBaseInFile
  stshi.writeUInt16LE(1, 4); // fStdStylenamesWritten
  stshi.writeUInt16LE(3, 6); // stiMaxWhenSaved
  stshi.writeUInt16LE(10, 8); // istdMaxFixedWhenSaved
  const head = Buffer.alloc(2);
  head.writeUInt16LE(stshi.length, 0);
  return Buffer.concat([head, stshi, std(0, 'Normal', 0, normalFont), std(1, 'heading 1', 1), std(2, 'heading 2', 2)]);
}

function fontTable(charsets: number[]): Buffer {
  const ffns = charsets.map((charset, i) => {
    const name = Buffer.from(`${i === 0 ? 'Times New Roman' : `Font ${i}`}\0`, 'latin1');
    const ffn = Buffer.concat([Buffer.from([0, 0x16, 0x90, 0x01, charset, 0]), name]);
    ffn[0] = ffn.length - 1;
    return ffn;
  });
  const body = Buffer.concat(ffns);
  const head = Buffer.alloc(2);
  head.writeUInt16LE(2 + body.length, 0);
  return Buffer.concat([head, body]);
}

/** The WordDocument stream of a Word 6/95 document. */
export function word6Stream(blocks: Word6Block[], options: Word6Options = {}): Buffer {
  const main = paragraphsOf(blocks);
  const notes = (options.footnotes ?? []).map((note): Paragraph => ({ text: `\x02 ${note}\r`, istd: 0, inTable: false, rowEnd: false }));
  const furniture = options.header !== undefined || options.footer !== undefined;
  const plain = (text: string): Paragraph => ({ text, istd: 0, inTable: false, rowEnd: false });
  const hdd = furniture
    ? [plain('\x03\r'), ...(options.header !== undefined ? [plain(`${options.header}\r`)] : []), ...(options.footer !== undefined ? [plain(`${options.footer}\r`)] : [])]
    : [];
  // Any story after the main text ends the whole text with one more paragraph mark.
  const paragraphs = notes.length > 0 || hdd.length > 0 ? [...main, ...notes, ...hdd, plain('\r')] : main;
  const codePage = options.codePage ?? 1252;
  const texts = paragraphs.map((p) => encode(p.text, p.codePage ?? codePage));
  const text = Buffer.concat(texts);
  const ccpText = Buffer.concat(texts.slice(0, main.length)).length;
  const ccpFtn = Buffer.concat(texts.slice(main.length, main.length + notes.length)).length;
  const hddTexts = texts.slice(main.length + notes.length, main.length + notes.length + hdd.length);
  const ccpHdd = Buffer.concat(hddTexts).length;
  const ccpAll = text.length;

  // Text: in order at fcMin, or (fast-saved) second half first, then first half, with a piece table.
  const split = options.fastSaved ? Math.max(1, Math.floor(ccpAll / 2)) : ccpAll;
  const first = text.subarray(0, split);
  const second = text.subarray(split);
  const textArea = options.fastSaved ? Buffer.concat([second, first]) : text;
  const fcOfCp = (cp: number): number => (options.fastSaved ? (cp < split ? FC_MIN + second.length + cp : FC_MIN + (cp - split)) : FC_MIN + cp);
  const fcMac = FC_MIN + textArea.length;

  // Paragraph runs by file position: a paragraph split across pieces gets a run in each.
  const runs: { fcStart: number; fcEnd: number; props: Paragraph }[] = [];
  let cp = 0;
  for (const [i, p] of paragraphs.entries()) {
    const length = (texts[i] as Buffer).length;
    const end = cp + length;
    const cuts = options.fastSaved && cp < split && end > split ? [cp, split, end] : [cp, end];
    for (let k = 0; k + 1 < cuts.length; k++) {
      const from = cuts[k] as number;
      const to = cuts[k + 1] as number;
      runs.push({ fcStart: fcOfCp(from), fcEnd: fcOfCp(to - 1) + 1, props: p });
    }
    cp = end;
  }
  runs.sort((a, b) => a.fcStart - b.fcStart);

  // Character runs: neighbouring paragraphs of the same weight share one.
  const characterRuns: CharacterRun[] = [];
  for (const run of runs) {
    const last = characterRuns[characterRuns.length - 1];
    const bold = run.props.bold === true;
    const font = run.props.font;
    if (last && last.fcEnd === run.fcStart && last.bold === bold && last.font === font) last.fcEnd = run.fcEnd;
    else characterRuns.push({ fcStart: run.fcStart, fcEnd: run.fcEnd, bold, font });
  }
  const firstPage = Math.ceil(fcMac / PAGE);
  const chpxPn = firstPage;
  const pages = papxPages(runs);
  const papxFcs = pages.map((p) => p.fcStart);
  papxFcs.push(fcMac);
  const papxPns = pages.map((_, i) => chpxPn + 1 + i);

  const tablesAt = (chpxPn + 1 + pages.length) * PAGE;
  const structures: [string, Buffer][] = [
    ['stsh', styleSheet(options.normalFont)],
    ['chpx', plcBte([FC_MIN, fcMac], [chpxPn])],
    ['papx', plcBte(papxFcs, papxPns)],
    ['ffn', fontTable([options.fontCharset ?? 0, ...(options.moreFonts ?? [])])],
    ['dop', Buffer.alloc(84)],
  ];
  if (furniture) {
    const dop = (structures.find(([name]) => name === 'dop') as [string, Buffer])[1];
    dop[1] = 0x01; // grpfIhdt: a footnote separator story comes first
    const hddPlc = Buffer.alloc((hddTexts.length + 1) * 4);
    let at = 0;
    hddTexts.forEach((t, i) => {
      hddPlc.writeUInt32LE(at, i * 4);
      at += t.length;
    });
    hddPlc.writeUInt32LE(at, hddTexts.length * 4);
    const bits = (options.header !== undefined ? 0x02 : 0) | (options.footer !== undefined ? 0x08 : 0);
    structures.push(['hdd', hddPlc], ['sepx', Buffer.from([2, 0, 153, bits])]);
  }
  if (notes.length > 0) {
    const refs: number[] = [];
    const mainText = text.subarray(0, ccpText);
    for (let i = 0; i < mainText.length; i++) if (mainText[i] === 0x02) refs.push(i);
    const ref = Buffer.alloc((refs.length + 1) * 4 + refs.length * 2);
    refs.forEach((cp, i) => {
      ref.writeUInt32LE(cp, i * 4);
      ref.writeUInt16LE(1, (refs.length + 1) * 4 + i * 2);
    });
    ref.writeUInt32LE(ccpText, refs.length * 4);
    const txt = Buffer.alloc((notes.length + 2) * 4);
    let at = 0;
    notes.forEach((_, i) => {
      txt.writeUInt32LE(at, i * 4);
      at += (texts[main.length + i] as Buffer).length;
    });
    txt.writeUInt32LE(at, notes.length * 4);
    txt.writeUInt32LE(at + 1, (notes.length + 1) * 4);
    structures.push(['fndRef', ref], ['fndTxt', txt]);
  }
  if (options.fastSaved) {
    const pieces = [
      { cpStart: 0, cpEnd: split, fc: FC_MIN + second.length },
      { cpStart: split, cpEnd: ccpAll, fc: FC_MIN },
    ].filter((p) => p.cpEnd > p.cpStart);
    const plc = Buffer.alloc((pieces.length + 1) * 4 + pieces.length * 8);
    pieces.forEach((p, i) => {
      plc.writeUInt32LE(p.cpStart, i * 4);
      plc.writeUInt32LE(p.fc, (pieces.length + 1) * 4 + i * 8 + 2);
    });
    plc.writeUInt32LE(ccpAll, pieces.length * 4);
    const head = Buffer.alloc(5);
    head[0] = 2;
    head.writeUInt32LE(plc.length, 1);
    structures.push(['clx', Buffer.concat([head, plc])]);
  }
  const where = new Map<string, { fc: number; lcb: number }>();
  let at = tablesAt;
  for (const [name, bytes] of structures) {
    where.set(name, { fc: at, lcb: bytes.length });
    at += bytes.length + (bytes.length % 2);
  }
  if (furniture) {
    // One section over the main text, its SED naming the SEPX placed above.
    const sed = Buffer.alloc(8 + 12);
    sed.writeUInt32LE(0, 0);
    sed.writeUInt32LE(ccpText, 4);
    sed.writeUInt32LE((where.get('sepx') as { fc: number }).fc, 8 + 2);
    sed.writeUInt32LE(0xffffffff, 8 + 8);
    structures.push(['sed', sed]);
    where.set('sed', { fc: at, lcb: sed.length });
    at += sed.length;
  }
  const stream = Buffer.alloc(at);
  textArea.copy(stream, FC_MIN);
  chpxPage(characterRuns).copy(stream, chpxPn * PAGE);
  pages.forEach(({ page }, i) => page.copy(stream, (papxPns[i] as number) * PAGE));
  for (const [name, bytes] of structures) bytes.copy(stream, (where.get(name) as { fc: number }).fc);

  const nFib = options.version === 'word6' ? 101 : 104;
  stream.writeUInt16LE(0xa5dc, 0);
  stream.writeUInt16LE(nFib, 2);
  stream.writeUInt16LE(options.version === 'word6' ? 0x6027 : 0x6032, 4); // nProduct
  stream.writeUInt16LE(options.lid ?? 0x0409, 6);
  stream.writeUInt16LE((options.fastSaved ? 0x0004 | (1 << 4) : 0) | (options.encrypted ? 0x0100 : 0), 0x0a);
  stream.writeUInt16LE(nFib, 0x0c);
  stream.writeUInt32LE(FC_MIN, 0x18);
  stream.writeUInt32LE(fcMac, 0x1c);
  stream.writeUInt32LE(stream.length, 0x20);
  stream.writeUInt32LE(ccpText, 0x34);
  stream.writeUInt32LE(ccpFtn, 0x38);
  stream.writeUInt32LE(ccpHdd, 0x3c);
  const pair = (offset: number, name: string): void => {
    const place = where.get(name);
    if (!place) return;
    stream.writeUInt32LE(place.fc, offset);
    stream.writeUInt32LE(place.lcb, offset + 4);
  };
  pair(0x58, 'stsh');
  pair(0x60, 'stsh');
  pair(0x68, 'fndRef');
  pair(0x70, 'fndTxt');
  pair(0x88, 'sed');
  pair(0xb0, 'hdd');
  pair(0xb8, 'chpx');
  pair(0xc0, 'papx');
  pair(0xd0, 'ffn');
  pair(0x150, 'dop');
  pair(0x160, 'clx');
  stream.writeUInt16LE(chpxPn, 0x18a); // pnChpFirst
  stream.writeUInt16LE(papxPns[0] ?? 0, 0x18c); // pnPapFirst
  stream.writeUInt16LE(1, 0x18e); // cpnBteChp
  stream.writeUInt16LE(pages.length, 0x190); // cpnBtePap
  return stream;
}

/** An OLE container holding the given streams (root level). */
export function oleFile(streams: Record<string, Buffer>): Buffer {
  const cfb = XLSX.CFB.utils.cfb_new();
  for (const [name, content] of Object.entries(streams)) XLSX.CFB.utils.cfb_add(cfb, `/${name}`, content);
  return Buffer.from(XLSX.CFB.write(cfb, { type: 'buffer' }) as Uint8Array);
}

/** A Word 6.0 / Word 95 `.doc` file. */
export function buildWord6Doc(blocks: Word6Block[], options: Word6Options = {}): Buffer {
  return oleFile({ WordDocument: word6Stream(blocks, options) });
}
