/**
 * The .doc reader: Word 97–2003 binary files (OLE, ole.ts) and Word 2003 XML saved as .doc
 * (`<w:wordDocument>`, wordml.ts). detect() sends RTF and OOXML files named .doc to their own readers.
 */
import type { ReadInput, ReadResult } from '../../document.ts';
import { readOleDoc } from './ole.ts';
import { readWordml } from './wordml.ts';

export async function readDoc(input: ReadInput): Promise<ReadResult> {
  input.signal.throwIfAborted();
  if (input.format === 'wordml') return readWordml(input);
  return readOleDoc(input);
}
