/**
 * The table finder on a hostile page (docs/pdf.md "Where fast mode's time goes"): a tall page
 * ruled with N short lone rules, alternately in the left and the right half, each with a head of
 * two cells sitting on it and a row of two cells under it, and FILLER words per rule set down a
 * narrow margin column beside them — every rule a seed for a borderless
 * table grown from a head rule (tables/index.ts grownCandidate), and every rule below it in its
 * half a candidate next head. Prints the time findTables takes for growing N, so the growth
 * (quadratic or worse before the words were indexed by position) shows.
 *
 *   npx tsx bench/pdf/hostile-tables.ts [N …]      default 100 200 400 600 (beyond 600 lines the ruled-table finder gives up: tables/ruled.ts MAX_LINES)
 */
import { findTables } from '../../src/parse/readers/pdf/tables/index.ts';
import type { PageModel, Rule, Word } from '../../src/parse/readers/pdf/page-model.ts';

const SIZE = 10;
const PITCH = 4 * SIZE;
/** Words per rule in the margin column: they belong to no table, but every search over the page's words meets them. */
const FILLER = 20;

function word(text: string, x0: number, baseline: number, order: number): Word {
  return { text, x0, x1: x0 + 0.5 * SIZE * text.length, y0: baseline - 0.8 * SIZE, y1: baseline + 0.2 * SIZE, size: SIZE, font: 'F1', bold: false, italic: false, order, rotated: false, baseline };
}

/** The hostile page: `n` lone rules, each under a head of two cells and over a row of two, and the margin's words. */
export function hostileTablePage(n: number): PageModel {
  const words: Word[] = [];
  const rules: Rule[] = [];
  for (let i = 0; i < n; i++) {
    const x = i % 2 === 0 ? 40 : 330;
    const at = 60 + Math.floor(i / 2) * PITCH;
    rules.push({ x0: x, x1: x + 240, y0: at - 0.25, y1: at + 0.25, orientation: 'horizontal' });
    words.push(word('Name', x + 2, at - 3, words.length), word('Value', x + 140, at - 3, words.length + 1));
    words.push(word(`r${i}`, x + 2, at + SIZE + 2, words.length), word(`${i * 7}`, x + 140, at + SIZE + 2, words.length + 1));
    for (let k = 0; k < FILLER; k++) words.push(word('x', 590, at - 15 + (k * PITCH) / FILLER, words.length));
  }
  return { number: 1, width: 612, height: 80 + Math.ceil(n / 2) * PITCH, words, rules, fills: [], images: [], links: [], source: 'text' };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const sizes = process.argv.slice(2).map(Number);
  findTables(hostileTablePage(20));
  for (const n of sizes.length > 0 ? sizes : [100, 200, 400, 600]) {
    const page = hostileTablePage(n);
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const tables = findTables(page);
    const cpu = process.cpuUsage(c0);
    process.stdout.write(`${String(n).padStart(5)} rules ${String(page.words.length).padStart(6)} words: ${tables.length} tables, ${(performance.now() - t0).toFixed(0).padStart(7)} ms wall, ${((cpu.user + cpu.system) / 1000).toFixed(0).padStart(7)} ms CPU\n`);
  }
}
