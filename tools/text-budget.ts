/**
 * How much text a tool result carries: large documents overflow clients' token limits, so tools
 * answer at most `maxChars` characters and say how to read on (`offset`, or paging).
 */
import { z } from 'zod';

export const DEFAULT_MAX_CHARS = 40_000;
export const MAX_MAX_CHARS = 1_000_000;

/** The `maxChars` argument: at least `min`, at most MAX_MAX_CHARS, `fallback` when absent. */
export function maxCharsField(description: string, { min = 100, fallback = DEFAULT_MAX_CHARS }: { min?: number; fallback?: number } = {}) {
  return z.number().int().min(min).max(MAX_MAX_CHARS).default(fallback).describe(description);
}

/** The `offset` argument of a continuation call. */
export const offsetField = z.number().int().min(0).default(0).describe('Character offset in the markdown to start from (continuation).');
