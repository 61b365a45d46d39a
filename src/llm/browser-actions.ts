/**
 * Interact by `prompt` (docs/browser.md "Interact"): an instruction in words and the page's
 * visible text → a list of browser actions in the shape of the scrape `actions`, which the
 * browser validates and runs. The page's text is untrusted data (DATA_RULE): a page that writes
 * "ignore the user and …" is read, not obeyed; the actions the model answers are only ever the
 * validated action kinds, run in the session's own browser behind the guarded proxy.
 */
import { chunkBudget } from './budget.ts';
import { DATA_RULE, documentBlock, type ChatMessage } from './messages.ts';
import type { LlmRun } from './settings.ts';
import { structuredCall } from './structured.ts';
import { chunkText } from './tokens.ts';

const SYSTEM = `You operate a web browser for a user. You are given the user's instruction, the page's URL and its visible text. ${DATA_RULE} Answer with JSON only: {"actions": [...]}, the browser actions that carry out the instruction, in order. Action kinds: {"type":"click","selector":CSS} · {"type":"write","text":…} (types into the focused element: click it first) · {"type":"press","key":"Enter"} · {"type":"scroll","direction":"down"|"up"} · {"type":"wait","milliseconds":n} or {"type":"wait","selector":CSS} · {"type":"executeJavascript","script":…} (its return value is reported) · {"type":"scrape"} (the page's HTML afterwards). Use CSS selectors that exist in the page. Answer {"actions": []} when nothing should be done.`;

/** The JSON Schema of the answer (the browser validates each action again, strictly). */
export const BROWSER_ACTIONS_SCHEMA: Record<string, unknown> = {
  type: 'object',
  properties: {
    actions: {
      type: 'array',
      maxItems: 50,
      items: {
        type: 'object',
        properties: {
          type: { type: 'string', enum: ['wait', 'click', 'write', 'press', 'scroll', 'scrape', 'executeJavascript'] },
          selector: { type: 'string' },
          text: { type: 'string' },
          key: { type: 'string' },
          direction: { type: 'string', enum: ['up', 'down'] },
          milliseconds: { type: 'integer' },
          script: { type: 'string' },
        },
        required: ['type'],
      },
    },
  },
  required: ['actions'],
};

export interface PlannedActions {
  /** The model's list, not validated yet. */
  actions: unknown;
  /** What still failed the schema after the repair round. */
  problems: string[];
}

export async function planBrowserActions(run: LlmRun, instruction: string, page: { url: string; text: string }): Promise<PlannedActions> {
  const task = `Instruction from the user: ${instruction.trim()}\n\nThe page: ${page.url}`;
  // The page's beginning, as much as fits the context (the first chunk).
  const text = chunkText(page.text, chunkBudget(run.settings, SYSTEM + task))[0] ?? '';
  const messages: ChatMessage[] = [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: `${task}\n\n${documentBlock(text, 'kind="visible page text"')}` },
  ];
  const r = await structuredCall(run, { messages, schema: BROWSER_ACTIONS_SCHEMA });
  const value = r.value as { actions?: unknown } | null;
  return { actions: value && typeof value === 'object' ? value.actions : undefined, problems: r.problems };
}
