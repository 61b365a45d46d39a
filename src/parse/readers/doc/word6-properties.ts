/**
 * Word 6/95 properties, all in the WordDocument stream: character runs (CHPX FKPs: deleted,
 * bold, italic, font), paragraph runs (PAPX FKPs: style, in-table, row end), the style
 * sheet's built-in heading styles, the font table's charsets, and note positions. The FKPs
 * are Word 97's but for 2-byte page numbers in the bin tables, 7-byte BXs in PAPX pages and
 * one-byte sprms (word6-sprm.ts). Every read is bounds-checked (OutOfRange).
 */
import type { CharacterRun } from './character.ts';
import type { Piece } from './ole-text.ts';
import { filePositionOf, runAt } from './piece-table.ts';
import { u16, u32, u8, type NotePositions, type ParagraphProps, type StoryProperties } from './properties.ts';
import { slice, type FcLcb, type Word6Fib } from './word6-fib.ts';
import { SPRM_C_FBOLD, SPRM_C_FITALIC, SPRM_C_FRMARKDEL, SPRM_C_FTC, SPRM_P_ANLD, SPRM_P_FINTABLE, SPRM_P_NLVLANM, SPRM_P_TTP, word6Sprms } from './word6-sprm.ts';

const PAGE = 512;
const MAX_PAGES = 65_536;

/** The FKP page numbers of a bin table (PLC of 2-byte PNs), completed when the table lists fewer than the FIB counts. */
function binTablePages(stream: Buffer, pair: FcLcb, count: number, complex: boolean): number[] {
  const plc = slice(stream, pair);
  if (!plc || plc.length < 10) return [];
  const n = Math.floor((plc.length - 4) / 6);
  const pages: number[] = [];
  for (let i = 0; i < n; i++) pages.push(u16(plc, (n + 1) * 4 + i * 2));
  // A non-complex file may list fewer bins than it has: the rest follow the last one.
  if (!complex && pages.length > 0) {
    for (let pn = (pages[pages.length - 1] as number) + 1; pages.length < Math.min(count, MAX_PAGES); pn++) pages.push(pn);
  }
  return pages;
}

function fkp(stream: Buffer, pn: number): Buffer | undefined {
  const start = pn * PAGE;
  return start + PAGE <= stream.length ? stream.subarray(start, start + PAGE) : undefined;
}

/** A character run with the font (ftc) it sets, if any. */
export interface Word6CharacterRun extends CharacterRun {
  ftc?: number;
}

/** Character runs by file position (CHPX FKPs), sorted; those setting nothing are left out. */
export function readWord6CharacterRuns(stream: Buffer, fib: Word6Fib): Word6CharacterRun[] {
  const runs: Word6CharacterRun[] = [];
  for (const pn of binTablePages(stream, fib.plcfbteChpx, fib.cpnBteChp, fib.complex)) {
    const page = fkp(stream, pn);
    if (!page) continue;
    const crun = page[511] as number;
    if ((crun + 1) * 4 + crun > 511) continue;
    for (let j = 0; j < crun; j++) {
      const run: Word6CharacterRun = { fcStart: page.readUInt32LE(j * 4), fcEnd: page.readUInt32LE((j + 1) * 4), deleted: false, bold: false, italic: false };
      const offset = (page[(crun + 1) * 4 + j] as number) * 2;
      if (offset > 0 && offset < 511) {
        const cb = page[offset] as number;
        const grpprl = page.subarray(offset + 1, Math.min(511, offset + 1 + cb));
        for (const { sprm, at } of word6Sprms(grpprl)) {
          const operand = grpprl[at] as number;
          if (sprm === SPRM_C_FRMARKDEL) run.deleted = (operand & 1) === 1;
          else if (sprm === SPRM_C_FBOLD) run.bold = operand === 1 || operand === 0x81;
          else if (sprm === SPRM_C_FITALIC) run.italic = operand === 1 || operand === 0x81;
          else if (sprm === SPRM_C_FTC) run.ftc = grpprl.readUInt16LE(at);
        }
      }
      if (run.fcEnd > run.fcStart && (run.deleted || run.bold || run.italic || run.ftc !== undefined)) runs.push(run);
    }
  }
  return runs.sort((a, b) => a.fcStart - b.fcStart);
}

/** The charset (chs) of each font in the font table (STTBFFN), by ftc. */
export function readFontCharsets(stream: Buffer, fib: Word6Fib): number[] {
  const table = slice(stream, fib.sttbfffn);
  if (!table || table.length < 2) return [];
  const end = Math.min(table.length, u16(table, 0));
  const charsets: number[] = [];
  let at = 2;
  while (at < end && charsets.length < 4096) {
    const size = u8(table, at) + 1;
    if (size < 6 || at + size > end) break;
    charsets.push(u8(table, at + 4));
    at += size;
  }
  return charsets;
}

interface ParagraphRun {
  fcStart: number;
  fcEnd: number;
  props: ParagraphProps;
}

/** Word 6 auto-numbering (pap.nLvlAnm, pap.anld.nfc) beside the properties Word 97 shares. */
interface Word6ParagraphProps extends ParagraphProps {
  /** 1–9 outline (heading) numbering, 10 a numbered or bulleted paragraph, 11 sequence, 12 pause. */
  nLvlAnm?: number;
  /** Number format of the paragraph's ANLD: 23 is a bullet. */
  nfc?: number;
}

const NLVLANM_NUMBERING = 10;
const NFC_BULLET = 23;

function paragraphProps(papx: Buffer): Word6ParagraphProps {
  const props: Word6ParagraphProps = { istd: papx.length >= 2 ? papx.readUInt16LE(0) : 0, inTable: false, rowEnd: false };
  const grpprl = papx.subarray(2);
  for (const { sprm, at, size } of word6Sprms(grpprl)) {
    if (sprm === SPRM_P_FINTABLE) props.inTable = grpprl[at] !== 0;
    else if (sprm === SPRM_P_TTP) props.rowEnd = grpprl[at] !== 0;
    else if (sprm === SPRM_P_NLVLANM) props.nLvlAnm = grpprl[at] as number;
    // The operand is a length byte, then the ANLD, whose first byte is nfc.
    else if (sprm === SPRM_P_ANLD && size >= 2) props.nfc = grpprl[at + 1] as number;
  }
  return props;
}

/** Paragraph runs by file position (PAPX FKPs: rgfc, 7-byte BXs, PAPX = cw, istd, grpprl). */
function readParagraphRuns(stream: Buffer, fib: Word6Fib): ParagraphRun[] {
  const runs: ParagraphRun[] = [];
  for (const pn of binTablePages(stream, fib.plcfbtePapx, fib.cpnBtePap, fib.complex)) {
    const page = fkp(stream, pn);
    if (!page) continue;
    const crun = page[511] as number;
    if ((crun + 1) * 4 + crun * 7 > 511) continue;
    for (let j = 0; j < crun; j++) {
      const fcStart = page.readUInt32LE(j * 4);
      const fcEnd = page.readUInt32LE((j + 1) * 4);
      const offset = (page[(crun + 1) * 4 + j * 7] as number) * 2;
      let props: ParagraphProps = { istd: 0, inTable: false, rowEnd: false };
      if (offset > 0 && offset < 511) {
        const cw = page[offset] as number;
        props = paragraphProps(page.subarray(offset + 1, Math.min(511, offset + 1 + cw * 2)));
      }
      runs.push({ fcStart, fcEnd, props });
    }
  }
  return runs.sort((a, b) => a.fcStart - b.fcStart);
}

const STI_TITLE = 62;
const ISTD_NIL = 0x0fff;

interface StyleEntry {
  sti: number;
  sgc: number;
  istdBase: number;
  /** The font its character UPX sets (sprmCFtc), if any. */
  ftc?: number;
}

/**
 * The style sheet (STSH: STSHI, then per style cbStd and an STD whose base holds sti, sgc and
 * istdBase; a Pascal name; UPXs, for a paragraph style first istd + grpprl then the character
 * grpprl) and the standard font (STSHI ftcStandardChpStsh).
 */
function readStyleSheet(stream: Buffer, fib: Word6Fib): { styles: Map<number, StyleEntry>; standardFtc: number | undefined } {
  const styles = new Map<number, StyleEntry>();
  const stsh = slice(stream, fib.stshf);
  if (!stsh || stsh.length < 4) return { styles, standardFtc: undefined };
  const cbStshi = u16(stsh, 0);
  const cstd = Math.min(u16(stsh, 2), 4096);
  const cbStdBase = u16(stsh, 4);
  const standardFtc = cbStshi >= 14 ? u16(stsh, 14) : undefined;
  let at = 2 + cbStshi;
  for (let istd = 0; istd < cstd && at + 2 <= stsh.length; istd++) {
    const cbStd = u16(stsh, at);
    const std = at + 2;
    at = std + cbStd;
    if (cbStd < 4 || at > stsh.length) continue;
    const entry: StyleEntry = { sti: u16(stsh, std) & 0x0fff, sgc: u16(stsh, std + 2) & 0x000f, istdBase: u16(stsh, std + 2) >> 4 };
    styles.set(istd, entry);
    // The name (length byte, characters, NUL), padded to a word; then the UPXs.
    let upx = std + cbStdBase;
    if (upx >= at) continue;
    upx += 1 + u8(stsh, upx) + 1;
    if ((upx - std) % 2 !== 0) upx++;
    if (entry.sgc === 1 && upx + 2 <= at) upx += 2 + u16(stsh, upx) + ((2 + u16(stsh, upx)) % 2);
    if (upx + 2 > at) continue;
    const cbUpx = u16(stsh, upx);
    const grpprl = stsh.subarray(upx + 2, Math.min(at, upx + 2 + cbUpx));
    for (const { sprm, at: operand } of word6Sprms(grpprl)) if (sprm === SPRM_C_FTC && operand + 2 <= grpprl.length) entry.ftc = grpprl.readUInt16LE(operand);
  }
  return { styles, standardFtc };
}

/** Heading level of each paragraph style: built-in Heading 1–9 (sti 1–9, capped at 6) and Title. */
function headingStyles(styles: Map<number, StyleEntry>): Map<number, number> {
  const levels = new Map<number, number>();
  for (const [istd, style] of styles) {
    if (style.sgc !== 1) continue;
    if (style.sti >= 1 && style.sti <= 9) levels.set(istd, Math.min(style.sti, 6));
    else if (style.sti === STI_TITLE) levels.set(istd, 1);
  }
  return levels;
}

/** The font of each paragraph style, own or inherited through istdBase, else the standard font. */
function styleFonts(styles: Map<number, StyleEntry>, standardFtc: number | undefined): Map<number, number> {
  const fonts = new Map<number, number>();
  for (const [istd] of styles) {
    let current = styles.get(istd);
    let ftc: number | undefined;
    for (let hops = 0; current && hops < 10 && ftc === undefined; hops++) {
      ftc = current.ftc;
      current = current.istdBase === ISTD_NIL ? undefined : styles.get(current.istdBase);
    }
    ftc ??= standardFtc;
    if (ftc !== undefined) fonts.set(istd, ftc);
  }
  return fonts;
}

/** A paragraph run's file range and the font its style gives its text. */
export interface StyleFontRun {
  fcStart: number;
  fcEnd: number;
  ftc: number;
}

/** Each paragraph run with its style's font, for decoding text whose runs name no font. */
export function readStyleFontRuns(stream: Buffer, fib: Word6Fib): StyleFontRun[] {
  const { styles, standardFtc } = readStyleSheet(stream, fib);
  const fonts = styleFonts(styles, standardFtc);
  const runs: StyleFontRun[] = [];
  for (const run of readParagraphRuns(stream, fib)) {
    const ftc = fonts.get(run.props.istd) ?? standardFtc;
    if (ftc !== undefined && run.fcEnd > run.fcStart) runs.push({ fcStart: run.fcStart, fcEnd: run.fcEnd, ftc });
  }
  return runs;
}

/** CPs of a PLC with `dataSize` bytes per entry (0: CPs only). */
function plcCps(stream: Buffer, pair: FcLcb, dataSize: number): number[] {
  const plc = slice(stream, pair);
  if (!plc || plc.length < 8) return [];
  const n = Math.floor((plc.length - 4) / (4 + dataSize));
  const cps: number[] = [];
  for (let i = 0; i <= n; i++) cps.push(u32(plc, i * 4));
  return cps;
}

export class Word6Properties implements StoryProperties {
  private readonly runs: ParagraphRun[];
  private readonly headingStyles: Map<number, number>;
  readonly notes: NotePositions;

  constructor(
    stream: Buffer,
    fib: Word6Fib,
    private readonly pieces: Piece[],
  ) {
    this.runs = readParagraphRuns(stream, fib);
    this.headingStyles = headingStyles(readStyleSheet(stream, fib).styles);
    this.notes = {
      footnoteRefs: plcCps(stream, fib.plcffndRef, 2).slice(0, -1),
      footnoteTexts: plcCps(stream, fib.plcffndTxt, 0),
      endnoteRefs: plcCps(stream, fib.plcfendRef, 2).slice(0, -1),
      endnoteTexts: plcCps(stream, fib.plcfendTxt, 0),
    };
  }

  paragraphAt(cp: number): ParagraphProps | undefined {
    const fc = filePositionOf(this.pieces, cp);
    return fc === undefined ? undefined : runAt(this.runs, fc)?.props;
  }

  /**
   * A Word 6 numbered or bulleted paragraph (nLvlAnm 10, set on the paragraph; its ANLD's nfc 23
   * is a bullet) as a one-level list item. Numbering set only by a paragraph's style is not read.
   */
  listItem(props: Word6ParagraphProps): { kind: 'ul' | 'ol'; level: number; list: number } | undefined {
    if (props.nLvlAnm !== NLVLANM_NUMBERING) return undefined;
    return { kind: props.nfc === NFC_BULLET ? 'ul' : 'ol', level: 0, list: 1 };
  }

  headingLevel(props: ParagraphProps): number | undefined {
    return this.headingStyles.get(props.istd);
  }
}
