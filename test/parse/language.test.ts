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
