/**
 * How OCR runs on this server. The doors build it from config (FOLIO_OCR_LANGUAGES) and hand it
 * to parse(); the core never reads the environment (test/architecture.test.ts).
 */
export interface OcrSettings {
  /** tesseract languages joined by `+` (`eng`, `eng+deu`); default `eng`. */
  languages?: string;
  /** Pages OCRed at once by one parse; default min(cores, 4). */
  concurrency?: number;
  /**
   * Where OCR writes its temporary files; default the system's. Each parse process gets its own
   * folder, removed by the pool when the process ends (src/limits/parse-pool.ts).
   */
  tempDir?: string;
}
