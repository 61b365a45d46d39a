/**
 * An array-of-objects property filled from a table: the table whose header names the most of the
 * item's properties (two at least, or all of them when there is one), and the tables after it with
 * the same header and no heading in between (a table continued on the next page; two sheets of a
 * workbook with the same columns are two tables, each under its sheet's heading). A body row becomes an item when every
 * non-empty matched cell coerces to its property, half the matched columns at least have a value,
 * and the item's required properties are there; other rows (a total line, a sub-heading inside
 * the table) are left out, as is a row whose first filled cell says it sums the others ("Total").
 */
import { coerceTo } from './value.ts';
import type { Coerced } from './coerce.ts';
import type { Facts } from './facts.ts';
import { nameKey, propertyKeys } from './names.ts';
import type { Pair } from './facts.ts';
import { properties, required, schemaTypes, valid, type Schema } from './schema.ts';
import type { Grid } from './tables.ts';

/** Column index of each scalar property the header names, each column used once. */
function columnMap(grid: Grid, props: [string, Schema][]): Map<string, number> {
  const columnKeys = Array.from({ length: grid.width }, (_, c) => {
    const texts = grid.head.map((row) => row[c] ?? '').filter(Boolean);
    return new Set([...texts.map(nameKey), nameKey(texts.join(' '))].filter(Boolean));
  });
  const map = new Map<string, number>();
  const used = new Set<number>();
  for (const [name, schema] of props) {
    if (schemaTypes(schema).some((t) => t === 'object' || t === 'array')) continue;
    const keys = propertyKeys(name, schema);
    const c = columnKeys.findIndex((ck, i) => !used.has(i) && [...keys].some((k) => ck.has(k)));
    if (c >= 0) {
      map.set(name, c);
      used.add(c);
    }
  }
  return map;
}

function headerSignature(grid: Grid): string {
  return grid.head.map((r) => r.map(nameKey).join('|')).join('/');
}

/** The first filled cell of a summing row, in the languages folio's readers see most. */
const SUM_ROW = /^(?:(?:sub|grand)[ -]?)?total|^sum$|^summe|^gesamt|^totale?$|^somme|^suma$|^totaal|^合计|^総計|^合計|^小計/i;

function rowItem(row: string[], columns: Map<string, number>, itemSchema: Schema, propSchemas: Map<string, Schema>): Record<string, Coerced> | undefined {
  if (SUM_ROW.test(row.find((c) => c.trim().length > 0)?.trim() ?? '')) return undefined;
  const item: Record<string, Coerced> = {};
  for (const [name, c] of columns) {
    const cell = row[c] ?? '';
    if (!cell) continue;
    const value = coerceTo(cell, propSchemas.get(name) as Schema);
    if (value === undefined) return undefined;
    item[name] = value;
  }
  if (Object.keys(item).length < Math.ceil(columns.size / 2)) return undefined;
  if (required(itemSchema).some((r) => !(r in item))) return undefined;
  return valid(itemSchema, item) ? item : undefined;
}

export function rowsFromTables(facts: Facts, itemSchema: Schema): Record<string, Coerced>[] | undefined {
  const props = properties(itemSchema);
  if (props.length === 0) return undefined;
  const needed = Math.min(2, props.length);
  let best: { index: number; columns: Map<string, number> } | undefined;
  facts.tables.forEach((grid, index) => {
    if (grid.head.length === 0 || grid.body.length === 0) return;
    const columns = columnMap(grid, props);
    if (columns.size < needed) return;
    if (!best || columns.size > best.columns.size) best = { index, columns };
  });
  if (!best) return undefined;
  const first = facts.tables[best.index] as Grid;
  const signature = headerSignature(first);
  const propSchemas = new Map(props);
  const items: Record<string, Coerced>[] = [];
  for (const grid of facts.tables.slice(best.index)) {
    if (grid !== first && (headerSignature(grid) !== signature || grid.section !== first.section)) continue;
    for (const row of grid.body) {
      const item = rowItem(row, best.columns, itemSchema, propSchemas);
      if (item) items.push(item);
    }
  }
  return items.length > 0 ? items : undefined;
}

/**
 * An array-of-objects property filled from repeated `key: value` records when no table matches:
 * contact cards, one per section or one after another ("Name: …, Email: …, Name: …, Email: …").
 * The pairs naming the item's properties are read in document order; a record ends where a
 * property it already has comes again or the heading changes. A record becomes an item on the
 * same terms as a table row: two properties at least (or the only one), required ones there,
 * valid for the item schema.
 */
export function rowsFromPairs(pairs: Pair[], itemSchema: Schema): Record<string, Coerced>[] | undefined {
  const props = properties(itemSchema).filter(([, schema]) => !schemaTypes(schema).some((t) => t === 'object' || t === 'array'));
  if (props.length === 0) return undefined;
  const keyed = props.map(([name, schema]) => ({ name, schema, keys: propertyKeys(name, schema) }));
  const needed = Math.min(2, props.length);
  const items: Record<string, Coerced>[] = [];
  let current: Record<string, Coerced> = {};
  let heading: string | undefined;
  const close = (): void => {
    if (Object.keys(current).length >= needed && required(itemSchema).every((r) => r in current) && valid(itemSchema, current)) items.push(current);
    current = {};
  };
  for (const pair of pairs) {
    const prop = keyed.find((p) => p.keys.has(pair.name));
    if (!prop) continue;
    const value = coerceTo(pair.value, prop.schema);
    if (value === undefined) continue;
    if (prop.name in current || (heading !== undefined && pair.heading !== heading)) close();
    heading = pair.heading;
    current[prop.name] = value;
  }
  close();
  return items.length > 0 ? items : undefined;
}
