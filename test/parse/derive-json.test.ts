/**
 * The offline `json` format (src/parse/derive/json): a schema filled from the document's own
 * structure. Real corpus documents read by the real readers (an invoice PDF, a table PDF, an
 * HTML data table, a paper's metadata), and documents built here for key: value lines,
 * definition lists, nested objects, type coercion and emptyFields. Every result validates
 * against its schema (required aside) with ajv.
 */
import path from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { toBoolean, toDate, toNumber } from '../../src/parse/derive/json/coerce.ts';
import { offlineJson } from '../../src/parse/derive/json/offline.ts';
import { piiSettings, redactRead } from '../../src/parse/derive/pii/index.ts';
import { documentFromHtml, emptyMetadata, type DocumentMetadata, type ReadResult } from '../../src/parse/document.ts';
import { readCorpus } from '../helpers/corpus.ts';
import { readDocument } from '../helpers/read-document.ts';

type Schema = Record<string, unknown>;

async function corpusRead(file: string, filename = path.basename(file)): Promise<ReadResult> {
  return readDocument(readCorpus(file), filename);
}

function built(bodyHtml: string, metadata: Partial<DocumentMetadata> = {}): ReadResult {
  return { document: documentFromHtml(bodyHtml, 'en'), metadata: { ...emptyMetadata(), ...metadata }, warnings: [], rawHtml: '' };
}

function withoutRequired(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutRequired);
  if (typeof schema !== 'object' || schema === null) return schema;
  return Object.fromEntries(Object.entries(schema).filter(([k]) => k !== 'required').map(([k, v]) => [k, withoutRequired(v)]));
}

const ajv = new Ajv({ strict: false, validateFormats: false });

/** The result validates against the schema, `required` aside (the fields it could not fill). */
function expectValid(schema: Schema, json: unknown): void {
  const validate = ajv.compile(withoutRequired(schema) as Schema);
  expect(validate(json), ajv.errorsText(validate.errors)).toBe(true);
}

const INVOICE_SCHEMA: Schema = {
  type: 'object',
  properties: {
    title: { type: 'string' },
    date: { type: 'string', format: 'date' },
    termsOfPayment: { type: 'string' },
    localSalesRep: { type: 'string' },
    total: { type: 'number' },
    items: {
      type: 'array',
      items: {
        type: 'object',
        required: ['description', 'amount'],
        properties: {
          item: { type: 'integer' },
          description: { type: 'string' },
          quantity: { type: 'integer' },
          unitPrice: { type: 'number', title: 'Price' },
          amount: { type: 'number' },
        },
      },
    },
  },
};

describe('offline json on corpus documents', () => {
  it('an invoice PDF: its line items from the table (the unlabelled total row left out), labelled values and metadata', async () => {
    const read = await corpusRead('pdf/opendataloader-pdf/PDFUA-Ref-2-02_Invoice.pdf');
    const result = offlineJson(read, INVOICE_SCHEMA);
    if (!result) throw new Error('nothing matched');
    const json = result.json as { items: Record<string, unknown>[] } & Record<string, unknown>;
    expect(json.items).toHaveLength(7);
    expect(json.items[0]).toEqual({ item: 1, description: 'Super Kite', quantity: 2, unitPrice: 20, amount: 40 });
    expect(json.items[6]).toEqual({ item: 7, description: 'Free Gift', quantity: 1, unitPrice: 0, amount: 0 });
    expect(json.items.reduce((sum, i) => sum + (i.amount as number), 0)).toBe(845);
    expect(json.termsOfPayment).toBe('30 days net');
    expect(json.localSalesRep).toBe('Lucy Irwin');
    expect(json.title).toBe('Invoice for John Q. Doe - Kraxi Systems, Inc.');
    expect(json.date).toBe('2020-01-08');
    // The total stands in the table without a label: nothing says it is the total, so it stays empty.
    expect(result.emptyFields).toEqual(['/total']);
    expectValid(INVOICE_SCHEMA, json);
  });

  it('a table PDF: rows with thousands separators as integers, the Total row left out', async () => {
    const schema: Schema = {
      type: 'object',
      properties: {
        observers: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              no: { type: 'integer' },
              organization: { type: 'string', title: 'Name of organization' },
              accredited: { type: 'integer', title: 'Number of accredited observers' },
            },
          },
        },
      },
    };
    const result = offlineJson(await corpusRead('pdf-bench/pdfs/01030000000045.pdf'), schema);
    const rows = (result?.json as { observers: Record<string, unknown>[] }).observers;
    expect(rows).toHaveLength(7);
    expect(rows[0]).toEqual({ no: 1, organization: 'Union of Youth Federations of Cambodia (UYFC)', accredited: 17266 });
    expect(rows.map((r) => r.organization)).not.toContain('Total');
    expect(rows.reduce((n, r) => n + (r.accredited as number), 0)).toBe(27926);
    expect(result?.emptyFields).toEqual([]);
    expectValid(schema, result?.json);
  });

  it('an HTML data table as a top-level array, matched by header names in another case and spelling', async () => {
    const schema: Schema = {
      type: 'array',
      items: { type: 'object', properties: { language: { type: 'string' }, year: { type: 'integer' }, typing: { type: 'string', enum: ['Static', 'Dynamic'] }, primary_use: { type: 'string' } } },
    };
    const result = offlineJson(await corpusRead('html/defuddle/fixtures/elements--data-table.html'), schema);
    const rows = result?.json as Record<string, unknown>[];
    expect(rows.length).toBeGreaterThanOrEqual(3);
    expect(rows[0]).toMatchObject({ language: 'Python', year: 1991, typing: 'Dynamic' });
    expect(rows.every((r) => typeof r.primary_use === 'string')).toBe(true);
    expectValid(schema, rows);
  });

  it('a workbook: a sheet of sales as rows with dates and numbers; two sheets with the same columns stay apart', async () => {
    const schema: Schema = {
      type: 'object',
      properties: { sales: { type: 'array', items: { type: 'object', properties: { product: { type: 'string' }, date: { type: 'string', format: 'date' }, quantity: { type: 'integer' }, revenue: { type: 'number' } } } } },
    };
    // A macro-enabled workbook (.xlsm) is an .xlsx package; folio accepts it under the .xlsx name.
    const sales = (offlineJson(await corpusRead('office/xlsx/docling-xlsx_02_sample_sales_data.xlsm', 'sales.xlsx'), schema)?.json as { sales: Record<string, unknown>[] }).sales;
    expect(sales[0]).toEqual({ product: 'Widget A', date: '2024-01-01', quantity: 5, revenue: 5000 });
    expect(sales.length).toBeGreaterThanOrEqual(20);
    expectValid(schema, { sales });
    const cups: Schema = { type: 'array', items: { type: 'object', properties: { team: { type: 'string' }, stanleyCups: { type: 'integer' } } } };
    expect(offlineJson(await corpusRead('office/xlsx/kreuzberg-stanley_cups.xlsx'), cups)?.json).toEqual([
      { team: 'Blues', stanleyCups: 1 },
      { team: 'Flyers', stanleyCups: 2 },
      { team: 'Maple Leafs', stanleyCups: 13 },
    ]);
  });

  it("a paper's title, authors, keywords (a list) and abstract section", async () => {
    const schema: Schema = {
      type: 'object',
      properties: {
        title: { type: 'string' },
        author: { type: 'string' },
        keywords: { type: 'array', items: { type: 'string' } },
        abstract: { type: 'string' },
        doi: { type: 'string' },
      },
    };
    const result = offlineJson(await corpusRead('pdf/opendataloader-pdf/PDFUA-Ref-2-03_AcademicAbstract.pdf'), schema);
    const json = result?.json as Record<string, unknown>;
    expect(json.title).toBe('More than just digital paper—hidden features of the PDF format');
    expect(json.author).toContain('Dietrich von Seggern');
    expect(json.keywords).toEqual(['PDF', 'Tagging', 'Machine-readable structure', 'Workfows', 'Document formats']);
    expect(json.abstract).toMatch(/^PDF has long been established as the de facto format/);
    expect(result?.emptyFields).toEqual(['/doi']);
    expectValid(schema, json);
  });
});

const ORDER = `
<h1>Order confirmation</h1>
<p>Order No.: A-2024-0117<br>Order date: 8 March 2024<br>Paid: yes<br>Discount: 12.5%<br>Grand total: 1.234,56 €</p>
<h2>Customer details</h2>
<p>Name: Amaka Okafor</p><p>E-mail: amaka@example.org</p>
<h2>Seller</h2>
<dl><dt>Name</dt><dd>Lagos Lamps Ltd</dd><dt>VAT ID</dt><dd>NG-448812</dd></dl>
<table><thead><tr><th>SKU</th><th>Qty</th><th>Unit price (€)</th><th>In stock</th></tr></thead>
<tbody><tr><td>L-100</td><td>2</td><td>1,050.00</td><td>✓</td></tr>
<tr><td>L-200</td><td>1</td><td>(see note)</td><td>no</td></tr>
<tr><td>L-300</td><td>3</td><td>61.52</td><td>yes</td></tr>
<tr><td colspan="2">Subtotal</td><td>1,234.56</td><td></td></tr></tbody></table>`;

const ORDER_SCHEMA: Schema = {
  type: 'object',
  properties: {
    orderNumber: { type: 'string' },
    order_date: { type: 'string', format: 'date' },
    paid: { type: 'boolean' },
    discount: { type: 'number' },
    grandTotal: { type: 'number' },
    customer: { type: 'object', properties: { name: { type: 'string' }, email: { type: 'string', format: 'email' }, phone: { type: 'string' } } },
    seller: { type: 'object', properties: { name: { type: 'string' }, 'vat id': { type: 'string' } } },
    shipping: { type: 'object', properties: { carrier: { type: 'string' } } },
    'lines/items': {
      type: 'array',
      items: { type: 'object', properties: { sku: { type: 'string' }, quantity: { type: 'integer' }, unitPrice: { type: 'number' }, inStock: { type: 'boolean' } } },
    },
  },
};

describe('offline json on built documents', () => {
  it('key: value lines, definition lists and nested objects scoped by their heading', () => {
    const result = offlineJson(built(ORDER), ORDER_SCHEMA);
    const json = result?.json as Record<string, unknown>;
    expect(json).toMatchObject({
      orderNumber: 'A-2024-0117',
      order_date: '2024-03-08',
      paid: true,
      discount: 12.5,
      grandTotal: 1234.56,
      customer: { name: 'Amaka Okafor', email: 'amaka@example.org' },
      seller: { name: 'Lagos Lamps Ltd', 'vat id': 'NG-448812' },
    });
    expectValid(ORDER_SCHEMA, json);
  });

  it('table rows: values coerced to each type, a row whose cell does not coerce and the subtotal row left out', () => {
    const rows = (offlineJson(built(ORDER), ORDER_SCHEMA)?.json as Record<string, unknown>)['lines/items'];
    expect(rows).toEqual([
      { sku: 'L-100', quantity: 2, unitPrice: 1050, inStock: true },
      { sku: 'L-300', quantity: 3, unitPrice: 61.52, inStock: true },
    ]);
  });

  it('emptyFields: JSON Pointers of what nothing matched, a whole empty object as one, names escaped', () => {
    const result = offlineJson(built(ORDER), ORDER_SCHEMA);
    expect(result?.emptyFields).toEqual(['/customer/phone', '/shipping']);
    const escaped = offlineJson(built('<p>Colour: red</p>'), { type: 'object', properties: { colour: { type: 'string' }, 'a/b~c': { type: 'string' } } });
    expect(escaped).toEqual({ json: { colour: 'red' }, emptyFields: ['/a~1b~0c'] });
  });

  it('never an invented value: a label whose value is not of the property type stays empty', () => {
    const result = offlineJson(built('<p>Price: on request</p><p>Due: next week</p><p>Name: Ana</p>'), {
      type: 'object',
      properties: { price: { type: 'number' }, due: { type: 'string', format: 'date' }, name: { type: 'string', maxLength: 2 } },
    });
    expect(result).toBeUndefined();
  });

  it('an array of objects from repeated key: value records when no table matches: per section, or one after another', () => {
    const schema: Schema = { type: 'object', properties: { contacts: { type: 'array', items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, email: { type: 'string', format: 'email' }, phone: { type: 'string' } } } } } };
    const bySection = offlineJson(built('<h1>Team</h1><h2>Sales</h2><p>Name: Ana Lima<br>Email: ana@example.org</p><h2>Support</h2><p>Name: Kofi Mensah</p><p>Phone: +233 30 123 4567</p><h2>Note</h2><p>Email: info@example.org</p>'), schema);
    expect(bySection?.json).toEqual({ contacts: [{ name: 'Ana Lima', email: 'ana@example.org' }, { name: 'Kofi Mensah', phone: '+233 30 123 4567' }] });
    const inARow = offlineJson(built('<ul><li>Name: Ana Lima</li><li>E-mail: ana@example.org</li><li>Name: Kofi Mensah</li><li>E-mail: kofi@example.org</li></ul>'), schema);
    expect((inARow?.json as { contacts: unknown[] }).contacts).toEqual([{ name: 'Ana Lima', email: 'ana@example.org' }, { name: 'Kofi Mensah', email: 'kofi@example.org' }]);
    expectValid(schema, inARow?.json);
  });

  it('nothing matches: undefined', () => {
    const schema: Schema = { type: 'object', properties: { temperature: { type: 'number' }, readings: { type: 'array', items: { type: 'object', properties: { sensor: { type: 'string' }, value: { type: 'number' } } } } } };
    expect(offlineJson(built('<p>A page about nothing in particular.</p><table><tr><th>A</th><th>B</th></tr><tr><td>1</td><td>2</td></tr></table>'), schema)).toBeUndefined();
  });

  it('title and description from metadata, the first heading when there is no title', () => {
    const schema: Schema = { type: 'object', properties: { title: { type: 'string' }, description: { type: 'string' }, language: { type: 'string' } } };
    expect(offlineJson(built('<h1>Quarterly report</h1>', { description: 'Sales in Q3', language: 'en' }), schema)?.json).toEqual({ title: 'Quarterly report', description: 'Sales in Q3', language: 'en' });
  });

  it('values come from the redacted document when redactPII ran first', async () => {
    const read = built('<p>Contact: amaka@example.org</p><p>Order: 42</p>');
    const settings = piiSettings({ mode: 'fast', replaceStyle: 'tag' });
    if (!settings) throw new Error('settings');
    await redactRead(read, settings, { rawHtml: false });
    expect(offlineJson(read, { type: 'object', properties: { contact: { type: 'string' }, order: { type: 'integer' } } })?.json).toEqual({ contact: '<EMAIL>', order: 42 });
  });
});

describe('type coercion', () => {
  it('numbers: currency, thousands separators in both conventions, percent, negative in parentheses; not prose', () => {
    expect(toNumber('1,234.56')).toBe(1234.56);
    expect(toNumber('1.234,56 €')).toBe(1234.56);
    expect(toNumber('$ 12,000')).toBe(12000);
    expect(toNumber('12 345,5')).toBe(12345.5);
    expect(toNumber('EUR 99')).toBe(99);
    expect(toNumber('(12.00)')).toBe(-12);
    expect(toNumber('-7')).toBe(-7);
    expect(toNumber('12,5')).toBe(12.5);
    expect(toNumber('7%')).toBe(7);
    for (const no of ['about 12', '12 pcs', '1.2.3', 'v2.14.3', '', '12,34,5', '2024-01-01']) expect(toNumber(no)).toBeUndefined();
  });

  it('dates: ISO, written months, day-first dotted; an ambiguous slashed date is left out', () => {
    expect(toDate('2020-01-08')).toBe('2020-01-08');
    expect(toDate('2020-01-08T10:06:34.000Z')).toBe('2020-01-08');
    expect(toDate('January 8, 2020')).toBe('2020-01-08');
    expect(toDate('8 Jan. 2020')).toBe('2020-01-08');
    expect(toDate('08.01.2020')).toBe('2020-01-08');
    expect(toDate('25/12/2020')).toBe('2020-12-25');
    expect(toDate('3/4/2020')).toBeUndefined();
    expect(toDate('2020-02-30')).toBeUndefined();
    expect(toDate('next week')).toBeUndefined();
  });

  it('a property of several types takes the most specific one the text is', () => {
    const result = offlineJson(built('<p>Count: 5,000</p><p>Label: 12b</p><p>Flag: yes</p>'), {
      type: 'object',
      properties: { count: { type: ['string', 'number'] }, label: { type: ['number', 'string'] }, flag: { type: ['string', 'boolean'] } },
    });
    expect(result?.json).toEqual({ count: 5000, label: '12b', flag: true });
  });

  it('booleans in several languages', () => {
    expect([toBoolean('Yes'), toBoolean('ja'), toBoolean('✓'), toBoolean('No'), toBoolean('non'), toBoolean('maybe')]).toEqual([true, true, true, false, false, undefined]);
  });
});
