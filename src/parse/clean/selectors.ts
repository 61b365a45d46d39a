/**
 * CSS selector checks for `includeTags` / `excludeTags`, against the same DOM the cleaners use,
 * so a selector that validates is one the cleaners can run.
 */
import { parseHTML } from 'linkedom';

let probe: Document | undefined;

export function isValidSelector(selector: string): boolean {
  probe ??= parseHTML('<!doctype html><html><body><p>probe</p></body></html>').document;
  try {
    probe.querySelectorAll(selector);
    return true;
  } catch {
    return false;
  }
}
