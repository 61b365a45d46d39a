/**
 * Character properties of a .doc (MS-DOC §2.9.29 ChpxFkp, via PlcBteChpx): tracked deletions
 * (sprmCFRMarkDel), bold (sprmCFBold) and italic (sprmCFItalic) by file position. Hidden text
 * (sprmCFVanish) is kept, as the DOCX reader, pandoc and LibreOffice keep it. Deleted text is
 * blanked in the piece text in one pass per piece (word-extractor's own pass rewrote a piece's
 * whole string per deleted run: quadratic on long documents); bold and italic become change
 * points in CP order for story.ts.
 */
import { OutOfRange } from './properties.ts';

export interface CharacterRun {
  fcStart: number;
  fcEnd: number;
  deleted: boolean;
  bold: boolean;
  italic: boolean;
}

export interface PiecePosition {
  startCp: number;
  endCp: number;
  startFilePos: number;
  bpc: number;
}

export interface TextPiece extends PiecePosition {
  text: string;
}

/** A formatting change at a CP: from there on, text is (or is not) bold and italic. */
export interface FormatChange {
  cp: number;
  bold: boolean;
  italic: boolean;
}

const FIB_PLCFBTECHPX = 0x00fa;
const SPRM_C_FRMARKDEL = 0x0800;
const SPRM_C_FBOLD = 0x0835;
const SPRM_C_FITALIC = 0x0836;

function check(buf: Buffer, at: number, size: number): void {
  if (at < 0 || at + size > buf.length) throw new OutOfRange('chpx');
}

/** On for 1 (on) and 0x81 (the opposite of the style's value, taken as on: styles are rarely bold). */
function toggle(operand: number): boolean {
  return operand === 1 || operand === 0x81;
}

function readGrpprl(grpprl: Buffer, run: CharacterRun): void {
  let at = 0;
  while (at + 2 <= grpprl.length) {
    const sprm = grpprl.readUInt16LE(at);
    at += 2;
    const spra = (sprm >> 13) & 7;
    const size = spra === 0 || spra === 1 ? 1 : spra === 2 || spra === 4 || spra === 5 ? 2 : spra === 3 ? 4 : spra === 7 ? 3 : at < grpprl.length ? 1 + (grpprl[at] as number) : 0;
    if (size === 0 || at + size > grpprl.length) return;
    const operand = grpprl[at] as number;
    if (sprm === SPRM_C_FRMARKDEL) run.deleted ||= (operand & 1) === 1;
    else if (sprm === SPRM_C_FBOLD) run.bold = toggle(operand);
    else if (sprm === SPRM_C_FITALIC) run.italic = toggle(operand);
    at += size;
  }
}

export function readCharacterRuns(fib: Buffer, table: Buffer): CharacterRun[] {
  check(fib, FIB_PLCFBTECHPX, 8);
  const fc = fib.readUInt32LE(FIB_PLCFBTECHPX);
  const lcb = fib.readUInt32LE(FIB_PLCFBTECHPX + 4);
  if (lcb < 12 || fc + lcb > table.length) return [];
  const plc = table.subarray(fc, fc + lcb);
  const count = Math.floor((plc.length - 4) / 8);
  const runs: CharacterRun[] = [];
  for (let i = 0; i < count; i++) {
    const pn = plc.readUInt32LE((count + 1) * 4 + i * 4) & 0x3fffff;
    if ((pn + 1) * 512 > fib.length) continue;
    const fkp = fib.subarray(pn * 512, (pn + 1) * 512);
    const crun = fkp[511] as number;
    if ((crun + 1) * 4 + crun > 511) continue;
    for (let j = 0; j < crun; j++) {
      const run: CharacterRun = { fcStart: fkp.readUInt32LE(j * 4), fcEnd: fkp.readUInt32LE((j + 1) * 4), deleted: false, bold: false, italic: false };
      const offset = (fkp[(crun + 1) * 4 + j] as number) * 2;
      if (offset > 0 && offset < 511) {
        const cb = fkp[offset] as number;
        readGrpprl(fkp.subarray(offset + 1, Math.min(511, offset + 1 + cb)), run);
      }
      if (run.fcEnd > run.fcStart && (run.deleted || run.bold || run.italic)) runs.push(run);
    }
  }
  return runs.sort((a, b) => a.fcStart - b.fcStart);
}

/** The runs overlapping [fcStart, fcEnd), from a list sorted by fcStart. */
function* overlapping(runs: CharacterRun[], fcStart: number, fcEnd: number): Generator<CharacterRun> {
  let lo = 0;
  let hi = runs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((runs[mid] as CharacterRun).fcStart < fcStart) lo = mid + 1;
    else hi = mid;
  }
  // A run starting before fcStart may still reach into the range.
  if (lo > 0 && (runs[lo - 1] as CharacterRun).fcEnd > fcStart) lo--;
  for (let i = lo; i < runs.length; i++) {
    const run = runs[i] as CharacterRun;
    if (run.fcStart >= fcEnd) return;
    if (run.fcEnd > fcStart) yield run;
  }
}

function pieceFcEnd(piece: PiecePosition): number {
  return piece.startFilePos + (piece.endCp - piece.startCp) * piece.bpc;
}

/** Blanks deleted text (to NUL, which story.ts skips), keeping every piece's length. */
export function blankDeletions(pieces: TextPiece[], runs: CharacterRun[]): void {
  const deleted = runs.filter((run) => run.deleted);
  if (deleted.length === 0) return;
  for (const piece of pieces) {
    const fcEnd = pieceFcEnd(piece);
    const cuts: [number, number][] = [];
    for (const run of overlapping(deleted, piece.startFilePos, fcEnd)) {
      const from = Math.floor((Math.max(run.fcStart, piece.startFilePos) - piece.startFilePos) / piece.bpc);
      const to = Math.ceil((Math.min(run.fcEnd, fcEnd) - piece.startFilePos) / piece.bpc);
      if (to > from) cuts.push([from, Math.min(to, piece.text.length)]);
    }
    if (cuts.length === 0) continue;
    const parts: string[] = [];
    let at = 0;
    for (const [from, to] of cuts) {
      const start = Math.max(from, at);
      if (to <= start) continue;
      parts.push(piece.text.slice(at, start));
      parts.push('\0'.repeat(to - start));
      at = to;
    }
    parts.push(piece.text.slice(at));
    piece.text = parts.join('');
  }
}

/** Bold/italic change points for CPs [cpStart, cpEnd), in CP order, from the bold or italic runs. */
export function formatChanges(pieces: readonly PiecePosition[], runs: CharacterRun[], cpStart: number, cpEnd: number): FormatChange[] {
  const changes: FormatChange[] = [];
  const formatted = runs;
  if (formatted.length === 0) return changes;
  // Pieces are in CP order: start at the first one reaching cpStart.
  let lo = 0;
  let hi = pieces.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((pieces[mid] as PiecePosition).endCp <= cpStart) lo = mid + 1;
    else hi = mid;
  }
  for (let p = lo; p < pieces.length; p++) {
    const piece = pieces[p] as PiecePosition;
    if (piece.startCp >= cpEnd) break;
    if (piece.endCp <= cpStart) continue;
    for (const run of overlapping(formatted, piece.startFilePos, pieceFcEnd(piece))) {
      const start = Math.max(piece.startCp, piece.startCp + Math.floor((run.fcStart - piece.startFilePos) / piece.bpc));
      const end = Math.min(piece.endCp, piece.startCp + Math.ceil((run.fcEnd - piece.startFilePos) / piece.bpc));
      changes.push({ cp: start, bold: run.bold, italic: run.italic }, { cp: end, bold: false, italic: false });
    }
  }
  return changes.sort((a, b) => a.cp - b.cp || (a.bold || a.italic ? 1 : -1));
}
