/**
 * The text exposition format folio writes for Prometheus (0.0.4): HELP and TYPE lines, label
 * values escaped, histogram buckets cumulative with `+Inf`, `_sum` and `_count`.
 */
import { describe, expect, it } from 'vitest';
import { createMetricsRegistry, formatOf, operationOf } from '../../src/ops/index.ts';

describe('exposition format', () => {
  it('renders counters, histograms and gauges as Prometheus reads them', () => {
    const registry = createMetricsRegistry();
    const counter = registry.counter('t_requests_total', 'Requests.\nTwo lines.');
    counter.inc({ path: 'a"b\\c\nd' });
    counter.inc({ path: 'a"b\\c\nd' }, 2);
    counter.inc({}, -1);
    const histogram = registry.histogram('t_seconds', 'Latency.', [0.1, 1, 0.5]);
    for (const v of [0.05, 0.3, 0.3, 2]) histogram.observe({ op: 'parse' }, v);
    registry.gauge('t_depth', 'Depth.', () => [[{}, 3]]);
    registry.counterFrom('t_kills_total', 'Kills.', () => [[{ reason: 'timeout' }, 2]]);
    expect(registry.render()).toBe(
      [
        '# HELP t_requests_total Requests.\\nTwo lines.',
        '# TYPE t_requests_total counter',
        't_requests_total{path="a\\"b\\\\c\\nd"} 3',
        '# HELP t_seconds Latency.',
        '# TYPE t_seconds histogram',
        't_seconds_bucket{op="parse",le="0.1"} 1',
        't_seconds_bucket{op="parse",le="0.5"} 3',
        't_seconds_bucket{op="parse",le="1"} 3',
        't_seconds_bucket{op="parse",le="+Inf"} 4',
        't_seconds_sum{op="parse"} 2.65',
        't_seconds_count{op="parse"} 4',
        '# HELP t_depth Depth.',
        '# TYPE t_depth gauge',
        't_depth 3',
        '# HELP t_kills_total Kills.',
        '# TYPE t_kills_total counter',
        't_kills_total{reason="timeout"} 2',
        '',
      ].join('\n'),
    );
    expect(() => registry.counter('t_requests_total', 'again')).toThrow(/twice/);
    expect(() => registry.counter('bad-name', 'x')).toThrow(/invalid/);
  });

  it('keeps labels to fixed sets: operations from paths, formats from accepted extensions', () => {
    expect(operationOf('/v2/parse')).toBe('parse');
    expect(operationOf('/v2/crawl/abc/errors')).toBe('crawl');
    expect(operationOf('/v2/batch/scrape/abc')).toBe('batch');
    expect(operationOf('/folio_secretkey/v2/mcp')).toBe('mcp');
    expect(operationOf('/anything/else')).toBe('other');
    expect(formatOf('Report.PDF')).toBe('pdf');
    expect(formatOf('notes.txt')).toBe('other');
    expect(formatOf('no-extension')).toBe('other');
    expect(formatOf(undefined)).toBe('none');
  });
});
