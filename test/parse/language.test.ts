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

describe('detectLanguage on short texts', () => {
  it('decides by function words in Latin script, and by a script only one language writes', () => {
    expect(detectLanguage('About us. A site that exists only for tests.')).toBe('en');
    expect(detectLanguage('Willkommen in unserem Laden. Wir verkaufen nur das beste Brot.')).toBe('de');
    expect(detectLanguage('Bienvenue dans notre boutique. Nous vendons du pain.')).toBe('fr');
    expect(detectLanguage('Bienvenido a nuestra tienda. Vendemos pan con amor para la ciudad.')).toBe('es');
    expect(detectLanguage('De winkel is open op maandag en het is fijn.')).toBe('nl');
    expect(detectLanguage('こんにちは、世界')).toBe('ja');
    expect(detectLanguage('안녕하세요')).toBe('ko');
    expect(detectLanguage('Καλημέρα')).toBe('el');
  });

  it('gives no answer when the short text does not allow one (trigrams alone call "A short page." French)', () => {
    expect(detectLanguage('A short page.')).toBeUndefined();
    expect(detectLanguage('Hello world')).toBeUndefined();
    expect(detectLanguage('Contact: info@example.com')).toBeUndefined();
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
