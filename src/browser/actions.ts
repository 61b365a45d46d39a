/**
 * Runs a scrape's `actions` on the page, in order, collecting `data.actions` (interface-v2):
 * `screenshots` and `pdfs` (capability URLs, or data: URLs under zeroDataRetention), `scrapes`
 * ({url, html} of the DOM at that point) and `javascriptReturns` ({type, value}).
 *
 * A failing action stops the list and answers 400 ACTION_FAILED naming `actions[i]`, its kind
 * and why (a selector that never appeared, a script that threw). Selectors of `click` and
 * `scroll` are waited for up to ELEMENT_WAIT_MS; `wait` with a selector up to MAX_WAIT_MS; all
 * within the request's `timeout`.
 */
import type { Page } from 'playwright-core';
import { ServiceError } from '../errors.ts';
import type { CaptureKind } from './captures.ts';
import { MAX_WAIT_MS, type Action, type ActionsResult } from './schema.ts';

/** How long `click` and `scroll` wait for their selector to match. */
export const ELEMENT_WAIT_MS = 5_000;

export interface ActionContext {
  /** Milliseconds left of the request's timeout. */
  remaining(): number;
  /** Keeps a capture; resolves with its URL (or data: URL). */
  save(bytes: Buffer, kind: CaptureKind): Promise<string>;
}

function describe(action: Action): string {
  switch (action.type) {
    case 'click':
      return `click '${action.selector.slice(0, 80)}'`;
    case 'wait':
      return action.selector ? `wait for '${action.selector.slice(0, 80)}'` : `wait ${action.milliseconds ?? 0} ms`;
    case 'scroll':
      return `scroll ${action.direction}${action.selector ? ` '${action.selector.slice(0, 80)}'` : ''}`;
    case 'press':
      return `press '${action.key}'`;
    default:
      return action.type;
  }
}

/** The first line of a Playwright error, without its call-log and colour codes. */
function reasonOf(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const line = (message.split('\n')[0] ?? '').replace(/\x1b\[[0-9;]*m/g, '').replace(/^[a-zA-Z.]+: /, '');
  return line.slice(0, 300) || 'unknown error';
}

function hint(action: Action): string {
  switch (action.type) {
    case 'click':
    case 'scroll':
      return ` Check the selector, or add a \`wait\` action with the selector before it (${ELEMENT_WAIT_MS} ms are waited here).`;
    case 'wait':
      return ' Check the selector, or raise `timeout`.';
    case 'executeJavascript':
      return ' The script threw or returned something that is not JSON; fix the script.';
    case 'press':
      return " Use a key name such as 'Enter', 'Tab', 'ArrowDown' or 'a'.";
    default:
      return '';
  }
}

/** Runs the script as an expression; a script with a top-level `return` runs as a function body. */
async function evaluate(page: Page, script: string): Promise<unknown> {
  try {
    return await page.evaluate(script);
  } catch (err) {
    if (!/Illegal return statement/.test(err instanceof Error ? err.message : '')) throw err;
    return await page.evaluate(`(async () => {\n${script}\n})()`);
  }
}

async function runOne(page: Page, action: Action, ctx: ActionContext, out: ActionsResult): Promise<void> {
  const bounded = (ms: number) => Math.max(1, Math.min(ms, ctx.remaining()));
  switch (action.type) {
    case 'wait':
      if (action.selector) await page.waitForSelector(action.selector, { state: 'visible', timeout: bounded(MAX_WAIT_MS) });
      else await page.waitForTimeout(bounded(action.milliseconds ?? 0));
      return;
    case 'click': {
      const locator = page.locator(action.selector);
      if (action.all) {
        await locator.first().waitFor({ state: 'attached', timeout: bounded(ELEMENT_WAIT_MS) });
        for (const one of await locator.all()) await one.click({ timeout: bounded(ELEMENT_WAIT_MS) });
      } else {
        await locator.first().click({ timeout: bounded(ELEMENT_WAIT_MS) });
      }
      return;
    }
    case 'write':
      await page.keyboard.type(action.text);
      return;
    case 'press':
      await page.keyboard.press(action.key);
      return;
    case 'scroll': {
      const sign = action.direction === 'up' ? -1 : 1;
      if (action.selector) {
        const element = page.locator(action.selector).first();
        await element.waitFor({ state: 'attached', timeout: bounded(ELEMENT_WAIT_MS) });
        await element.evaluate((el, s) => el.scrollBy(0, s * (el.clientHeight || 400)), sign);
      } else {
        await page.evaluate((s) => window.scrollBy(0, s * window.innerHeight), sign);
      }
      return;
    }
    case 'screenshot': {
      if (action.viewport) await page.setViewportSize(action.viewport);
      const jpeg = action.quality !== undefined;
      const bytes = await page.screenshot({ fullPage: action.fullPage ?? false, type: jpeg ? 'jpeg' : 'png', ...(jpeg ? { quality: action.quality } : {}), timeout: bounded(30_000) });
      out.screenshots.push(await ctx.save(bytes, jpeg ? 'jpeg' : 'png'));
      return;
    }
    case 'scrape':
      out.scrapes.push({ url: page.url(), html: await page.content() });
      return;
    case 'executeJavascript': {
      const value = await evaluate(page, action.script);
      out.javascriptReturns.push({ type: value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value, value: value ?? null });
      return;
    }
    case 'pdf': {
      const bytes = await page.pdf({ format: action.format ?? 'Letter', landscape: action.landscape ?? false, scale: action.scale ?? 1, printBackground: true });
      out.pdfs.push(await ctx.save(bytes, 'pdf'));
      return;
    }
  }
}

/**
 * Runs every action in order. `isTimeout` tells a failure caused by the request's deadline (then
 * the error is rethrown as is, for the caller to answer SCRAPE_TIMEOUT) from the action's own.
 */
export async function runActions(page: Page, actions: readonly Action[], ctx: ActionContext, isTimeout: () => boolean): Promise<ActionsResult> {
  const out: ActionsResult = { screenshots: [], scrapes: [], javascriptReturns: [], pdfs: [] };
  for (const [i, action] of actions.entries()) {
    try {
      await runOne(page, action, ctx, out);
    } catch (err) {
      if (isTimeout() || err instanceof ServiceError) throw err;
      throw new ServiceError('ACTION_FAILED', `actions[${i}] (${describe(action)}) failed: ${reasonOf(err)}.${hint(action)}`, { cause: err });
    }
  }
  return out;
}
