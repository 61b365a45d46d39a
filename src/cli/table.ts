/** Columns padded to their widest cell, two spaces apart: the CLI's listings. */
export function table(rows: string[][]): string {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  return rows.map((r) => r.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join('  ').trimEnd()).join('\n') + '\n';
}

export interface Listing<T> {
  /** What `--json` prints for one item (never a secret). */
  view: (item: T) => unknown;
  /** The line printed when there is nothing to list: what to run to make one. */
  empty: string;
  header: string[];
  row: (item: T) => string[];
}

/** A `list` command's output: JSON with --json, else the empty-state hint or a table. */
export function listing<T>(items: readonly T[], json: boolean, spec: Listing<T>): string {
  if (json) return `${JSON.stringify(items.map(spec.view), null, 2)}\n`;
  if (items.length === 0) return `${spec.empty}\n`;
  return table([spec.header, ...items.map(spec.row)]);
}
