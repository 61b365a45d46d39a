/**
 * `onlyMainContent`, first half: removes page furniture of a web page — navigation, page
 * header and footer, sidebars, share bars, breadcrumbs, "related posts", comment forms,
 * newsletter boxes, pop-ups — recognised by tag, ARIA role, and class/id words (split on
 * `-`/`_`, matched word by word: `site-footer` is a footer, `footnote` is not). Comment threads
 * are kept: on forums, issue trackers and Q&A pages they are the content (Firecrawl keeps them
 * too).
 *
 * Guards, so that real content is not dropped:
 *  - `html`, `body`, `main`, `article`, `[role=main]`, `[itemprop=articleBody]` are never
 *    removed; inside them an `<aside>` is a callout unless it is a box of links, and a
 *    `banner`/`contentinfo` role is not the page's header or footer;
 *  - an element that holds the page's title heading is kept (the article's `<header>`);
 *  - an element holding most of the page's text is kept (a wrapper named `has-sidebar`);
 *  - nothing inside `<pre>`/`<code>` is looked at (highlighters name spans `comment`, `nav`…),
 *    nor class words on table cells, nor utility-class variants (`md:hidden`);
 *  - "soft" words (menu, widget, promo, …) only remove link-heavy elements;
 *  - a class naming the hidden state (`hidden`, `d-none`, `…-hidden`) is a soft word (a hidden box
 *    of links goes, hidden prose such as an accordion's answers stays), and none at all when a
 *    responsive utility shows the element at some width (`hidden md:block`) or it is screen-reader
 *    text;
 *  - when everything looks like furniture (a link hub), nothing is removed.
 */
import type { PageIndex } from './page-index.ts';

const BOILERPLATE_TAGS = new Set(['nav', 'aside', 'header', 'footer', 'form', 'menu', 'dialog', 'select', 'textarea', 'input']);

const BOILERPLATE_ROLES = new Set(['navigation', 'banner', 'contentinfo', 'complementary', 'search', 'menu', 'menubar', 'toolbar', 'dialog', 'alertdialog']);

/** Class/id words that mark furniture wherever they appear. */
const HARD_WORDS = new Set([
  'nav', 'navbar', 'navigation', 'topnav', 'sitenav', 'breadcrumb', 'breadcrumbs', 'masthead', 'colophon',
  'sidebar', 'sidebars', 'share', 'sharing', 'sharebar', 'sharedaddy', 'addthis', 'shareaholic', 'social', 'socials',
  'relatedposts', 'recommended', 'recommendations', 'commentform', 'respond', 'disqus',
  'newsletter', 'subscribe', 'subscription', 'signup', 'mailchimp', 'popup', 'modal', 'skiplink',
]);

/** Class/id words that mark furniture only when the element is mostly links. */
const SOFT_WORDS = new Set(['overlay', 'menu', 'menus', 'widget', 'widgets', 'promo', 'trending', 'popular', 'mostread', 'toolbar', 'pagination', 'pager', 'tags', 'tagcloud', 'footnav', 'rail']);

/** Whole class/id tokens (several words) that mark furniture. */
const HARD_TOKENS = /^(?:.*[-_])?(?:comment[-_]?(?:form|respond|reply[-_]?form)|comments?[-_]?(?:button|count|link|toggle)|more[-_]?from|skip[-_]?(?:link|to[-_]content|nav)|read[-_]?next|more[-_]?stories|most[-_]?(?:read|popular)|post[-_]?navigation|author[-_]?box|jp[-_]relatedposts)(?:[-_].*)?$/;

/** "Related" boxes: `related`, `related-posts`, `relatedArticles`… but not `h2-related` (a paragraph tied to a heading). */
const RELATED_TOKEN = /^related(?:[-_]?(?:posts?|articles?|stories|content|links|items|news|reading|entries|videos|products|topics))?(?:[-_].*)?$/;

/**
 * Page header and footer tokens. The words alone are too common inside content (`card-header`,
 * `header_cell`, `entry-footer`), so only the page-level forms count: `header`, `site-footer`,
 * `global-header-wrapper`, …
 */
const PAGE_HEADER_FOOTER = /^(?:(?:site|page|global|main|top|bottom|blog|layout|region)[-_]?)?(?:header|footer)(?:[-_]?(?:wrapper|wrap|container|inner|outer|area|bar|nav|menu|links|top|bottom|main|region))?$/;

const PROTECTED_TAGS = new Set(['html', 'body', 'main', 'article']);

/** Table parts are data: class words on a cell (`header_cell`) say nothing about furniture. */
const TABLE_PARTS = new Set(['thead', 'tbody', 'tfoot', 'tr', 'td', 'th', 'caption', 'colgroup', 'col']);

/** The most a removed element may hold of the page's text. */
const MAX_REMOVED_SHARE = 0.5;
/**
 * When removing every match would leave less than this many visible characters (and less than a
 * tenth of the page), the page is all furniture (a link hub, a search page): nothing is removed.
 */
const MIN_REMAINING_TEXT = 100;
/** Link density above which a "soft" match is furniture. */
const SOFT_LINK_DENSITY = 0.5;

function wordsOf(token: string): string[] {
  return token.split(/[-_:.]+/).filter(Boolean);
}

type Verdict = 'hard' | 'soft' | undefined;
type TokenVerdict = Verdict | 'hidden' | 'shown';

/**
 * A class that names the element's hidden state: `hidden`, `is-hidden`, `d-none`, `hide`, and
 * names that end in it (`mw-hidden-cats-hidden`: Wikipedia's hidden maintenance categories,
 * hidden by a stylesheet folio does not load). Screen-reader text (`visually-hidden`, `sr-only`)
 * is meant to be read, and is kept.
 */
const HIDDEN_STATE = /^(?:(?:.*[-_])?hidden|d[-_]none|hide|is[-_]hide)$/;
const READ_ALOUD = /^(?:visually[-_]?hidden|sr[-_]only|screen[-_]reader[-_]text|a11y[-_]hidden)$/;
/** A responsive utility that shows the element at some width (`md:block`, `d-lg-flex`): `hidden` beside it is responsive. */
const SHOWN_AT_WIDTH = /^(?:(?:sm|md|lg|xl|2xl):(?:block|flex|grid|inline|inline-block|inline-flex|table|contents)|d-(?:sm|md|lg|xl|xxl)-(?:block|flex|grid|inline|inline-block|inline-flex|table))$/;

function classifyToken(token: string): TokenVerdict {
  if (SHOWN_AT_WIDTH.test(token)) return 'shown';
  // Utility-class variants (`md:hidden`, `[&_.newsletter]:hidden`) describe styling, not roles.
  if (token.includes(':') || token.includes('[')) return undefined;
  if (HIDDEN_STATE.test(token) && !READ_ALOUD.test(token)) return 'hidden';
  if (HARD_WORDS.has(token) || HARD_TOKENS.test(token) || PAGE_HEADER_FOOTER.test(token) || RELATED_TOKEN.test(token)) return 'hard';
  let soft = SOFT_WORDS.has(token);
  for (const word of wordsOf(token)) {
    if (HARD_WORDS.has(word)) return 'hard';
    if (SOFT_WORDS.has(word)) soft = true;
  }
  return soft ? 'soft' : undefined;
}

/** Class names repeat across a page: each distinct token is judged once per page. */
type TokenVerdicts = Map<string, TokenVerdict>;

function classify(index: PageIndex, i: number, verdicts: TokenVerdicts): Verdict {
  const tag = index.tags[i] as string;
  if (BOILERPLATE_TAGS.has(tag)) {
    // An <aside> inside an article is a callout or a pull quote, unless it is a box of links.
    if (tag === 'aside' && insideContent(index, i)) return classifyTokens(index, i, verdicts) ?? 'soft';
    return 'hard';
  }
  const attrs = index.attrs[i];
  if (!attrs || TABLE_PARTS.has(index.tags[i] as string)) return undefined;
  const role = attrs.role?.trim().toLowerCase();
  if (role && BOILERPLATE_ROLES.has(role)) {
    // Page landmarks only exist at page level: a "banner" or "contentinfo" inside the main
    // content or an article is not the page's header or footer (search result cards use it).
    if (!(SCOPED_ROLES.has(role) && insideContent(index, i))) return 'hard';
  }
  return classifyTokens(index, i, verdicts);
}

function classifyTokens(index: PageIndex, i: number, verdicts: TokenVerdicts): Verdict {
  let soft = false;
  let hidden = false;
  let shown = false;
  for (const token of index.tokens(i)) {
    let verdict = verdicts.get(token);
    if (!verdicts.has(token)) {
      verdict = classifyToken(token);
      verdicts.set(token, verdict);
    }
    if (verdict === 'hard') return 'hard';
    if (verdict === 'soft') soft = true;
    if (verdict === 'hidden') hidden = true;
    if (verdict === 'shown') shown = true;
  }
  // Hidden boxes of links (hidden categories, collapsed menus) are furniture; hidden prose (an
  // accordion's answers, a tab's panel) is content a reader opens: soft, so only the former go.
  return soft || (hidden && !shown) ? 'soft' : undefined;
}

const SCOPED_ROLES = new Set(['banner', 'contentinfo']);

function insideContent(index: PageIndex, i: number): boolean {
  for (let p = index.parent[i] as number; p > 0; p = index.parent[p] as number) {
    if (isProtected(index, p)) return true;
  }
  return false;
}

function isProtected(index: PageIndex, i: number): boolean {
  if (PROTECTED_TAGS.has(index.tags[i] as string)) return true;
  const attrs = index.attrs[i];
  if (attrs?.role?.trim().toLowerCase() === 'main') return true;
  return attrs?.itemprop?.trim() === 'articleBody';
}

/** `titleHeading`: position of the page's title heading in the index, if it has one. */
export function removeBoilerplate(index: PageIndex, titleHeading: number | undefined): number {
  const verdicts: TokenVerdicts = new Map();
  const doomed: number[] = [];
  index.forEach((i) => {
    const tag = index.tags[i];
    if (tag === 'pre' || tag === 'code') return false;
    if (isProtected(index, i)) return;
    const verdict = classify(index, i, verdicts);
    if (verdict === undefined) return;
    if (index.share(i) > MAX_REMOVED_SHARE) return;
    if (titleHeading !== undefined && index.contains(i, titleHeading)) return;
    if (verdict === 'soft' && index.linkDensity(i) < SOFT_LINK_DENSITY) return;
    doomed.push(i);
    return false;
  });
  let removedText = 0;
  for (const i of doomed) removedText += index.text(i);
  const totalText = index.text(0);
  if (totalText - removedText < Math.min(MIN_REMAINING_TEXT, 0.1 * totalText)) return 0;
  for (const i of doomed) index.remove(i);
  return doomed.length;
}
