/**
 * Which Word 6/95 header-story entries are headers and which footers. Unlike Word 97, whose
 * header PLC always holds six note separators and six stories per section, Word 6 stores only
 * the stories that exist: first one per bit set in the DOP's grpfIhdt (note separators), then,
 * section by section (PLC of SEDs, each naming its SEPX), one per bit set in the section's
 * grpfIhdt (sprmSGprfIhdt), in bit order: even header, odd header, even footer, odd footer,
 * first-page header, first-page footer.
 */
import { OutOfRange } from './properties.ts';
import { slice, type Word6Fib } from './word6-fib.ts';
import { word6Sprms } from './word6-sprm.ts';

const SPRM_S_GPRFIHDT = 153;
const FOOTER_BITS = 0x04 | 0x08 | 0x20;
const NO_SEPX = 0xffffffff;

function popcount6(bits: number): number {
  let count = 0;
  for (let bit = 0x01; bit <= 0x20; bit <<= 1) if (bits & bit) count++;
  return count;
}

/** The section's grpfIhdt from its SEPX (cb, grpprl), 0 when it sets none. */
function sectionBits(stream: Buffer, fcSepx: number): number {
  if (fcSepx === NO_SEPX || fcSepx + 2 > stream.length) return 0;
  const cb = stream.readUInt16LE(fcSepx);
  const grpprl = stream.subarray(fcSepx + 2, Math.min(stream.length, fcSepx + 2 + cb));
  let bits = 0;
  for (const { sprm, at } of word6Sprms(grpprl)) if (sprm === SPRM_S_GPRFIHDT) bits = grpprl[at] as number;
  return bits;
}

/**
 * 'header' or 'footer' for each story of the header PLC, or undefined when the DOP and the
 * sections do not account for exactly that many stories (the caller then keeps them all as headers).
 */
export function headerStoryKinds(stream: Buffer, fib: Word6Fib, storyCount: number): ('header' | 'footer' | 'separator')[] | undefined {
  try {
    const dop = slice(stream, fib.dop);
    const kinds: ('header' | 'footer' | 'separator')[] = [];
    const separators = dop && dop.length >= 2 ? popcount6(dop[1] as number) : 0;
    for (let i = 0; i < separators; i++) kinds.push('separator');
    const sed = slice(stream, fib.plcfsed);
    const sections = sed ? Math.floor((sed.length - 4) / 16) : 0;
    for (let s = 0; s < sections && kinds.length <= storyCount; s++) {
      const fcSepx = (sed as Buffer).readUInt32LE((sections + 1) * 4 + s * 12 + 2);
      const bits = sectionBits(stream, fcSepx);
      for (let bit = 0x01; bit <= 0x20; bit <<= 1) if (bits & bit) kinds.push(bit & FOOTER_BITS ? 'footer' : 'header');
    }
    return kinds.length === storyCount ? kinds : undefined;
  } catch (err) {
    if (err instanceof OutOfRange || err instanceof RangeError) return undefined;
    throw err;
  }
}
