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

describe('language of tables', () => {
  it('abstains on a sheet of names and figures, and reads the phrases in cells', async () => {
    const { parseHTML } = await import('linkedom');
    const rows = ['Blues STL 1', 'Flyers PHI 2', 'Maple Leafs TOR 13', 'Canadiens MTL 24', 'Penguins PIT 5', 'Bruins BOS 6', 'Rangers NYR 4', 'Kings LAK 2', 'Blackhawks CHI 6', 'Oilers EDM 5', 'Red Wings DET 11', 'Islanders NYI 4'];
    const sheet = `<table><tr><th>Team</th><th>Location</th><th>Stanley Cups</th></tr>${rows.map((r) => `<tr>${r.split(/ (?=[A-Z]{3}|\d)/).map((c) => `<td>${c}</td>`).join('')}</tr>`).join('')}</table>`;
    const { document: names } = parseHTML(`<!doctype html><html><body><h2>Stanley Cups</h2>${sheet}</body></html>`);
    expect(detectLanguage(sampleText(names.body))).toBeUndefined();

    const notes = ['The order was shipped on Monday morning', 'The customer asked for a refund after the delivery', 'Payment was received by the bank on time', 'The warehouse will restock the item next week'];
    const { document: phrases } = parseHTML(`<!doctype html><html><body><table>${notes.map((n, i) => `<tr><td>${i}</td><td>${n}</td></tr>`).join('')}</table></body></html>`);
    expect(detectLanguage(sampleText(phrases.body))).toBe('en');
  });
});
