/**
 * Error log lines under zeroDataRetention (docs/zdr.md): an unexpected error's message and stack
 * may quote the document (a library's parse error), so under ZDR only its class and code are
 * logged; otherwise the error is logged whole. The log line is checked as pino writes it.
 */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { asksZeroRetention, createLogger, errorForLog } from '../../src/log.ts';

function captured(): { logger: ReturnType<typeof createLogger>; text: () => string } {
  const chunks: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, cb) {
      chunks.push(chunk.toString('utf8'));
      cb();
    },
  });
  return { logger: createLogger({ level: 'info', destination }), text: () => chunks.join('') };
}

describe('error log lines under zeroDataRetention', () => {
  const quoting = Object.assign(new TypeError('cannot read cell "ZDRSECRET-42" of sheet Payroll'), { code: 'ERR_SHEET' });

  it('ZDR: the class and code only, neither message nor stack', () => {
    const { logger, text } = captured();
    logger.error({ err: errorForLog(quoting, true) }, 'unexpected error');
    expect(text()).not.toContain('ZDRSECRET');
    expect(text()).not.toContain('Payroll');
    const line = JSON.parse(text()) as { err: Record<string, unknown> };
    expect(line.err).toEqual({ type: 'TypeError', code: 'ERR_SHEET', withheld: 'zeroDataRetention' });
  });

  it('without ZDR: the error whole, as before', () => {
    const { logger, text } = captured();
    logger.error({ err: errorForLog(quoting, false) }, 'unexpected error');
    expect(text()).toContain('ZDRSECRET-42');
    expect(text()).toContain('"stack"');
  });

  it('a body asks for ZDR at its top or in its scrapeOptions', () => {
    expect(asksZeroRetention({ zeroDataRetention: true })).toBe(true);
    expect(asksZeroRetention({ scrapeOptions: { zeroDataRetention: true } })).toBe(true);
    expect(asksZeroRetention({ zeroDataRetention: 'yes' })).toBe(false);
    expect(asksZeroRetention(undefined)).toBe(false);
    expect(asksZeroRetention({ scrapeOptions: null })).toBe(false);
  });
});
