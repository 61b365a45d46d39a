/**
 * Reads a compatibility table of the README: the rows between `<!-- NAME:start -->` and
 * `<!-- NAME:end -->`, first column one or more `names` in backticks, second column the verdict.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Verdict } from './world.ts';

const README = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'README.md');
const VERDICT_WORDS: readonly Verdict[] = ['works', 'not yet', 'not in folio', 'refused by firecrawl-mcp'];

export function readmeTable(name: string): Map<string, Verdict> {
  const text = fs.readFileSync(README, 'utf8');
  const start = text.indexOf(`<!-- ${name}:start -->`);
  const end = text.indexOf(`<!-- ${name}:end -->`);
  if (start < 0 || end < start) throw new Error(`README.md has no <!-- ${name}:start/end --> table`);
  const table = new Map<string, Verdict>();
  for (const line of text.slice(start, end).split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    if (cells.length < 4 || !cells[1]?.startsWith('`')) continue;
    const verdict = VERDICT_WORDS.find((v) => v === cells[2]);
    if (!verdict) throw new Error(`README ${name} row "${line}": the second column must be one of ${VERDICT_WORDS.join(', ')}`);
    for (const m of (cells[1] ?? '').matchAll(/`([^`]+)`/g)) table.set(m[1] ?? '', verdict);
  }
  return table;
}
