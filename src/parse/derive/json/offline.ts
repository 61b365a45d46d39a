/**
 * The offline `json` format (issue 14, docs/derive.md): the user's schema filled from the
 * document's own structure, never an invented value.
 *
 *   facts.ts    tables, `key: value` pairs (lines, definition lists, two-column tables), sections
 *   rows.ts     array-of-objects properties from a table whose header names them, else from
 *               repeated `key: value` records (contact cards)
 *   names.ts    labels ↔ property names (case, spacing, units, abbreviations aside)
 *   value.ts    text → the property's type (coerce.ts), every value checked with ajv
 *   metadata-values.ts  title, description, author, date, language, keywords
 *
 * A scalar property takes, in order: a pair labelled with the parent's and its own name
 * ("Invoice number" for invoice.number); inside a nested object, a pair under a heading naming
 * the object; a pair labelled with its name (at the top level the first that coerces; in a
 * nested object only when the document gives that label a single value); a section whose heading
 * is its name (text properties); the document's metadata. A heading names an object when it is
 * the object's name or starts with it ("Customer details" for `customer`).
 */
import type { ReadResult } from '../../document.ts';
import type { Coerced } from './coerce.ts';
import { gatherFacts, type Facts, type Pair } from './facts.ts';
import { metadataValue } from './metadata-values.ts';
import { nameKey, propertyKeys } from './names.ts';
import { rowsFromPairs, rowsFromTables } from './rows.ts';
import { isSchema, pointerToken, properties, schemaTypes, valid, type Schema } from './schema.ts';
import { coerceTo } from './value.ts';

export interface OfflineJson {
  /** The filled value: an object or array valid for the schema's shape, fields left out when unknown. */
  json: unknown;
  /** JSON Pointers (`/invoice/total`) of the schema's fields nothing in the document matched. */
  emptyFields: string[];
}

/** Nested objects deeper than this are left empty (a schema of a whole database is not a document). */
const MAX_DEPTH = 6;

interface Scope {
  read: ReadResult;
  facts: Facts;
  /** Name keys of the enclosing object properties, outermost first. */
  parents: Set<string>[];
}

interface Filled {
  value: unknown;
  empty: string[];
}

/** A heading (its nameKey) that names an object: its name, or its name first ("Customer details" for `customer`). */
function headingNames(key: string, keys: Set<string>): boolean {
  return key.length > 0 && [...keys].some((k) => key === k || key.startsWith(k));
}

function keyedPairs(pairs: Pair[], keys: Set<string>): Pair[] {
  return pairs.filter((p) => keys.has(p.name));
}

function firstCoerced(pairs: Pair[], schema: Schema): Coerced | undefined {
  for (const p of pairs) {
    const v = coerceTo(p.value, schema);
    if (v !== undefined) return v;
  }
  return undefined;
}

/** The value when all the pairs that coerce agree on one. */
function onlyValue(pairs: Pair[], schema: Schema): Coerced | undefined {
  const values = new Set(pairs.map((p) => coerceTo(p.value, schema)).filter((v) => v !== undefined));
  return values.size === 1 ? ([...values][0] as Coerced) : undefined;
}

function scalar(keys: Set<string>, schema: Schema, scope: Scope): Coerced | undefined {
  const { facts } = scope;
  const parent = scope.parents[scope.parents.length - 1];
  if (parent) {
    const composite = new Set([...parent].flatMap((p) => [...keys].map((k) => p + k)));
    const v = firstCoerced(keyedPairs(facts.pairs, composite), schema);
    if (v !== undefined) return v;
    const scoped = facts.pairs.filter((p) => headingNames(p.headingName, parent));
    const s = firstCoerced(keyedPairs(scoped, keys), schema);
    if (s !== undefined) return s;
  }
  const labelled = keyedPairs(facts.pairs, keys);
  const direct = parent ? onlyValue(labelled, schema) : firstCoerced(labelled, schema);
  if (direct !== undefined) return direct;
  if (schemaTypes(schema).includes('string') && schema.format === undefined && schema.enum === undefined) {
    const section = facts.sections.find((s) => keys.has(s.name) && s.text);
    if (section) {
      const v = coerceTo(section.text, schema);
      if (v !== undefined) return v;
    }
  }
  const meta = metadataValue(keys, scope.read.metadata, facts);
  if (typeof meta === 'string') return coerceTo(meta, schema) ?? (schema.format === 'date' ? coerceTo(meta.slice(0, 10), schema) : undefined);
  if (Array.isArray(meta) && meta.length > 0) return coerceTo(meta.join(', '), schema);
  return undefined;
}

/** Items of a list of scalars, each coerced; undefined unless every item coerces. */
function coerceAll(texts: string[], itemSchema: Schema): Coerced[] | undefined {
  const out = texts.map((t) => coerceTo(t, itemSchema));
  return out.length > 0 && out.every((v) => v !== undefined) ? (out as Coerced[]) : undefined;
}

const LIST_SEPARATOR = /\s*[,;]\s*/;

function scalarList(keys: Set<string>, itemSchema: Schema, scope: Scope): Coerced[] | undefined {
  const { facts } = scope;
  for (const grid of facts.tables) {
    const c = Array.from({ length: grid.width }, (_, i) => i).find((i) => grid.head.some((row) => keys.has(nameKey(row[i] ?? ''))));
    if (c === undefined) continue;
    const cells = grid.body.map((row) => row[c] ?? '').filter(Boolean);
    const values = cells.map((t) => coerceTo(t, itemSchema)).filter((v): v is Coerced => v !== undefined);
    if (values.length > 0) return values;
  }
  for (const p of keyedPairs(facts.pairs, keys)) {
    const values = coerceAll(p.value.split(LIST_SEPARATOR).filter(Boolean), itemSchema);
    if (values) return values;
  }
  for (const s of facts.sections.filter((x) => keys.has(x.name))) {
    const texts = s.items.length > 0 ? s.items : /[.!?]\s/.test(s.text) ? [] : s.text.split(LIST_SEPARATOR).filter(Boolean);
    const values = coerceAll(texts, itemSchema);
    if (values) return values;
  }
  const meta = metadataValue(keys, scope.read.metadata, facts);
  const texts = Array.isArray(meta) ? meta : typeof meta === 'string' ? meta.split(LIST_SEPARATOR).filter(Boolean) : [];
  return coerceAll(texts, itemSchema);
}

function fillProperty(name: string, schema: Schema, pointer: string, scope: Scope): Filled {
  const types = schemaTypes(schema);
  const keys = propertyKeys(name, schema);
  if (types.includes('object') && properties(schema).length > 0) {
    if (scope.parents.length >= MAX_DEPTH) return { value: undefined, empty: [pointer] };
    return fillObject(schema, pointer, { ...scope, parents: [...scope.parents, keys] });
  }
  if (types.includes('array')) {
    const items = isSchema(schema.items) ? schema.items : {};
    const list = properties(items).length > 0 ? (rowsFromTables(scope.facts, items) ?? rowsFromPairs(scope.facts.pairs, items)) : scalarList(keys, items, scope);
    const value = list && valid(schema, list) ? list : undefined;
    return { value, empty: value === undefined ? [pointer] : [] };
  }
  const value = scalar(keys, schema, scope);
  return { value, empty: value === undefined ? [pointer] : [] };
}

function fillObject(schema: Schema, pointer: string, scope: Scope): Filled {
  const out: Record<string, unknown> = {};
  const empty: string[] = [];
  for (const [name, sub] of properties(schema)) {
    const filled = fillProperty(name, sub, `${pointer}/${pointerToken(name)}`, scope);
    if (filled.value !== undefined) out[name] = filled.value;
    empty.push(...filled.empty);
  }
  // A nested object nothing matched is one empty field, not one per property.
  if (Object.keys(out).length === 0) return { value: undefined, empty: [pointer] };
  return { value: out, empty };
}

/** undefined: nothing in the document matches the schema (the caller answers NOT_CONFIGURED). */
export function offlineJson(read: ReadResult, schema: Record<string, unknown>): OfflineJson | undefined {
  const body = read.document.body;
  if (!body) return undefined;
  const facts = gatherFacts(body);
  const scope: Scope = { read, facts, parents: [] };
  const types = schemaTypes(schema);
  if (types.includes('array')) {
    const filled = fillProperty('', schema, '', scope);
    return filled.value === undefined ? undefined : { json: filled.value, emptyFields: [] };
  }
  const filled = fillObject(schema, '', scope);
  return filled.value === undefined ? undefined : { json: filled.value, emptyFields: filled.empty };
}
