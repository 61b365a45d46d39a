/**
 * The parts of JSON Schema the offline filler reads, and ajv to check every value it puts in:
 * a value goes into the result only when it validates against its property's schema.
 */
import { Ajv, type ValidateFunction } from 'ajv';

export type Schema = Record<string, unknown>;

// Formats are checked by coerce.ts's own parsers (ajv-formats is not a dependency).
const ajv = new Ajv({ strict: false, validateFormats: false, allErrors: false });
const compiled = new WeakMap<Schema, ValidateFunction>();

export function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** True when `value` is valid for `schema` (an uncompilable part of a schema accepts nothing). */
export function valid(schema: Schema, value: unknown): boolean {
  let validate = compiled.get(schema);
  if (!validate) {
    try {
      validate = ajv.compile(schema);
    } catch {
      return false;
    }
    compiled.set(schema, validate);
  }
  return validate(value) === true;
}

/** The types a schema names (`type` as a string or a list), inferred from its keywords otherwise. */
export function schemaTypes(schema: Schema): string[] {
  const t = schema.type;
  if (typeof t === 'string') return [t];
  if (Array.isArray(t)) return t.filter((x): x is string => typeof x === 'string');
  if (isSchema(schema.properties)) return ['object'];
  if (schema.items !== undefined) return ['array'];
  if (Array.isArray(schema.enum)) return [...new Set(schema.enum.map((v) => (v === null ? 'null' : typeof v)))];
  if (schema.const !== undefined) return [typeof schema.const];
  return [];
}

/** The alternatives of a property: its anyOf/oneOf members, or itself. */
export function alternatives(schema: Schema): Schema[] {
  const list = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
  return list ? list.filter(isSchema) : [schema];
}

export function properties(schema: Schema): [string, Schema][] {
  return isSchema(schema.properties) ? Object.entries(schema.properties).filter((e): e is [string, Schema] => isSchema(e[1])) : [];
}

export function required(schema: Schema): string[] {
  return Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : [];
}

/** RFC 6901 escaping of one reference token. */
export function pointerToken(name: string): string {
  return name.replace(/~/g, '~0').replace(/\//g, '~1');
}
