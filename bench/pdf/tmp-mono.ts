import fs from 'node:fs';
import { loadPdfjs, documentParameters } from '../../src/parse/readers/pdf/pdfjs.ts';
import { extractPage } from '../../src/parse/readers/pdf/extract.ts';
const pdfjs = await loadPdfjs();
for (const [file, pages] of [['olmocr/pdfs/small_page_size.pdf', [1]], ['docling/code_and_formula.pdf', [1, 2]], ['pdfjs/tracemonkey.pdf', [4, 5, 6]], ['docling/redp5110_sampled.pdf', [8,9,10,11,12,13]]] as const) {
  const doc = await pdfjs.getDocument(documentParameters(fs.readFileSync(`/work/shared/corpus/pdf/${file}`), { images: false })).promise;
  for (const n of pages) {
    if (n > doc.numPages) continue;
    const m = await extractPage(pdfjs, await doc.getPage(n), n);
    const mono = m.words.filter((w) => w.monospace && [...w.text].length >= 3);
    const per = mono.map((w) => (w.x1 - w.x0) / [...w.text].length / w.size).sort((a, b) => a - b);
    const q = (p: number) => per[Math.floor(p * (per.length - 1))]?.toFixed(3);
    console.log(file, n, 'mono words', mono.length, 'of', m.words.length, 'per-char/em q10', q(0.1), 'q50', q(0.5), 'q90', q(0.9));
  }
}
