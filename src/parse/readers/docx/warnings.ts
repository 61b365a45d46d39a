/**
 * mammoth's messages → warnings for a person reading the output. Most messages are noise for
 * that person (unknown style names, VML drawing details, field bookkeeping) and are dropped;
 * the ones that mean content is missing from the output are counted and said once each.
 */
import type { ImageStats, MammothMessage } from './mammoth.ts';

const UNRECOGNISED = /^An unrecognised element was ignored: (.+)$/;

/** Elements whose loss does not change what a reader sees (drawing details, row exceptions, page-number fields). */
const NOISE_ELEMENTS = new Set([
  'w:tblPrEx',
  'w:pgNum',
  'w:permStart',
  'w:permEnd',
  'w:noProof',
  'w:ruby',
  'w:fitText',
  'w:contentPart',
  'w:footnotePr',
  'w:endnotePr',
  'w:separator',
  'w:continuationSeparator',
  'w:dayLong',
  'w:monthLong',
  'w:yearLong',
  'w:dayShort',
  'w:monthShort',
  'w:yearShort',
  'w:annotationRef',
  'w:rubyBase',
  'w:customXmlInsRangeStart',
  'w:customXmlInsRangeEnd',
  'w:customXmlDelRangeStart',
  'w:customXmlDelRangeEnd',
  'w:customXmlMoveFromRangeStart',
  'w:customXmlMoveFromRangeEnd',
  'w:customXmlMoveToRangeStart',
  'w:customXmlMoveToRangeEnd',
]);

const MATH = /\}oMath(Para)?$|^m:oMath(Para)?$/;
const OLE = /\}OLEObject$|^o:OLEObject$/;

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

export function summarizeWarnings(messages: readonly MammothMessage[], images: ImageStats): string[] {
  let equations = 0;
  let oleObjects = 0;
  let altChunks = 0;
  let subDocuments = 0;
  let tableMerges = 0;
  const other = new Set<string>();
  for (const { message } of messages) {
    const match = UNRECOGNISED.exec(message);
    if (match?.[1]) {
      const name = match[1];
      if (MATH.test(name)) equations++;
      else if (OLE.test(name)) oleObjects++;
      else if (name === 'w:altChunk') altChunks++;
      else if (name === 'w:subDoc') subDocuments++;
      else if (name.startsWith('w:') && !NOISE_ELEMENTS.has(name)) other.add(name);
      // VML (v:*), Office (o:*) and other drawing details are how shapes are drawn, not content.
      continue;
    }
    if (/cell merging may be incorrect/.test(message)) tableMerges++;
  }

  const warnings: string[] = [];
  if (equations > 0) warnings.push(`${plural(equations, 'equation', 'equations')} could not be converted and ${equations === 1 ? 'is' : 'are'} missing from the output.`);
  if (altChunks > 0) warnings.push(`${plural(altChunks, 'block', 'blocks')} of content imported from another file (altChunk) could not be read and ${altChunks === 1 ? 'is' : 'are'} missing.`);
  if (subDocuments > 0) warnings.push(`The document is a master document: ${plural(subDocuments, 'subdocument is', 'subdocuments are')} stored in separate files and not included.`);
  if (oleObjects > 0) warnings.push(`${plural(oleObjects, 'embedded object', 'embedded objects')} (OLE) ${oleObjects === 1 ? 'is' : 'are'} shown only by ${oleObjects === 1 ? 'its' : 'their'} preview picture, if any.`);
  if (tableMerges > 0) warnings.push(`Merged cells in ${plural(tableMerges, 'table', 'tables')} may be placed in the wrong column.`);
  if (images.missing > 0) warnings.push(`${plural(images.missing, 'picture is', 'pictures are')} referenced by the document but missing from the file; ${images.missing === 1 ? 'it is' : 'they are'} shown by ${images.missing === 1 ? 'its' : 'their'} alt text only.`);
  if (images.external > 0) warnings.push(`${plural(images.external, 'picture is', 'pictures are')} linked from outside the document and ${images.external === 1 ? 'was' : 'were'} not fetched; ${images.external === 1 ? 'it is' : 'they are'} shown by ${images.external === 1 ? 'its' : 'their'} alt text only.`);
  if (other.size > 0) warnings.push(`Some Word content of a kind folio does not convert was left out (${[...other].sort().join(', ')}).`);
  return warnings;
}
