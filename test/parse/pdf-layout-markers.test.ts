/**
 * List markers at the start of a paragraph's text (layout/markers.ts): an asterisk is a bullet
 * only with a space after it, like a dash; glued to a word it is part of the text — IBM's
 * "*ALLOBJ" special authority wrapped to a line's start (redp5110), a lab manual's
 * "***Congratulations…***" (bench 01030000000121).
 */
import { describe, expect, it } from 'vitest';
import { listMarker } from '../../src/parse/readers/pdf/layout/markers.ts';

describe('pdf layout: list markers', () => {
  it('reads an asterisk followed by a space as a bullet', () => {
    expect(listMarker('* Database performance and scalability')).toEqual({ kind: 'ul', length: 2 });
    expect(listMarker('- Store on ice')).toEqual({ kind: 'ul', length: 2 });
    expect(listMarker('• acquisitions and list curation')).toEqual({ kind: 'ul', length: 2 });
  });

  it('leaves an asterisk glued to the word after it to the text', () => {
    expect(listMarker('*ALLOBJ access still can directly access all of the data')).toBeUndefined();
    expect(listMarker('***Congratulations, you have just completed the miniprep!!!***')).toBeUndefined();
  });
});
