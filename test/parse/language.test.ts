import { describe, expect, it } from 'vitest';
import { detectLanguage, sampleText } from '../../src/parse/derive/language.ts';

describe('detectLanguage', () => {
  it('names the language of a paragraph with its ISO 639-1 code', () => {
    expect(detectLanguage('The quick brown fox jumps over the lazy dog while the farmer watches from the porch of his old house.')).toBe('en');
    expect(detectLanguage('Le gouvernement a annoncé mardi une série de mesures pour soutenir les entreprises touchées par la crise économique.')).toBe('fr');
    expect(detectLanguage('Die Bundesregierung hat am Dienstag neue Maßnahmen angekündigt, um die von der Krise betroffenen Unternehmen zu unterstützen.')).toBe('de');
  });

  it('gives no answer for text too short to judge', () => {
    expect(detectLanguage('Total 42')).toBeUndefined();
    expect(detectLanguage('12 34 56 78 90 12 34 56 78 90 12 34 56 78 90 12 34 56 78 90 12 34 56 78 90 12 34 56 78 90')).toBeUndefined();
  });
});

describe('sampleText', () => {
  it('collects text in document order and stops near the limit', async () => {
    const { parseHTML } = await import('linkedom');
    const { document } = parseHTML(`<!doctype html><html><head></head><body><h1>Title</h1><p>one <b>two</b></p>${'<p>filler text</p>'.repeat(5000)}</body></html>`);
    const sample = sampleText(document.body, 40);
    expect(sample.replace(/\s+/g, ' ').startsWith('Title one two filler text')).toBe(true);
    expect(sample.length).toBeLessThan(60);
  });
});
