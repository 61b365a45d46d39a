/**
 * The file name an upload ticket is issued for. It is the type claim of the later parse (its
 * extension, interface-v2 "accepted input extensions"), so a name that can never be parsed is
 * refused when the ticket is asked for, before anyone uploads 50 MB for nothing.
 */
import { ACCEPTED_EXTENSIONS, extensionOf } from '../parse/detect.ts';
import { ServiceError } from '../errors.ts';

export const MAX_FILENAME_BYTES = 255;

/** The base name of `name` (a client may send a path), validated. */
export function ticketFilename(name: unknown): string {
  if (typeof name !== 'string' || name.trim() === '') {
    throw new ServiceError('BAD_REQUEST', '`filename` is required: the name of the file you will upload, e.g. "report.pdf" (its extension names the type).');
  }
  const base = name.trim().split(/[\\/]/).pop() ?? '';
  if (base === '' || base === '.' || base === '..') {
    throw new ServiceError('BAD_REQUEST', '`filename` must end in a file name, e.g. "report.pdf", not a directory.');
  }
  if (Buffer.byteLength(base) > MAX_FILENAME_BYTES) {
    throw new ServiceError('BAD_REQUEST', `\`filename\` is longer than ${MAX_FILENAME_BYTES} bytes; shorten it.`);
  }
  if (/[\u0000-\u001f\u007f]/.test(base)) {
    throw new ServiceError('BAD_REQUEST', '`filename` contains control characters; send a plain file name.');
  }
  const ext = extensionOf(base);
  if (!(ACCEPTED_EXTENSIONS as readonly string[]).includes(ext)) {
    const got = ext === '' ? 'no extension' : `'${ext}'`;
    throw new ServiceError(
      'UNSUPPORTED_FILE_TYPE',
      `\`filename\` has ${got}; parse accepts ${ACCEPTED_EXTENSIONS.join(', ')}. Use scrape for a public URL.`,
    );
  }
  return base;
}
