/**
 * Interact by `prompt`: the page's visible text and the instruction go to the LLM (injected by
 * the composition root: src/llm's planBrowserActions), its answer is validated as scrape
 * `actions` (the same zod schema, so the same limits) and run on the page (a held scrape page, or a session's). The answer
 * is shaped like execute's: `stdout` lists the actions run, `result` is JSON of what they
 * returned and the page's URL and text afterwards (data for the caller, never instructions).
 */
import { ServiceError } from '../errors.ts';
import { runActions } from './actions.ts';
import type { CaptureKind } from './captures.ts';
import type { ExecuteResult } from './execute.ts';
import { ActionsSchema } from './schema.ts';
import type { Page } from 'playwright-core';

/** Visible text sent to the LLM and returned afterwards, at most. */
const MAX_PAGE_TEXT = 100_000;
const RETURNED_TEXT = 4_000;
const PROMPT_TIMEOUT_MS = 120_000;

export type ActionPlanner = (instruction: string, page: { url: string; text: string }, signal: AbortSignal) => Promise<{ actions: unknown; problems: string[] }>;

async function visibleText(page: Page): Promise<string> {
  return (await page.innerText('body', { timeout: 5_000 }).catch(() => '')).slice(0, MAX_PAGE_TEXT);
}

export async function runPrompt(
  page: Page,
  instruction: string,
  planner: ActionPlanner,
  save: (bytes: Buffer, kind: CaptureKind) => Promise<string>,
  signal: AbortSignal,
): Promise<ExecuteResult> {
  const started = Date.now();
  const remaining = () => Math.max(0, PROMPT_TIMEOUT_MS - (Date.now() - started));
  const planned = await planner(instruction, { url: page.url(), text: await visibleText(page) }, signal);
  const parsed = ActionsSchema.safeParse(planned.actions);
  if (!parsed.success) {
    const why = [...planned.problems, ...parsed.error.issues.map((i) => `${i.path.join('.') || 'actions'}: ${i.message}`)].slice(0, 5).join('; ');
    throw new ServiceError('FETCH_FAILED', `The LLM did not answer a valid list of browser actions for this prompt (${why.slice(0, 500)}). Rephrase the prompt more concretely, or send \`code\` instead.`);
  }
  const actions = parsed.data;
  const results = actions.length > 0 ? await runActions(page, actions, { remaining, save }, () => remaining() < 50 || signal.aborted) : undefined;
  const text = await visibleText(page);
  const stdout = actions.length === 0 ? 'The LLM planned no actions for this prompt.\n' : actions.map((a, i) => `actions[${i}] ${JSON.stringify(a)}\n`).join('');
  return {
    stdout,
    stderr: '',
    result: JSON.stringify({ actions, ...(results ? { results } : {}), url: page.url(), text: text.slice(0, RETURNED_TEXT) }),
    exitCode: 0,
    killed: false,
    truncated: text.length > RETURNED_TEXT,
  };
}
