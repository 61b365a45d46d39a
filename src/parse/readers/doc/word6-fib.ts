/**
 * The file information block of Word 6.0 and Word 95 (nFib 101–105, wIdent 0xA5DC): the
 * layout Word 97 replaced ([MS-DOC] §2.5.1 keeps only FibBase). Unlike Word 97 there is no
 * table stream: every fc below is an offset into the WordDocument stream itself, text is 8-bit
 * in the code page of its language or font, and bin tables hold 2-byte page numbers.
 */

export const WORD6_IDENT = 0xa5dc;
export const WORD97_IDENT = 0xa5ec;
/** Word 97's nFib; anything below it in a FIB that otherwise looks right is the older layout. */
export const NFIB_WORD97 = 193;
/** Word for Windows 2.0's nFib (not an OLE file: a bare stream starting DB A5). */
export const NFIB_WORD2 = 45;

const F_COMPLEX = 0x0004;
const F_ENCRYPTED = 0x0100;

/** An fc/lcb pair: a structure's offset and byte count in the WordDocument stream. */
export interface FcLcb {
  fc: number;
  lcb: number;
}

export interface Word6Fib {
  nFib: number;
  lid: number;
  complex: boolean;
  encrypted: boolean;
  /** 0 Windows ANSI, 256 Macintosh character set. */
  chse: number;
  fcMin: number;
  fcMac: number;
  ccpText: number;
  ccpFtn: number;
  ccpHdd: number;
  ccpMcr: number;
  ccpAtn: number;
  ccpEdn: number;
  ccpTxbx: number;
  ccpHdrTxbx: number;
  stshf: FcLcb;
  plcffndRef: FcLcb;
  plcffndTxt: FcLcb;
  plcfsed: FcLcb;
  plcfhdd: FcLcb;
  plcfbteChpx: FcLcb;
  plcfbtePapx: FcLcb;
  sttbfffn: FcLcb;
  dop: FcLcb;
  clx: FcLcb;
  /** Counts of CHPX and PAPX FKPs: a non-complex file's bin tables may list fewer (the rest follow). */
  cpnBteChp: number;
  cpnBtePap: number;
  plcfendRef: FcLcb;
  plcfendTxt: FcLcb;
}

/** Bytes the FIB needs, through lcbPlcfendTxt. */
export const WORD6_FIB_SIZE = 0x1e2;

/** Whether a WordDocument stream starts with the Word 6/95 FIB (checked before Word 97's). */
export function isWord6Fib(wordDocument: Buffer): boolean {
  if (wordDocument.length < 4) return false;
  const ident = wordDocument.readUInt16LE(0);
  const nFib = wordDocument.readUInt16LE(2);
  // Word 95 writes 0xA5DC; some converters write Word 97's ident with an old nFib.
  return (ident === WORD6_IDENT || ident === WORD97_IDENT) && nFib > NFIB_WORD2 && nFib < NFIB_WORD97;
}

/** The FIB's fields; undefined when the stream is too short to hold one. */
export function readWord6Fib(b: Buffer): Word6Fib | undefined {
  if (b.length < WORD6_FIB_SIZE) return undefined;
  const u16 = (at: number): number => b.readUInt16LE(at);
  const u32 = (at: number): number => b.readUInt32LE(at);
  const pair = (at: number): FcLcb => ({ fc: u32(at), lcb: u32(at + 4) });
  const flags = u16(0x0a);
  return {
    nFib: u16(0x02),
    lid: u16(0x06),
    complex: (flags & F_COMPLEX) !== 0,
    encrypted: (flags & F_ENCRYPTED) !== 0,
    chse: u16(0x14),
    fcMin: u32(0x18),
    fcMac: u32(0x1c),
    ccpText: u32(0x34),
    ccpFtn: u32(0x38),
    ccpHdd: u32(0x3c),
    ccpMcr: u32(0x40),
    ccpAtn: u32(0x44),
    ccpEdn: u32(0x48),
    ccpTxbx: u32(0x4c),
    ccpHdrTxbx: u32(0x50),
    stshf: pair(0x60),
    plcffndRef: pair(0x68),
    plcffndTxt: pair(0x70),
    plcfsed: pair(0x88),
    plcfhdd: pair(0xb0),
    plcfbteChpx: pair(0xb8),
    plcfbtePapx: pair(0xc0),
    sttbfffn: pair(0xd0),
    dop: pair(0x150),
    clx: pair(0x160),
    cpnBteChp: u16(0x18e),
    cpnBtePap: u16(0x190),
    plcfendRef: pair(0x1d2),
    plcfendTxt: pair(0x1da),
  };
}

/** Total CPs of all stories; a document with any story after the main text ends with one extra CR. */
export function totalCps(fib: Word6Fib): number {
  const rest = fib.ccpFtn + fib.ccpHdd + fib.ccpMcr + fib.ccpAtn + fib.ccpEdn + fib.ccpTxbx + fib.ccpHdrTxbx;
  return fib.ccpText + rest + (rest > 0 ? 1 : 0);
}

/** The slice an fc/lcb pair names, or undefined when it is empty or outside the stream. */
export function slice(b: Buffer, pair: FcLcb): Buffer | undefined {
  if (pair.lcb === 0 || pair.fc + pair.lcb > b.length) return undefined;
  return b.subarray(pair.fc, pair.fc + pair.lcb);
}
