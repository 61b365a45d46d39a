/**
 * `onlyMainContent`, first half: removes page furniture of a web page — navigation, page
 * header and footer, sidebars, share bars, breadcrumbs, "related posts", comment sections and
 * forms, newsletter boxes, pop-ups — recognised by tag, ARIA role, and class/id words (split on
 * `-`/`_`, matched word by word: `site-footer` is a footer, `footnote` is not).
 *
 * Guards, so that real content is not dropped:
 *  - `html`, `body`, `main`, `article`, `[role=main]`, `[itemprop=articleBody]` and the
 *    include roots chosen by `includeTags` are never removed;
 *  - an element that holds the page's title heading is kept (the article's `<header>`);
 *  - an element holding most of the page's text is kept (a wrapper named `has-sidebar`);
 *  - nothing inside `<pre>`/`<code>` is looked at (highlighters name spans `comment`, `nav`…);
 *  - "soft" words (menu, widget, promo, …) only remove link-heavy elements.
 */
import type { ContentStats } from './content-stats.ts';
import { classAndId, isInside, removeAll, walkElements } from './dom.ts';

const BOILERPLATE_TAGS = new Set(['nav', 'aside', 'header', 'footer', 'form', 'menu', 'dialog', 'select', 'textarea', 'input']);

const BOILERPLATE_ROLES = new Set(['navigation', 'banner', 'contentinfo', 'complementary', 'search', 'menu', 'menubar', 'toolbar', 'dialog', 'alertdialog', 'tablist']);

/** Class/id words that mark furniture wherever they appear. */
const HARD_WORDS = new Set([
  'nav', 'navbar', 'navigation', 'topnav', 'sitenav', 'breadcrumb', 'breadcrumbs', 'masthead', 'header', 'footer', 'colophon',
  'sidebar', 'sidebars', 'share', 'sharing', 'sharebar', 'sharedaddy', 'addthis', 'shareaholic', 'social', 'socials',
  'related', 'relatedposts', 'recommended', 'recommendations', 'commentform', 'respond', 'disqus',
  'newsletter', 'subscribe', 'subscription', 'signup', 'mailchimp', 'popup', 'modal', 'overlay', 'skiplink',
]);

/** Class/id words that mark furniture only when the element is mostly links. */
const SOFT_WORDS = new Set(['menu', 'menus', 'widget', 'widgets', 'promo', 'trending', 'popular', 'mostread', 'toolbar', 'pagination', 'pager', 'tags', 'tagcloud', 'footnav', 'rail']);

/** Whole class/id tokens (several words) that mark furniture. */
const HARD_TOKENS = /^(?:.*[-_])?(?:comment[-_]?(?:form|respond|reply[-_]?form)|comments?[-_]?(?:button|count|link|toggle)|more[-_]?from|skip[-_]?(?:link|to[-_]content|nav)|read[-_]?next|more[-_]?stories|most[-_]?(?:read|popular)|post[-_]?navigation|author[-_]?box|jp[-_]relatedposts)(?:[-_].*)?$/;

const PROTECTED_TAGS = new Set(['html', 'body', 'main', 'article']);

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

function classify(element: Element): Verdict {
  const tag = element.localName;
  if (BOILERPLATE_TAGS.has(tag)) return 'hard';
  const role = element.getAttribute('role')?.trim().toLowerCase();
  if (role && BOILERPLATE_ROLES.has(role)) return 'hard';
  let soft = false;
  for (const token of classAndId(element)) {
    if (HARD_WORDS.has(token) || HARD_TOKENS.test(token)) return 'hard';
    for (const word of wordsOf(token)) {
      if (HARD_WORDS.has(word)) return 'hard';
      if (SOFT_WORDS.has(word)) soft = true;
    }
    if (SOFT_WORDS.has(token)) soft = true;
  }
  return soft ? 'soft' : undefined;
}

function isProtected(element: Element): boolean {
  if (PROTECTED_TAGS.has(element.localName)) return true;
  if (element.getAttribute('role')?.trim().toLowerCase() === 'main') return true;
  return element.getAttribute('itemprop')?.trim() === 'articleBody';
}

export interface BoilerplateContext {
  stats: ContentStats;
  titleHeading: Element | undefined;
  /** Elements the user chose with `includeTags`: never removed themselves. */
  includeRoots: readonly Element[] | undefined;
}

export function removeBoilerplate(body: Element, ctx: BoilerplateContext): number {
  const roots = new Set(ctx.includeRoots ?? []);
  const doomed: Element[] = [];
  walkElements(body, (element) => {
    const tag = element.localName;
    if (tag === 'pre' || tag === 'code') return false;
    if (roots.has(element) || isProtected(element)) return;
    const verdict = classify(element);
    if (verdict === undefined) return;
    if (ctx.stats.share(element) > MAX_REMOVED_SHARE) return;
    if (ctx.titleHeading && isInside(ctx.titleHeading, element)) return;
    if (verdict === 'soft' && ctx.stats.linkDensity(element) < SOFT_LINK_DENSITY) return;
    doomed.push(element);
    return false;
  });
  let removedText = 0;
  for (const element of doomed) removedText += ctx.stats.get(element).text;
  const totalText = ctx.stats.get(body).text;
  if (totalText - removedText < Math.min(MIN_REMAINING_TEXT, 0.1 * totalText)) return 0;
  return removeAll(doomed);
}
