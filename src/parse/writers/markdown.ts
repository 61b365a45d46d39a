/**
 * The markdown writer: the intermediate document → GitHub-flavoured markdown.
 *
 * Built on turndown with our own rules (markdown/rules.ts, code.ts, tables.ts). Turndown works on
 * linkedom nodes as they are, but it clones its input, and cloning linkedom nodes is costly; so
 * the writer gives it a light copy of the tree built in one walk over the linkedom nodes
 * (markdown/light-dom.ts). Nothing is serialized and re-parsed, and the document is not modified.
 */
import TurndownService from 'turndown';
import { contentBody } from './html.ts';
import { codeRules } from './markdown/code.ts';
import { escapeMarkdownText } from './markdown/escape.ts';
import type { MdElement } from './markdown/light-dom.ts';
import { lightTree } from './markdown/light-tree.ts';
import { postProcess } from './markdown/post-process.ts';
import { baseRules } from './markdown/rules.ts';
import { tableRules } from './markdown/tables.ts';

function createService(): TurndownService {
  const service = new TurndownService({
    headingStyle: 'atx',
    bulletListMarker: '-',
    codeBlockStyle: 'fenced',
    fence: '```',
    emDelimiter: '*',
    strongDelimiter: '**',
    hr: '---',
    br: '  ',
    linkStyle: 'inlined',
    // Whitespace inside <code> is kept for the code rule, which decides how to write it.
    preformattedCode: true,
    // An empty block is a paragraph break, except an empty list item: it writes nothing, so the
    // list stays one list.
    blankReplacement: (_content, node) => {
      const el = node as unknown as MdElement;
      return el.isBlock && el.nodeName !== 'LI' ? '\n\n' : '';
    },
  });
  service.escape = escapeMarkdownText;
  // Our rules replace turndown's own (fewer filters to test per element); addRule puts a rule
  // first, so later groups win over earlier ones on the same element.
  service.rules.array.length = 0;
  for (const rules of [baseRules, codeRules, tableRules]) {
    for (const [name, rule] of Object.entries(rules)) service.addRule(name, rule);
  }
  return service;
}

/** The rules keep no state between calls (per-node data lives in WeakMaps), so one service serves all. */
let service: TurndownService | undefined;

export function toMarkdown(root: Element): string {
  // An empty <body> may be linkedom's stand-in for a body it did not find (see contentBody).
  if (root.nodeName === 'BODY' && root.firstChild === null) root = contentBody(root.ownerDocument);
  if (root.firstChild === null) return '';
  service ??= createService();
  const tree = lightTree(root) as unknown as HTMLElement;
  return postProcess(service.turndown(tree));
}
