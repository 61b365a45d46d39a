/** Building a reader's input the way parse() does, and catching the ServiceError a test expects. */
import { isServiceError } from '../../src/errors.ts';
import type { DocumentKind } from '../../src/parse/detect.ts';
import type { Progress, ReadInput } from '../../src/parse/document.ts';
import { parseOptions, type ParseOptionsInput } from '../../src/parse/options.ts';

export interface ReadInputOverrides {
  filename?: string;
  /** detect()'s finer format; the kind itself by default. */
  format?: string;
  options?: ParseOptionsInput;
  signal?: AbortSignal;
  onProgress?: (progress: Progress) => void;
}

export function readInput(kind: DocumentKind, bytes: Uint8Array, overrides: ReadInputOverrides = {}): ReadInput {
  return {
    bytes: Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes),
    filename: overrides.filename ?? `document.${kind}`,
    kind,
    format: overrides.format ?? kind,
    options: parseOptions(overrides.options ?? {}),
    signal: overrides.signal ?? new AbortController().signal,
    ...(overrides.onProgress ? { onProgress: overrides.onProgress } : {}),
  };
}

/** The code and message of the ServiceError a promise rejects with; anything else fails the test. */
export async function serviceFailure(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await promise;
  } catch (err) {
    if (isServiceError(err)) return { code: err.code, message: err.message };
    throw err;
  }
  throw new Error('expected a ServiceError');
}
