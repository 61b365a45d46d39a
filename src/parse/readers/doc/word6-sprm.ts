/**
 * Word 6/95 property modifiers: a one-byte sprm code, then an operand whose size the code
 * fixes or, for the variable ones, a length byte gives (sprmTDefTable, 190, a length word).
 * Sizes from the Word 6 binary file format's sprm table.
 */

const FIXED = new Map<number, number>();
function fixed(size: number, ...codes: (number | [number, number])[]): void {
  for (const code of codes) {
    if (Array.isArray(code)) for (let c = code[0]; c <= code[1]; c++) FIXED.set(c, size);
    else FIXED.set(code, size);
  }
}
fixed(0, 0, 52, 83, 163);
fixed(1, [4, 11], 13, 14, 24, 25, 29, 37, 44, 50, 51, 65, 66, 67, 71, 75, [85, 92], 94, 98, 100, 102, 104, 117, 118, 119, 131, 132, 138, 139, 142, 143, 146, 147, [150, 153], 158, 159, 162, 185, 186);
fixed(2, 2, [16, 19], [21, 22], [26, 28], [30, 36], [38, 43], [45, 49], 69, 72, 80, 93, 96, 97, 99, 101, 107, [109, 112], [121, 124], 140, 141, 144, 145, 148, 149, [154, 157], 160, 161, [164, 171], [182, 184], 189, 195, 197, 198);
fixed(3, 73, 95, 136, 137);
fixed(4, 20, 70, 192, 194, 196, 200);
fixed(5, 193, 199);
fixed(12, 187);

const SPRM_T_DEFTABLE = 190;

export interface Prl {
  sprm: number;
  /** Offset of the operand in the grpprl. */
  at: number;
  size: number;
}

/** The sprms of a grpprl in order; stops at the first one whose operand would run past the end. */
export function* word6Sprms(grpprl: Buffer): Generator<Prl> {
  let at = 0;
  while (at < grpprl.length) {
    const sprm = grpprl[at] as number;
    at += 1;
    let size = FIXED.get(sprm);
    if (size === undefined) {
      if (sprm === SPRM_T_DEFTABLE) {
        if (at + 2 > grpprl.length) return;
        // The length word counts itself plus one, as Word 97's TDefTableOperand.cb does.
        size = 2 + Math.max(0, grpprl.readUInt16LE(at) - 1);
      } else {
        if (at >= grpprl.length) return;
        size = 1 + (grpprl[at] as number);
      }
    }
    if (at + size > grpprl.length) return;
    yield { sprm, at, size };
    at += size;
  }
}

export const SPRM_P_ANLD = 12;
export const SPRM_P_NLVLANM = 13;
export const SPRM_P_FINTABLE = 24;
export const SPRM_P_TTP = 25;
export const SPRM_C_FRMARKDEL = 65;
export const SPRM_C_FBOLD = 85;
export const SPRM_C_FITALIC = 86;
export const SPRM_C_FTC = 93;
