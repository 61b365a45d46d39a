/** pdf.js failures as ServiceErrors, and the page-list wording warnings use. */
import { ServiceError } from '../../../errors.ts';

function errorName(err: unknown): string {
  return typeof err === 'object' && err !== null && typeof (err as { name?: unknown }).name === 'string' ? (err as { name: string }).name : '';
}

/** The error for a PDF pdf.js could not open. */
export function openError(err: unknown): ServiceError {
  const name = errorName(err);
  if (name === 'PasswordException') {
    return new ServiceError(
      'ENCRYPTED_FILE',
      'The PDF is protected by a password that is needed to open it. Remove the password (save an unprotected copy) and upload it again.',
      { cause: err },
    );
  }
  if (name === 'InvalidPDFException') {
    return new ServiceError(
      'CORRUPT_FILE',
      'The file is not a readable PDF: its structure is missing or broken, so it is probably truncated or damaged. Upload the complete file again.',
      { cause: err },
    );
  }
  return new ServiceError('CORRUPT_FILE', 'The PDF could not be opened: it is damaged or uses a structure folio cannot read. Re-save or re-export it and upload it again.', {
    cause: err,
  });
}

/** At most this many page ranges are named in a warning; the rest are counted. */
const MAX_RANGES = 10;

/** "3", "3 and 5", "1–4, 7 and 9", "1, 3, 5, … and 40 more pages". */
export function pageList(pages: readonly number[]): string {
  const ranges: string[] = [];
  const counts: number[] = [];
  for (let i = 0; i < pages.length; ) {
    let j = i;
    while (j + 1 < pages.length && (pages[j + 1] as number) === (pages[j] as number) + 1) j++;
    if (j - i >= 2) {
      ranges.push(`${pages[i]}–${pages[j]}`);
      counts.push(j - i + 1);
    } else {
      for (let k = i; k <= j; k++) {
        ranges.push(`${pages[k]}`);
        counts.push(1);
      }
    }
    i = j + 1;
  }
  if (ranges.length > MAX_RANGES) {
    const rest = counts.slice(MAX_RANGES).reduce((a, b) => a + b, 0);
    return `${ranges.slice(0, MAX_RANGES).join(', ')} and ${rest} more`;
  }
  return ranges.length === 1 ? (ranges[0] ?? '') : `${ranges.slice(0, -1).join(', ')} and ${ranges[ranges.length - 1]}`;
}

/** "Page 3 has …" / "Pages 1–4 and 7 have …". */
export function pagesPhrase(pages: readonly number[], singular: string, plural: string): string {
  const first = pages[0];
  return pages.length === 1 && first !== undefined ? `Page ${first} ${singular}` : `Pages ${pageList(pages)} ${plural}`;
}
