/**
 * A small XML reader that builds mammoth's own element tree (`mammoth/lib/xml/nodes`) straight
 * from the text, in one pass, instead of mammoth's path (xmldom DOM → walk → mammoth elements),
 * which was the largest single cost of a .docx parse (bench:office, issue 4).
 *
 * It reproduces what mammoth 1.x's `xml/reader.js` over @xmldom/xmldom 0.8 yields, so mammoth's
 * readers see the same tree (test/parse/docx-mammoth-xml.test.ts compares both on every corpus part):
 * - line endings normalised first (`\r\n`, `\r`, U+0085, U+2028 → `\n`), as xmldom's DOMParser does;
 * - names: `prefix:local` when the element's or attribute's namespace is in the map, else
 *   `{uri}local`; no namespace (undeclared prefix, no default namespace, unprefixed attribute) → the
 *   local name; `xmlns`/`xmlns:p` attributes kept under the xmlns namespace (Namespaces in XML §3);
 * - text nodes for every non-empty run of character data between markup, white space included,
 *   with the XML entities and character references decoded; CDATA sections, comments, processing
 *   instructions and the doctype yield nothing (mammoth's reader drops non-text, non-element nodes);
 * - attribute values with TAB/CR/LF turned into spaces (XML 1.0 §3.3.3), entities decoded;
 * - what xmldom reports as an error (unknown entity, mismatched or unclosed tags, a repeated
 *   attribute, a second root) throws, as mammoth then does.
 */
import { createRequire } from 'node:module';

export interface MammothXmlText {
  type: 'text';
  value: string;
}

export interface MammothXmlElement {
  type: 'element';
  name: string;
  attributes: Record<string, string>;
  children: MammothXmlNode[];
  firstOrEmpty(name: string): { children: MammothXmlNode[] };
}

export type MammothXmlNode = MammothXmlElement | MammothXmlText;

type ElementConstructor = new (name: string, attributes: Record<string, string>, children: MammothXmlNode[]) => MammothXmlElement;

const { Element } = createRequire(import.meta.url)('mammoth/lib/xml/nodes.js') as { Element: ElementConstructor };

const XML_NAMESPACE = 'http://www.w3.org/XML/1998/namespace';
const XMLNS_NAMESPACE = 'http://www.w3.org/2000/xmlns/';
const ENTITIES: Record<string, string> = { amp: '&', apos: "'", gt: '>', lt: '<', quot: '"' };
const LINE_BREAKS = /[\r\u0085\u2028]/;

export class XmlSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'XmlSyntaxError';
  }
}

/** One in-scope set of namespace bindings (prefix → URI; '' is the default namespace), with resolved names cached. */
interface Scope {
  bindings: Map<string, string>;
  elementNames: Map<string, string>;
  attributeNames: Map<string, string>;
}

function newScope(bindings: Map<string, string>): Scope {
  return { bindings, elementNames: new Map(), attributeNames: new Map() };
}

/** xmldom's entity replacement (`/&#?\w+;/`): named XML entities, `&#N;`, `&#xN;` (a bad number gives U+0000). */
function replaceEntity(whole: string): string {
  const key = whole.slice(1, -1);
  const named = ENTITIES[key];
  if (named !== undefined) return named;
  if (key.charCodeAt(0) === 35 /* # */) {
    const code = parseInt(key.slice(1).replace('x', '0x'));
    return Number.isNaN(code) || code < 0 || code > 0x10ffff ? '\u0000' : String.fromCodePoint(code);
  }
  throw new XmlSyntaxError(`entity not found: ${whole}`);
}

function decode(text: string): string {
  return text.includes('&') ? text.replace(/&#?\w+;/g, replaceEntity) : text;
}

function isSpace(code: number): boolean {
  return code === 32 || code === 10 || code === 9 || code === 13;
}

/** End of an XML name starting at `from`: the first white space, `/`, `>`, `=` or `<`. */
function nameEnd(source: string, from: number): number {
  let p = from;
  for (; p < source.length; p++) {
    const c = source.charCodeAt(p);
    if (isSpace(c) || c === 47 || c === 62 || c === 61 || c === 60) break;
  }
  return p;
}

/** A name as mammoth's reader gives it. */
function resolve(scope: Scope, qname: string, isElement: boolean, namespaceMap: Record<string, string>): string {
  const cache = isElement ? scope.elementNames : scope.attributeNames;
  const known = cache.get(qname);
  if (known !== undefined) return known;
  const colon = qname.indexOf(':');
  if (colon !== qname.lastIndexOf(':') || colon === 0 || colon === qname.length - 1) throw new XmlSyntaxError(`invalid name: ${qname}`);
  const prefix = colon === -1 ? '' : qname.slice(0, colon);
  const local = colon === -1 ? qname : qname.slice(colon + 1);
  let uri: string | undefined;
  if (qname === 'xmlns' || prefix === 'xmlns') uri = isElement ? undefined : XMLNS_NAMESPACE;
  else if (prefix === 'xml') uri = XML_NAMESPACE;
  else if (prefix !== '' || isElement) uri = scope.bindings.get(prefix);
  let name = local;
  if (uri) {
    const mapped = namespaceMap[uri];
    name = mapped ? `${mapped}:${local}` : `{${uri}}${local}`;
  }
  cache.set(qname, name);
  return name;
}

/**
 * mammoth's `office-xml-reader` step: each `mc:AlternateContent` replaced by its `mc:Fallback`
 * children (which are not collapsed further, as in mammoth). Iterative, so depth costs no stack.
 */
function collapseAlternateContent(root: MammothXmlElement): MammothXmlNode[] {
  if (root.name === ALTERNATE_CONTENT) return fallbackOf(root);
  const pending: MammothXmlElement[] = [root];
  for (let node = pending.pop(); node; node = pending.pop()) {
    let collapsed = false;
    for (const child of node.children) {
      if (child.type !== 'element') continue;
      if (child.name === ALTERNATE_CONTENT) collapsed = true;
      else pending.push(child);
    }
    if (collapsed) node.children = node.children.flatMap((child) => (child.type === 'element' && child.name === ALTERNATE_CONTENT ? fallbackOf(child) : [child]));
  }
  return [root];
}

const ALTERNATE_CONTENT = 'mc:AlternateContent';

function fallbackOf(element: MammothXmlElement): MammothXmlNode[] {
  return element.firstOrEmpty('mc:Fallback').children;
}

interface Frame {
  qname: string;
  element: MammothXmlElement;
  scope: Scope;
}

/** Parses an XML document into mammoth's tree, as `xml.readString(text, namespaceMap)` would. */
export function readMammothXml(text: string, namespaceMap: Record<string, string>): MammothXmlElement {
  const source = LINE_BREAKS.test(text) ? text.replace(/\r[\n\u0085]/g, '\n').replace(/[\r\u0085\u2028]/g, '\n') : text;
  const stack: Frame[] = [];
  let root: MammothXmlElement | undefined;
  const rootScope = newScope(new Map());
  let pos = 0;
  for (;;) {
    const lt = source.indexOf('<', pos);
    const textEnd = lt === -1 ? source.length : lt;
    const top = stack[stack.length - 1];
    if (textEnd > pos && top) top.element.children.push({ type: 'text', value: decode(source.slice(pos, textEnd)) });
    if (lt === -1) break;
    const next = source.charCodeAt(lt + 1);
    if (next === 47 /* / */) {
      const gt = source.indexOf('>', lt + 2);
      if (gt === -1) throw new XmlSyntaxError('an end tag is not complete');
      const name = source.slice(lt + 2, gt).trimEnd();
      const open = stack.pop();
      if (!open || open.qname !== name) throw new XmlSyntaxError(`end tag ${name} does not match ${open ? open.qname : 'any open element'}`);
      pos = gt + 1;
    } else if (next === 63 /* ? */) {
      const end = source.indexOf('?>', lt + 2);
      if (end === -1) throw new XmlSyntaxError('a processing instruction is not closed');
      pos = end + 2;
    } else if (next === 33 /* ! */) {
      pos = skipDeclaration(source, lt);
    } else {
      pos = startTag(source, lt, stack, namespaceMap, top ? top.scope : rootScope, (element) => {
        if (top) top.element.children.push(element);
        else if (root) throw new XmlSyntaxError('the document has more than one root element');
        else root = element;
      });
    }
  }
  if (stack.length > 0) throw new XmlSyntaxError(`element ${stack[stack.length - 1]?.qname ?? ''} is not closed`);
  if (!root) throw new XmlSyntaxError('the document has no root element');
  return collapseAlternateContent(root)[0] as MammothXmlElement;
}

/** `<!-- … -->`, `<![CDATA[ … ]]>` (dropped, as mammoth's reader drops CDATA nodes) or `<!DOCTYPE …>`. */
function skipDeclaration(source: string, lt: number): number {
  if (source.startsWith('<!--', lt)) {
    const end = source.indexOf('-->', lt + 4);
    if (end === -1) throw new XmlSyntaxError('a comment is not closed');
    return end + 3;
  }
  if (source.startsWith('<![CDATA[', lt)) {
    const end = source.indexOf(']]>', lt + 9);
    if (end === -1) throw new XmlSyntaxError('a CDATA section is not closed');
    return end + 3;
  }
  const gt = source.indexOf('>', lt);
  if (gt === -1) throw new XmlSyntaxError('a declaration is not closed');
  // Looked for between `<!` and `>` only, so that many declarations stay linear.
  let bracket = -1;
  for (let p = lt + 2; p < gt && bracket === -1; p++) if (source.charCodeAt(p) === 91 /* [ */) bracket = p;
  if (bracket !== -1) {
    const end = source.indexOf(']>', bracket);
    if (end === -1) throw new XmlSyntaxError('a doctype is not closed');
    return end + 2;
  }
  return gt + 1;
}

function startTag(
  source: string,
  lt: number,
  stack: Frame[],
  namespaceMap: Record<string, string>,
  parentScope: Scope,
  attach: (element: MammothXmlElement) => void,
): number {
  const end = nameEnd(source, lt + 1);
  const qname = source.slice(lt + 1, end);
  if (qname === '') throw new XmlSyntaxError('a start tag has no name');
  const rawNames: string[] = [];
  const rawValues: string[] = [];
  // A Set once a tag has many attributes, so that a hostile tag cannot make the check quadratic.
  let seen: Set<string> | undefined;
  let scope = parentScope;
  let p = end;
  let closed = false;
  for (;;) {
    while (p < source.length && isSpace(source.charCodeAt(p))) p++;
    const c = source.charCodeAt(p);
    if (c === 62 /* > */) {
      p++;
      break;
    }
    if (c === 47 /* / */ && source.charCodeAt(p + 1) === 62) {
      closed = true;
      p += 2;
      break;
    }
    if (p >= source.length || c === 60 || c === 61 || c === 47) throw new XmlSyntaxError(`start tag ${qname} is malformed`);
    const attrEnd = nameEnd(source, p);
    const attrName = source.slice(p, attrEnd);
    p = attrEnd;
    while (p < source.length && isSpace(source.charCodeAt(p))) p++;
    if (source.charCodeAt(p) !== 61 /* = */) throw new XmlSyntaxError(`attribute ${attrName} has no value`);
    p++;
    while (p < source.length && isSpace(source.charCodeAt(p))) p++;
    const quote = source.charCodeAt(p);
    if (quote !== 34 && quote !== 39) throw new XmlSyntaxError(`attribute ${attrName} is not quoted`);
    const close = source.indexOf(quote === 34 ? '"' : "'", p + 1);
    if (close === -1) throw new XmlSyntaxError(`attribute ${attrName} is not closed`);
    if (!seen && rawNames.length >= 16) seen = new Set(rawNames);
    if (seen ? seen.has(attrName) : rawNames.includes(attrName)) throw new XmlSyntaxError(`attribute ${attrName} is repeated`);
    seen?.add(attrName);
    const value = decode(source.slice(p + 1, close).replace(/[\t\n\r]/g, ' '));
    rawNames.push(attrName);
    rawValues.push(value);
    if (attrName === 'xmlns' || attrName.startsWith('xmlns:')) {
      if (scope === parentScope) scope = newScope(new Map(parentScope.bindings));
      scope.bindings.set(attrName === 'xmlns' ? '' : attrName.slice(6), value);
    }
    p = close + 1;
  }
  const attributes: Record<string, string> = Object.create(null) as Record<string, string>;
  for (let i = 0; i < rawNames.length; i++) attributes[resolve(scope, rawNames[i] as string, false, namespaceMap)] = rawValues[i] as string;
  const element = new Element(resolve(scope, qname, true, namespaceMap), attributes, []);
  attach(element);
  if (!closed) stack.push({ qname, element, scope });
  return p;
}
