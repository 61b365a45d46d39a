/**
 * The text of a Word 6/95 document, as the Word 97 path's RawDoc: every story's characters in
 * CP order, from the piece table (CLX at fcClx, pieces of 8-bit text) when the file has one,
 * else the bytes from fcMin. Each byte decodes in the code page of its run's font when that
 * font names a charset, else the document's (Macintosh when chse says so, else the FIB's
 * language, else the charset most of the document's fonts share). Deleted text is
 * blanked as in Word 97 files (hidden text is kept, as there).
 */
import { blankDeletions, type TextPiece } from './character.ts';
import type { RawDoc } from './ole-text.ts';
import { OutOfRange } from './properties.ts';
import { codePageOfCharset, codePageOfLid, decodePair, decodeSingleBytes, isDoubleByte, isLeadByte } from './word6-codepage.ts';
import { slice, totalCps, type Word6Fib } from './word6-fib.ts';
import { headerStoryKinds } from './word6-headers.ts';
import { readFontCharsets, readStyleFontRuns, readWord6CharacterRuns, type StyleFontRun, type Word6CharacterRun } from './word6-properties.ts';

export class Word6TextError extends Error {}

const MAX_PIECES = 1_000_000;
const F_COMPRESSED = 0x40000000;

interface PiecePlace {
  startCp: number;
  endCp: number;
  fc: number;
}

/** The pieces of the CLX (MS-DOC §2.9.38: Prc entries, then the PlcPcd), checked against the stream. */
function readPieceTable(stream: Buffer, fib: Word6Fib): PiecePlace[] {
  const clx = slice(stream, fib.clx);
  if (!clx) throw new Word6TextError('the piece table lies outside the WordDocument stream');
  let at = 0;
  while (at < clx.length && clx[at] === 1) {
    if (at + 3 > clx.length) throw new Word6TextError('the piece table is truncated');
    at += 3 + clx.readUInt16LE(at + 1);
  }
  if (at + 5 > clx.length || clx[at] !== 2) throw new Word6TextError('the piece table has no piece descriptors');
  const lcb = clx.readUInt32LE(at + 1);
  const plc = at + 5;
  if (plc + lcb > clx.length || lcb < 16 || (lcb - 4) % 12 !== 0) throw new Word6TextError('the piece descriptors are truncated');
  const count = (lcb - 4) / 12;
  if (count > MAX_PIECES) throw new Word6TextError('the piece table is implausibly large');
  const pieces: PiecePlace[] = [];
  let total = 0;
  for (let i = 0; i < count; i++) {
    const startCp = clx.readUInt32LE(plc + i * 4);
    const endCp = clx.readUInt32LE(plc + (i + 1) * 4);
    if (endCp < startCp || (i > 0 && startCp < (pieces[i - 1] as PiecePlace).endCp)) throw new Word6TextError('the piece table goes backwards');
    const raw = clx.readUInt32LE(plc + (count + 1) * 4 + i * 8 + 2);
    // Word 6/95 text is always 8-bit; a Word 97-style compressed fc is taken the same way.
    const fc = (raw & F_COMPRESSED) !== 0 ? Math.floor((raw & ~F_COMPRESSED) / 2) : raw;
    if (fc + (endCp - startCp) > stream.length) throw new Word6TextError('a piece of text lies outside the WordDocument stream');
    total += endCp - startCp;
    pieces.push({ startCp, endCp, fc });
  }
  if (total > stream.length * 2) throw new Word6TextError('the pieces overlap');
  return pieces;
}

/** The document's code page: Macintosh, the FIB's language, or the charset most fonts share. */
function documentCodePage(fib: Word6Fib, charsets: number[]): number {
  if (fib.chse === 256) return 10000;
  const byLanguage = codePageOfLid(fib.lid);
  if (byLanguage !== 1252) return byLanguage;
  const votes = new Map<number, number>();
  let ansi = 0;
  for (const chs of charsets) {
    if (chs === 2) continue; // symbol fonts say nothing about the text
    const codePage = codePageOfCharset(chs);
    if (codePage === undefined) ansi++;
    else votes.set(codePage, (votes.get(codePage) ?? 0) + 1);
  }
  let best = 1252;
  let bestVotes = ansi;
  for (const [codePage, count] of votes) {
    if (count > bestVotes) {
      best = codePage;
      bestVotes = count;
    }
  }
  return best;
}

/** Decodes bytes [from, to) of the stream in one code page, one character per byte (see word6-codepage.ts). */
function decode(stream: Buffer, from: number, to: number, codePage: number): string {
  if (!isDoubleByte(codePage)) {
    const text = decodeSingleBytes(codePage, stream.subarray(from, to));
    // A code page whose table is not one character per byte would shift every later CP.
    return text.length === to - from ? text : Array.from(stream.subarray(from, to), (byte) => (byte < 0x80 ? String.fromCharCode(byte) : '\ufffd')).join('');
  }
  let text = '';
  for (let i = from; i < to; i++) {
    const byte = stream[i] as number;
    if (isLeadByte(codePage, byte) && i + 1 < to) {
      text += `${decodePair(codePage, byte, stream[i + 1] as number)}\0`;
      i++;
    } else text += byte < 0x80 ? String.fromCharCode(byte) : '\ufffd';
  }
  return text;
}

interface CodePageRun {
  fcStart: number;
  fcEnd: number;
  codePage: number;
}

/** `top` over `base` (both sorted, non-overlapping): top's runs, and base's where top has none. */
function layer(base: CodePageRun[], top: CodePageRun[]): CodePageRun[] {
  const out: CodePageRun[] = [];
  let t = 0;
  for (const run of base) {
    let at = run.fcStart;
    while (t < top.length && (top[t] as CodePageRun).fcEnd <= at) t++;
    for (let k = t; k < top.length && (top[k] as CodePageRun).fcStart < run.fcEnd; k++) {
      const cover = top[k] as CodePageRun;
      if (cover.fcStart > at) out.push({ fcStart: at, fcEnd: cover.fcStart, codePage: run.codePage });
      at = Math.max(at, cover.fcEnd);
    }
    if (at < run.fcEnd) out.push({ fcStart: at, fcEnd: run.fcEnd, codePage: run.codePage });
  }
  return [...out, ...top].sort((a, b) => a.fcStart - b.fcStart);
}

/** A piece's text: the document's code page, switched where a run's font has a charset of its own. */
function pieceText(stream: Buffer, fcStart: number, fcEnd: number, fontRuns: CodePageRun[], codePage: number): string {
  let text = '';
  let at = fcStart;
  let lo = 0;
  let hi = fontRuns.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((fontRuns[mid] as { fcEnd: number }).fcEnd <= fcStart) lo = mid + 1;
    else hi = mid;
  }
  for (let i = lo; i < fontRuns.length && at < fcEnd; i++) {
    const run = fontRuns[i] as CodePageRun;
    if (run.fcStart >= fcEnd) break;
    const start = Math.max(at, run.fcStart);
    const end = Math.min(fcEnd, run.fcEnd);
    if (end <= start) continue;
    text += decode(stream, at, start, codePage) + decode(stream, start, end, run.codePage);
    at = end;
  }
  return text + decode(stream, at, fcEnd, codePage);
}

/**
 * Splits the header story by its PLC (plcfhdd) into headers and footers (word6-headers.ts);
 * when the sections do not account for the stories, all count as headers (both are furniture).
 */
function headerStories(stream: Buffer, fib: Word6Fib, text: string): { headers: string[]; footers: string[] } {
  const headers: string[] = [];
  const footers: string[] = [];
  const plc = slice(stream, fib.plcfhdd);
  if (!plc || plc.length < 8 || fib.ccpHdd === 0) return { headers, footers };
  const first = fib.ccpText + fib.ccpFtn;
  const limit = first + fib.ccpHdd;
  const stories: string[] = [];
  let start = first + plc.readUInt32LE(0);
  for (let i = 1; i < Math.floor(plc.length / 4); i++) {
    const end = Math.min(first + plc.readUInt32LE(i * 4), limit);
    stories.push(end > start ? text.slice(start, end) : '');
    start = Math.max(start, end);
  }
  // The PLC's last CP may close an empty final entry: try the count with and without it.
  const kinds = headerStoryKinds(stream, fib, stories.length) ?? headerStoryKinds(stream, fib, stories.length - 1);
  stories.forEach((story, i) => {
    const kind = kinds ? kinds[i] : 'header';
    if (story === '' || kind === 'separator') return;
    (kind === 'footer' ? footers : headers).push(story);
  });
  return { headers, footers };
}

export interface Word6Raw {
  raw: RawDoc;
  codePage: number;
}

/** Throws Word6TextError when the text cannot be located. */
export function extractWord6Raw(stream: Buffer, fib: Word6Fib): Word6Raw {
  const total = totalCps(fib);
  const contiguous = (): PiecePlace[] => {
    if (fib.fcMin + total > stream.length || fib.fcMin < 0x20) throw new Word6TextError('the text lies outside the WordDocument stream');
    return [{ startCp: 0, endCp: total, fc: fib.fcMin }];
  };
  let places: PiecePlace[];
  if (fib.clx.lcb === 0) places = contiguous();
  else {
    try {
      places = readPieceTable(stream, fib);
    } catch (err) {
      // A file that was not fast-saved has its text in one run from fcMin whatever its CLX says.
      if (!(err instanceof Word6TextError) || fib.complex) throw err;
      places = contiguous();
    }
  }

  let runs: Word6CharacterRun[] = [];
  let charsets: number[] = [];
  let styleRuns: StyleFontRun[] = [];
  let characterPropertiesDamaged = false;
  try {
    runs = readWord6CharacterRuns(stream, fib);
    charsets = readFontCharsets(stream, fib);
  } catch (err) {
    if (!(err instanceof OutOfRange || err instanceof RangeError)) throw err;
    characterPropertiesDamaged = true;
  }
  try {
    styleRuns = readStyleFontRuns(stream, fib);
  } catch (err) {
    if (!(err instanceof OutOfRange || err instanceof RangeError)) throw err;
  }
  const codePage = documentCodePage(fib, charsets);
  const lidCodePage = fib.chse === 256 ? 10000 : codePageOfLid(fib.lid);
  // A font's charset names its code page; an ANSI or default font's text is in the language's.
  const fontCodePage = (ftc: number): number | undefined => {
    const chs = charsets[ftc];
    return chs === undefined ? undefined : (codePageOfCharset(chs) ?? lidCodePage);
  };
  const fontRuns = (list: { fcStart: number; fcEnd: number; ftc?: number }[]): CodePageRun[] =>
    list.flatMap((run) => {
      const runCodePage = run.ftc === undefined ? undefined : fontCodePage(run.ftc);
      return runCodePage === undefined ? [] : [{ fcStart: run.fcStart, fcEnd: run.fcEnd, codePage: runCodePage }];
    });
  // A run's own font first, then its paragraph style's (or the standard) font, then the document's code page.
  const codePageRuns = layer(fontRuns(styleRuns), fontRuns(runs)).filter((run) => run.codePage !== codePage);

  const pieces: TextPiece[] = places.map((place) => ({
    startCp: place.startCp,
    endCp: place.endCp,
    startFilePos: place.fc,
    bpc: 1,
    text: pieceText(stream, place.fc, place.fc + (place.endCp - place.startCp), codePageRuns, codePage),
  }));
  blankDeletions(pieces, runs);
  const text = pieces.map((piece) => piece.text).join('');
  return {
    codePage,
    raw: {
      text,
      pieces: pieces.map(({ startCp, endCp, startFilePos, bpc }) => ({ startCp, endCp, startFilePos, bpc })),
      ccpText: fib.ccpText,
      ccpFtn: fib.ccpFtn,
      // Macro text (Word 6 templates) lies between the headers and the comments: counted with the
      // headers so that the later stories' offsets hold.
      ccpHdd: fib.ccpHdd + fib.ccpMcr,
      ccpAtn: fib.ccpAtn,
      ccpEdn: fib.ccpEdn,
      ccpTxbx: fib.ccpTxbx,
      ...headerStories(stream, fib, text),
      wordDocument: stream,
      table: stream,
      formatRuns: runs.filter((run) => run.bold || run.italic),
      characterPropertiesDamaged,
    },
  };
}
