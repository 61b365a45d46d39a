/**
 * The markdown writer: the intermediate document → GitHub-flavoured markdown.
 *
 * Built on turndown with our own rules (markdown/rules.ts, code.ts, tables.ts), fed the linkedom
 * node directly: turndown clones the node it is given (so the document is not modified) and only
 * needs basic DOM traversal, which linkedom provides; nothing is serialized and re-parsed.
 */
import TurndownService from 'turndown';
import { contentBody } from './html.ts';
import { codeRules } from './markdown/code.ts';
import { limitDepth } from './markdown/depth.ts';
import { escapeMarkdownText } from './markdown/escape.ts';
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
  });
  service.escape = escapeMarkdownText;
  // addRule puts a rule first, so later groups win over earlier ones on the same element.
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
  const input = limitDepth(root) as HTMLElement;
  return postProcess(service.turndown(input));
}
