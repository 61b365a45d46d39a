/**
 * includePaths / excludePaths: JavaScript regular expressions tested against a URL's path (or
 * the whole URL with `regexOnFullURL`), as Firecrawl v2 does. They come from clients, so they are
 * checked before use: at most MAX_PATTERNS of at most MAX_PATTERN_LENGTH characters, valid
 * syntax, and no construct that can backtrack exponentially (a quantified group that itself holds
 * a quantifier, such as `(a+)+` or `(\w*\.)*x`, and backreferences). The text they run on is at
 * most 2048 characters (links.ts MAX_URL_LENGTH), which bounds the polynomial cases.
 */
import { ServiceError } from '../../errors.ts';

export const MAX_PATTERNS = 100;
export const MAX_PATTERN_LENGTH = 500;

/** A quantifier starting at `i`: `*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}`; `repeats` when it allows more than one repetition of variable count. */
function quantifierAt(pattern: string, i: number): { length: number; repeats: boolean } | undefined {
  const c = pattern[i];
  if (c === '*' || c === '+') return { length: 1, repeats: true };
  if (c === '?') return { length: 1, repeats: false };
  if (c === '{') {
    const m = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(i));
    if (!m) return undefined;
    return { length: m[0].length, repeats: m[2] !== undefined };
  }
  return undefined;
}

/** Why a pattern could backtrack catastrophically, or undefined when it cannot in this sense. */
export function catastrophicReason(pattern: string): string | undefined {
  // One frame per open group: whether it holds a repeating quantifier.
  const stack: boolean[] = [false];
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    let atomEnd = false;
    let closedRepeats = false;
    if (c === '\\') {
      const next = pattern[i + 1] ?? '';
      if (!inClass && (/[1-9]/.test(next) || (next === 'k' && pattern[i + 2] === '<'))) return 'it uses a backreference';
      i += 1;
      atomEnd = !inClass;
    } else if (inClass) {
      if (c === ']') {
        inClass = false;
        atomEnd = true;
      }
    } else if (c === '[') {
      inClass = true;
    } else if (c === '(') {
      stack.push(false);
    } else if (c === ')') {
      closedRepeats = stack.length > 1 ? (stack.pop() as boolean) : false;
      atomEnd = true;
    } else {
      atomEnd = !quantifierAt(pattern, i);
    }
    if (!atomEnd) continue;
    const q = quantifierAt(pattern, i + 1);
    const top = stack.length - 1;
    if (closedRepeats) {
      if (q?.repeats) return 'it repeats a group that itself contains a repetition (nested quantifiers such as `(a+)+`)';
      stack[top] = true;
    }
    if (q) {
      if (q.repeats) stack[top] = true;
      i += q.length;
      // A lazy or possessive-looking suffix (`+?`) belongs to the same quantifier.
      if (pattern[i + 1] === '?') i += 1;
    }
  }
  return undefined;
}

/** Compiles client patterns; a 400 naming the field and the pattern when one is refused. */
export function compilePathPatterns(field: string, patterns: readonly string[] | null | undefined): RegExp[] {
  if (!patterns || patterns.length === 0) return [];
  if (patterns.length > MAX_PATTERNS) {
    throw new ServiceError('BAD_REQUEST', `\`${field}\` has ${patterns.length} patterns; at most ${MAX_PATTERNS} are accepted.`);
  }
  return patterns.map((pattern, i) => {
    if (pattern.length > MAX_PATTERN_LENGTH) {
      throw new ServiceError('BAD_REQUEST', `\`${field}[${i}]\` is ${pattern.length} characters long; at most ${MAX_PATTERN_LENGTH} are accepted.`);
    }
    let regex: RegExp;
    try {
      regex = new RegExp(pattern);
    } catch (err) {
      const reason = err instanceof SyntaxError ? err.message : 'invalid';
      throw new ServiceError('BAD_REQUEST', `\`${field}[${i}]\` is not a valid regular expression (${reason}).`);
    }
    const danger = catastrophicReason(pattern);
    if (danger) {
      throw new ServiceError('BAD_REQUEST', `\`${field}[${i}]\` (${JSON.stringify(pattern)}) is refused: ${danger}, which can take exponential time. Rewrite it without the nesting.`);
    }
    return regex;
  });
}
