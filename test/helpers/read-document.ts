/**
 * A corpus document read the way parse() reads it before the writers run: detect → reader →
 * clean → language from content. For tests and benchmarks of the derive step, which works on
 * that ReadResult.
 */
import { clean } from '../../src/parse/clean/index.ts';
import { detectLanguage, sampleText } from '../../src/parse/derive/language.ts';
import { detect } from '../../src/parse/detect.ts';
import type { ReadResult } from '../../src/parse/document.ts';
import { parseOptions, type ParseOptionsInput } from '../../src/parse/options.ts';
import { readerFor } from '../../src/parse/readers/index.ts';

export async function readDocument(bytes: Buffer, filename: string, optionsInput: ParseOptionsInput = {}): Promise<ReadResult> {
  const options = parseOptions(optionsInput);
  const detected = detect(bytes, filename);
  const reader = await readerFor(detected.kind);
  const read = await reader({ bytes, filename, kind: detected.kind, format: detected.format, options, signal: new AbortController().signal });
  clean(read, options, detected.kind);
  read.metadata.language ??= detectLanguage(sampleText(read.document.body));
  return read;
}
