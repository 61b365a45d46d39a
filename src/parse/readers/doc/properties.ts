/**
 * What folio reads from a .doc's FIB and table stream beyond word-extractor (MS-DOC §2.5, §2.9):
 * paragraph properties from the PAPX FKPs (style index, in-table and table-row-end flags,
 * outline level), the style sheet's built-in style ids and names (headings), and the CPs of the
 * footnote and endnote references and texts. Every read is bounds-checked: a damaged structure
 * yields fewer properties (the text still reads), never an exception beyond OutOfRange.
 */
import type { Piece } from './ole-text.ts';
import { filePositionOf, runAt } from './piece-table.ts';

export interface ParagraphProps {
  /** Index of the paragraph's style in the style sheet. */
  istd: number;
  inTable: boolean;
  /** The paragraph is a table row's end mark. */
  rowEnd: boolean;
  /** Direct outline level (sprmPOutLvl): 0–8 a heading level, 9 body text. */
  outlineLevel?: number;
  /** List membership (sprmPIlfo, 1-based into the LFO table; 0 none) and level (sprmPIlvl). */
  ilfo?: number;
  ilvl?: number;
}

export class OutOfRange extends Error {}

/** Little-endian reads that throw OutOfRange past the buffer (shared with the Word 6/95 reader). */
export function u8(buf: Buffer, at: number): number {
  if (at < 0 || at + 1 > buf.length) throw new OutOfRange('u8');
  return buf[at] as number;
}
export function u16(buf: Buffer, at: number): number {
  if (at < 0 || at + 2 > buf.length) throw new OutOfRange('u16');
  return buf.readUInt16LE(at);
}
export function u32(buf: Buffer, at: number): number {
  if (at < 0 || at + 4 > buf.length) throw new OutOfRange('u32');
  return buf.readUInt32LE(at);
}

/** A table-stream structure named by an fc/lcb pair of the FIB. */
function fibSlice(fib: Buffer, table: Buffer, fcAt: number): Buffer | undefined {
  const fc = u32(fib, fcAt);
  const lcb = u32(fib, fcAt + 4);
  if (lcb === 0 || fc + lcb > table.length) return undefined;
  return table.subarray(fc, fc + lcb);
}

const FIB_STSHF = 0x00a2;
const FIB_PLCFFNDREF = 0x00aa;
const FIB_PLCFFNDTXT = 0x00b2;
const FIB_PLCFBTEPAPX = 0x0102;
const FIB_PLCFENDREF = 0x020a;
const FIB_PLCFENDTXT = 0x0212;

const SPRM_P_FINTABLE = 0x2416;
const SPRM_P_FTTP = 0x2417;
const SPRM_P_OUTLVL = 0x2640;
const SPRM_P_ITAP = 0x6649;
const SPRM_T_DEFTABLE = 0xd608;
const SPRM_P_ILVL = 0x260a;
const SPRM_P_ILFO = 0x460b;
const FIB_PLFLST = 0x02e2;
const FIB_PLFLFO = 0x02ea;
const NFC_BULLET = 0x17;
const NFC_NONE = 0xff;

/** Operand size of a sprm (MS-DOC §2.6.1 Sprm.spra), or undefined when it cannot be known. */
function operandSize(sprm: number, buf: Buffer, at: number): number | undefined {
  switch ((sprm >> 13) & 7) {
    case 0:
    case 1:
      return 1;
    case 2:
    case 4:
    case 5:
      return 2;
    case 3:
      return 4;
    case 7:
      return 3;
    default:
      if (sprm === SPRM_T_DEFTABLE) return 2 + Math.max(0, u16(buf, at) - 1);
      if (at >= buf.length) return undefined;
      return 1 + u8(buf, at);
  }
}

function readGrpprl(grpprl: Buffer, istd: number): ParagraphProps {
  const props: ParagraphProps = { istd, inTable: false, rowEnd: false };
  let at = 0;
  while (at + 2 <= grpprl.length) {
    const sprm = u16(grpprl, at);
    at += 2;
    const size = operandSize(sprm, grpprl, at);
    if (size === undefined || at + size > grpprl.length) break;
    if (sprm === SPRM_P_FINTABLE) props.inTable = u8(grpprl, at) !== 0;
    else if (sprm === SPRM_P_FTTP) props.rowEnd = u8(grpprl, at) !== 0;
    else if (sprm === SPRM_P_ITAP) props.inTable = props.inTable || u32(grpprl, at) > 0;
    else if (sprm === SPRM_P_OUTLVL) props.outlineLevel = u8(grpprl, at);
    else if (sprm === SPRM_P_ILVL) props.ilvl = Math.min(u8(grpprl, at), 8);
    else if (sprm === SPRM_P_ILFO) props.ilfo = u16(grpprl, at);
    at += size;
  }
  return props;
}

interface Run {
  fcStart: number;
  fcEnd: number;
  props: ParagraphProps;
}

/** Paragraph properties by file position (MS-DOC §2.9.178 PlcBtePapx, §2.9.175 PapxFkp). */
function readPapxRuns(fib: Buffer, table: Buffer): Run[] {
  const plc = fibSlice(fib, table, FIB_PLCFBTEPAPX);
  if (!plc) return [];
  const count = Math.floor((plc.length - 4) / 8);
  const runs: Run[] = [];
  for (let i = 0; i < count; i++) {
    const pn = u32(plc, (count + 1) * 4 + i * 4) & 0x3fffff;
    const page = pn * 512;
    if (page + 512 > fib.length) continue;
    const fkp = fib.subarray(page, page + 512);
    const crun = u8(fkp, 511);
    for (let j = 0; j < crun; j++) {
      const fcStart = u32(fkp, j * 4);
      const fcEnd = u32(fkp, (j + 1) * 4);
      const bOffset = u8(fkp, (crun + 1) * 4 + j * 13) * 2;
      let props: ParagraphProps = { istd: 0, inTable: false, rowEnd: false };
      if (bOffset > 0) {
        const cb = u8(fkp, bOffset);
        const start = cb !== 0 ? bOffset + 1 : bOffset + 2;
        const length = cb !== 0 ? 2 * cb - 1 : 2 * u8(fkp, bOffset + 1);
        const papx = fkp.subarray(start, Math.min(fkp.length, start + length));
        if (papx.length >= 2) props = readGrpprl(papx.subarray(2), u16(papx, 0));
      }
      runs.push({ fcStart, fcEnd, props });
    }
  }
  return runs.sort((a, b) => a.fcStart - b.fcStart);
}

interface StyleFacts {
  sti: number;
  istdBase: number;
  /** sprmPOutLvl in the style's paragraph properties, when present. */
  outlineLevel?: number;
  /** The style's list (sprmPIlfo / sprmPIlvl), when it numbers its paragraphs. */
  ilfo?: number;
  ilvl?: number;
}

const STI_TITLE = 62;
const STI_NIL = 0x0fff;

/** The paragraph properties a paragraph style's UPX (MS-DOC §2.9.317 UpxPapx) sets. */
function styleParagraphProps(stsh: Buffer, upxAt: number, end: number): ParagraphProps | undefined {
  if (upxAt + 2 > end) return undefined;
  const cbUpx = u16(stsh, upxAt);
  const grpprlStart = upxAt + 4;
  const grpprlEnd = Math.min(end, upxAt + 2 + cbUpx);
  if (grpprlStart > grpprlEnd) return undefined;
  return readGrpprl(stsh.subarray(grpprlStart, grpprlEnd), 0);
}

/**
 * Heading level (1–6) of each paragraph style (MS-DOC §2.9.271 STSH): a built-in heading
 * (sti 1–9), the built-in Title (sti 62, as level 1), or a style whose paragraph properties
 * (own or inherited through istdBase) set an outline level — how localized and LibreOffice
 * heading styles mark themselves.
 */
function readStyles(fib: Buffer, table: Buffer): { levels: Map<number, number>; styles: Map<number, StyleFacts> } {
  const levels = new Map<number, number>();
  const styles = new Map<number, StyleFacts>();
  const stsh = fibSlice(fib, table, FIB_STSHF);
  if (!stsh) return { levels, styles };
  const cbStshi = u16(stsh, 0);
  const cstd = Math.min(u16(stsh, 2), 4096);
  const cbStdBase = u16(stsh, 4);
  let at = 2 + cbStshi;
  for (let istd = 0; istd < cstd && at + 2 <= stsh.length; istd++) {
    const cbStd = u16(stsh, at);
    const std = at + 2;
    at = std + cbStd;
    if (cbStd < 6 || at > stsh.length) continue;
    const sti = u16(stsh, std) & 0x0fff;
    const stk = u16(stsh, std + 2) & 0x000f;
    const istdBase = u16(stsh, std + 2) >> 4;
    const facts: StyleFacts = { sti, istdBase };
    const nameAt = std + cbStdBase;
    if (stk === 1 && nameAt + 2 <= at) {
      const upxAt = nameAt + 2 + u16(stsh, nameAt) * 2 + 2;
      const props = styleParagraphProps(stsh, upxAt + (upxAt % 2), at);
      if (props?.outlineLevel !== undefined) facts.outlineLevel = props.outlineLevel;
      if (props?.ilfo !== undefined) facts.ilfo = props.ilfo;
      if (props?.ilvl !== undefined) facts.ilvl = props.ilvl;
    }
    if (stk === 1) styles.set(istd, facts);
  }
  for (const [istd, facts] of styles) {
    if (facts.sti >= 1 && facts.sti <= 9) levels.set(istd, Math.min(facts.sti, 6));
    else if (facts.sti === STI_TITLE) levels.set(istd, 1);
    else {
      let current: StyleFacts | undefined = facts;
      for (let hops = 0; current && hops < 10; hops++) {
        if (current.outlineLevel !== undefined) {
          if (current.outlineLevel < 9) levels.set(istd, Math.min(current.outlineLevel + 1, 6));
          break;
        }
        current = current.istdBase === STI_NIL ? undefined : styles.get(current.istdBase);
      }
    }
  }
  return { levels, styles };
}

/**
 * Whether each list (by LFO index, 1-based) level is a bullet list: PlfLfo (MS-DOC §2.9.199)
 * names the list by lsid, PlfLst (§2.9.200) holds the list's LVLs (§2.9.150), whose nfc says
 * bullet (0x17) or a number format. Keys are `ilfo * 16 + ilvl`.
 */
function readListKinds(fib: Buffer, table: Buffer): Map<number, 'ul' | 'ol'> {
  const kinds = new Map<number, 'ul' | 'ol'>();
  const lstf = fibSlice(fib, table, FIB_PLFLST);
  const lfo = fibSlice(fib, table, FIB_PLFLFO);
  if (!lstf || !lfo) return kinds;
  // The lists' LVLs follow the PlfLst in the table stream, outside its lcb.
  const lst = table.subarray(u32(fib, FIB_PLFLST));
  const cLst = Math.min(u16(lst, 0), 1024);
  const levelsByLsid = new Map<number, ('ul' | 'ol')[]>();
  let at = 2 + cLst * 28;
  for (let i = 0; i < cLst; i++) {
    const entry = 2 + i * 28;
    const lsid = u32(lst, entry);
    const simple = (u8(lst, entry + 26) & 0x01) !== 0;
    const levels: ('ul' | 'ol')[] = [];
    for (let level = 0; level < (simple ? 1 : 9); level++) {
      const nfc = u8(lst, at + 4);
      const cbChpx = u8(lst, at + 24);
      const cbPapx = u8(lst, at + 25);
      at += 28 + cbPapx + cbChpx;
      const cch = u16(lst, at);
      at += 2 + cch * 2;
      levels.push(nfc === NFC_BULLET || nfc === NFC_NONE ? 'ul' : 'ol');
    }
    levelsByLsid.set(lsid, levels);
  }
  const lfoMac = Math.min(u32(lfo, 0), 4096);
  for (let i = 0; i < lfoMac; i++) {
    const levels = levelsByLsid.get(u32(lfo, 4 + i * 16));
    if (!levels) continue;
    for (let level = 0; level < 9; level++) kinds.set((i + 1) * 16 + level, levels[Math.min(level, levels.length - 1)] ?? 'ul');
  }
  return kinds;
}

/** CPs of a PLC without data (n+1 CPs), or of one with `dataSize` bytes per entry. */
function plcCps(plc: Buffer | undefined, dataSize: number): number[] {
  if (!plc) return [];
  const n = dataSize === 0 ? Math.floor(plc.length / 4) - 1 : Math.floor((plc.length - 4) / (4 + dataSize));
  const cps: number[] = [];
  for (let i = 0; i <= n; i++) cps.push(u32(plc, i * 4));
  return cps;
}

export interface NotePositions {
  /** CPs (in the main text) of footnote references, in order; CP ranges (in the footnote story) of their texts. */
  footnoteRefs: number[];
  footnoteTexts: number[];
  endnoteRefs: number[];
  endnoteTexts: number[];
}

/** What the story reader asks of a document's properties (Word 97: DocProperties; Word 6/95: word6-properties.ts). */
export interface StoryProperties {
  readonly notes: NotePositions;
  /** Properties of the paragraph whose mark is at `cp`. */
  paragraphAt(cp: number): ParagraphProps | undefined;
  /** The list a paragraph belongs to, with its kind and level. */
  listItem(props: ParagraphProps): { kind: 'ul' | 'ol'; level: number; list: number } | undefined;
  /** Heading level 1–6 of a paragraph. */
  headingLevel(props: ParagraphProps): number | undefined;
}

export class DocProperties implements StoryProperties {
  private readonly runs: Run[];
  private readonly headingStyles: Map<number, number>;
  private readonly styles: Map<number, StyleFacts>;
  private readonly listKinds: Map<number, 'ul' | 'ol'>;
  readonly notes: NotePositions;

  constructor(
    fib: Buffer,
    table: Buffer,
    private readonly pieces: Piece[],
  ) {
    this.runs = readPapxRuns(fib, table);
    const { levels, styles } = readStyles(fib, table);
    this.headingStyles = levels;
    this.styles = styles;
    let listKinds = new Map<number, 'ul' | 'ol'>();
    try {
      listKinds = readListKinds(fib, table);
    } catch (err) {
      if (!(err instanceof OutOfRange)) throw err;
    }
    this.listKinds = listKinds;
    const refs = (at: number) => plcCps(fibSlice(fib, table, at), 2).slice(0, -1);
    const texts = (at: number) => plcCps(fibSlice(fib, table, at), 0);
    this.notes = {
      footnoteRefs: refs(FIB_PLCFFNDREF),
      footnoteTexts: texts(FIB_PLCFFNDTXT),
      endnoteRefs: refs(FIB_PLCFENDREF),
      endnoteTexts: texts(FIB_PLCFENDTXT),
    };
  }

  /** Properties of the paragraph whose mark is at `cp`. */
  paragraphAt(cp: number): ParagraphProps | undefined {
    const fc = filePositionOf(this.pieces, cp);
    return fc === undefined ? undefined : runAt(this.runs, fc)?.props;
  }

  /** The list a paragraph belongs to (direct or from its style), with its kind and level. */
  listItem(props: ParagraphProps): { kind: 'ul' | 'ol'; level: number; list: number } | undefined {
    let ilfo = props.ilfo;
    let ilvl = props.ilvl;
    let style = this.styles.get(props.istd);
    for (let hops = 0; style && hops < 10 && (ilfo === undefined || ilvl === undefined); hops++) {
      ilfo ??= style.ilfo;
      ilvl ??= style.ilvl;
      style = style.istdBase === STI_NIL ? undefined : this.styles.get(style.istdBase);
    }
    if (!ilfo || ilfo >= 0xf801) return undefined;
    const level = ilvl ?? 0;
    const kind = this.listKinds.get(ilfo * 16 + level);
    return kind ? { kind, level, list: ilfo } : undefined;
  }

  /** Heading level 1–6 of a paragraph, from its style or its direct outline level. */
  headingLevel(props: ParagraphProps): number | undefined {
    // Direct formatting wins over the style: level 9 ("body text") makes a heading style's paragraph plain.
    if (props.outlineLevel !== undefined) return props.outlineLevel < 9 ? Math.min(props.outlineLevel + 1, 6) : undefined;
    return this.headingStyles.get(props.istd);
  }
}
