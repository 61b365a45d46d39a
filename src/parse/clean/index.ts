/**
 * The clean step (DESIGN.md): edits the intermediate document in place according to the options.
 * Placeholder: the HTML helper replaces this with the real cleaners.
 */
import type { DocumentKind } from '../detect.ts';
import type { ReadResult } from '../document.ts';
import type { ParseOptions } from '../options.ts';

export function clean(_read: ReadResult, _options: ParseOptions, _kind: DocumentKind): void {}
