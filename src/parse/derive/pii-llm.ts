/**
 * The LLM side of redactPII (docs/pii.md "With an LLM"): a ModelSpans for the PII subsystem. The
 * model reads the document's text once; the entities it names are located again in every text the
 * subsystem asks about (the document, then the raw HTML view), so the raw HTML is never sent.
 */
import { findPiiEntities, locateEntities, type LlmRun, type PiiEntity } from '../../llm/index.ts';
import type { ModelSpans, PiiGroup } from './pii/index.ts';

export function piiModel(run: LlmRun, tuning: 'precision' | 'recall', problems: string[]): ModelSpans {
  let entities: Promise<PiiEntity[]> | undefined;
  return async (text, groups) => {
    entities ??= findPiiEntities(run, text, [...groups], tuning).then((r) => {
      problems.push(...r.problems);
      return r.entities;
    });
    return locateEntities(text, await entities).flatMap((s) => (groups.has(s.group as PiiGroup) ? [{ start: s.start, end: s.end, group: s.group as PiiGroup }] : []));
  };
}
