/**
 * Matching a document's labels (table headers, `key:` labels, definition terms) with a schema's
 * property names: case, spaces, underscores, hyphens, camelCase, accents, a trailing unit in
 * parentheses ("Price (€)") and common abbreviations ("Qty", "No.", "Amt") do not matter.
 */

const ABBREVIATIONS: Record<string, string> = {
  no: 'number', nr: 'number', num: 'number', nbr: 'number', '#': 'number',
  qty: 'quantity', qt: 'quantity', amt: 'amount', desc: 'description', descr: 'description',
  tel: 'phone', telephone: 'phone', ph: 'phone', mob: 'mobile', addr: 'address', dob: 'birthdate',
  pct: 'percent', '%': 'percent', yr: 'year', dt: 'date', ref: 'reference', id: 'id', e: 'e', mail: 'mail',
};

/** Words of a label or property name, lower-cased, abbreviations expanded. */
export function nameWords(name: string): string[] {
  const spaced = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/\([^)]*\)|\[[^\]]*\]/g, ' ') // units: "Price (€)", "Weight [kg]"
    .replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2')
    .replace(/#/g, ' # ')
    .toLowerCase();
  return spaced
    .split(/[^\p{L}\p{N}#]+/u)
    .filter(Boolean)
    .map((w) => ABBREVIATIONS[w] ?? w);
}

/** One key for a name: its words joined, a plural `s` dropped from the last. */
export function nameKey(name: string): string {
  const w = nameWords(name);
  if (w.length === 0) return '';
  const last = w[w.length - 1] as string;
  if (last.length > 3 && last.endsWith('s') && !last.endsWith('ss')) w[w.length - 1] = last.slice(0, -1);
  return w.join('');
}

/** The keys a schema property answers to: its name, and its `title` (and a short `description`). */
export function propertyKeys(name: string, schema: Record<string, unknown>): Set<string> {
  const keys = new Set<string>([nameKey(name)]);
  if (typeof schema.title === 'string') keys.add(nameKey(schema.title));
  if (typeof schema.description === 'string' && schema.description.split(/\s+/).length <= 4) keys.add(nameKey(schema.description));
  keys.delete('');
  return keys;
}
