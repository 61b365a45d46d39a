// pdfjs-dist ships no types for its worker module; pdf.js only needs it as an opaque object.
declare module 'pdfjs-dist/legacy/build/pdf.worker.mjs' {
  export const WorkerMessageHandler: unknown;
}
