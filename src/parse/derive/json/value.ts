/**
 * One piece of document text as a value of a property's schema: the first of the property's
 * types (or anyOf alternatives) the text really is, checked with ajv against the property.
 */
import { toBoolean, toDate, toNumber, type Coerced } from './coerce.ts';
import { nameKey } from './names.ts';
import { alternatives, schemaTypes, valid, type Schema } from './schema.ts';

const EMAIL = /^[^\s@<>()]+@[^\s@<>()]+\.[^\s@<>()]+$/;
const URI = /^[a-z][a-z0-9+.-]*:\S+$/i;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})$/;

function asString(text: string, schema: Schema): string | undefined {
  const s = text.replace(/\s+/g, ' ').trim();
  if (!s) return undefined;
  switch (schema.format) {
    case 'date':
      return toDate(s);
    case 'date-time':
      return DATE_TIME.test(s) ? s : undefined;
    case 'email': {
      const e = s.replace(/^mailto:/i, '');
      return EMAIL.test(e) ? e : undefined;
    }
    case 'uri':
    case 'url':
      return URI.test(s) ? s : undefined;
    default:
      return s;
  }
}

function asType(text: string, type: string, schema: Schema): Coerced | undefined {
  if (type === 'integer') {
    const n = toNumber(text);
    return n !== undefined && Number.isInteger(n) ? n : undefined;
  }
  if (type === 'number') return toNumber(text);
  if (type === 'boolean') return toBoolean(text);
  if (type === 'string') return asString(text, schema);
  return undefined;
}

/** An enum member the text names (case, spacing and punctuation aside). */
function enumMember(text: string, members: unknown[]): Coerced | undefined {
  const key = nameKey(text);
  for (const m of members) {
    if ((typeof m === 'string' || typeof m === 'number' || typeof m === 'boolean') && (m === text.trim() || nameKey(String(m)) === key)) return m;
  }
  return undefined;
}

const SPECIFICITY = ['integer', 'boolean', 'number', 'string', 'null', 'object', 'array'];

export function coerceTo(text: string, schema: Schema): Coerced | undefined {
  for (const alt of alternatives(schema)) {
    let value: Coerced | undefined;
    if (Array.isArray(alt.enum)) value = enumMember(text, alt.enum);
    else {
      // A property that names no type takes the text as a string; of several types the most
      // specific the text is wins ("5000" for ["string", "number"] is 5000).
      const types = schemaTypes(alt);
      const ordered = types.length > 0 ? [...types].sort((a, b) => SPECIFICITY.indexOf(a) - SPECIFICITY.indexOf(b)) : ['string'];
      for (const type of ordered) if ((value = asType(text, type, alt)) !== undefined) break;
    }
    if (value !== undefined && valid(schema, value)) return value;
  }
  return undefined;
}
