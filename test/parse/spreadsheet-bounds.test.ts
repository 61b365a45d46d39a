import { describe, expect, it } from 'vitest';
import { parse } from '../../src/parse/index.ts';
import { parseOptions } from '../../src/parse/options.ts';
import { buildZip, deflateRepeated, zipEntry } from '../helpers/hostile-files.ts';

describe('spreadsheet bounds', () => {
  it('an .xlsb (read by SheetJS) whose workbook.bin declares 200 KB and inflates to 1 GiB is refused in seconds', async () => {
    const bomb = buildZip([
      zipEntry('[Content_Types].xml', '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>'),
      { name: 'xl/workbook.bin', data: deflateRepeated('', '\u0001\u0002bomb', 1024 * 1024 * 1024), method: 8, declaredSize: 200 * 1024 },
    ]);
    const started = Date.now();
    await expect(parse({ bytes: bomb, filename: 'bomb.xlsx' }, parseOptions({}))).rejects.toMatchObject({
      code: 'CORRUPT_FILE',
      message: expect.stringMatching(/xl\/workbook\.bin\) expands past its declared size of 204800 bytes/),
    });
    expect(Date.now() - started).toBeLessThan(10_000);
  }, 60_000);
});
