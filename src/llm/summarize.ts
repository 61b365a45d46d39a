/**
 * The abstractive summary: one call when the document fits the context budget, map-reduce past
 * it (each chunk summarised, then the partial summaries summarised together, in rounds while
 * they are still too long for one call).
 */
import { chunkBudget } from './budget.ts';
import { DATA_RULE, documentBlock, type ChatMessage } from './messages.ts';
import { chat } from './provider.ts';
import type { LlmRun } from './settings.ts';
import { providerFailure } from './structured.ts';
import { chunkText } from './tokens.ts';

const SYSTEM = `You write faithful, concise summaries of documents. ${DATA_RULE} Write in the language of the document. Say only what the document says; do not add opinions or facts from elsewhere. Answer with the summary text only.`;
const WHOLE = 'Summarize the document in one paragraph of at most about 150 words, keeping its main points, names and figures.';
const PART = 'This is one part of a longer document. Summarize this part in a few sentences, keeping its main points, names and figures.';
const REDUCE = 'These are summaries of consecutive parts of one document, in order. Combine them into one summary of the whole document: one paragraph of at most about 150 words.';
const MIDDLE = 'These are summaries of consecutive parts of one document, in order. Combine them into one shorter summary of these parts, keeping the main points, names and figures.';
/** Rounds of reduction before the last call takes what remains, cut to the budget. */
const MAX_ROUNDS = 4;

function messages(task: string, block: string): ChatMessage[] {
  return [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: `${task}\n\n${block}` },
  ];
}

async function ask(run: LlmRun, task: string, block: string): Promise<string> {
  return (await chat(run, messages(task, block), { kind: 'text' })).trim();
}

export async function summarize(run: LlmRun, text: string): Promise<string> {
  if (text.trim() === '') return '';
  try {
    const budget = chunkBudget(run.settings, SYSTEM + REDUCE);
    const chunks = chunkText(text, budget);
    if (chunks.length === 1) return await ask(run, WHOLE, documentBlock(text, 'kind="whole"'));
    let partials = await Promise.all(chunks.map((c, i) => ask(run, PART, documentBlock(c, `part="${i + 1} of ${chunks.length}"`))));
    for (let round = 0; ; round++) {
      const joined = partials.map((p, i) => `Summary of part ${i + 1}:\n${p}`).join('\n\n');
      const groups = chunkText(joined, budget);
      if (groups.length === 1 || round >= MAX_ROUNDS) return await ask(run, REDUCE, documentBlock(groups[0] ?? joined, 'kind="part summaries"'));
      partials = await Promise.all(groups.map((g) => ask(run, MIDDLE, documentBlock(g, 'kind="part summaries"'))));
    }
  } catch (err) {
    throw providerFailure(run, err);
  }
}
