/**
 * A small Prometheus registry: counters, histograms and gauges read at scrape time, rendered in
 * the text exposition format (version 0.0.4). Label values are escaped as the format requires;
 * callers keep them to small fixed sets (an operation, a format, a status), never user input.
 */

export type Labels = Readonly<Record<string, string>>;

interface Family {
  name: string;
  help: string;
  type: 'counter' | 'gauge' | 'histogram';
  render(): string[];
}

export interface Counter {
  inc(labels?: Labels, by?: number): void;
  /** The current value of one series (tests, `/ready` details). */
  value(labels?: Labels): number;
}

export interface Histogram {
  observe(labels: Labels, value: number): void;
}

export interface MetricsRegistry {
  counter(name: string, help: string): Counter;
  histogram(name: string, help: string, buckets: readonly number[]): Histogram;
  /** A gauge whose series are read when `/metrics` is scraped. */
  gauge(name: string, help: string, read: () => readonly (readonly [Labels, number])[]): void;
  /** A counter kept elsewhere (a pool's totals since start), read when `/metrics` is scraped. */
  counterFrom(name: string, help: string, read: () => readonly (readonly [Labels, number])[]): void;
  /** The exposition text of every family. */
  render(): string;
}

/** `text/plain; version=0.0.4`: what Prometheus asks for and what this registry writes. */
export const EXPOSITION_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;

function escapeLabel(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}

function labelText(labels: Labels, extra?: readonly [string, string]): string {
  const pairs = Object.entries(labels).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  if (extra) pairs.push([extra[0], extra[1]]);
  if (pairs.length === 0) return '';
  return `{${pairs.map(([k, v]) => `${k}="${escapeLabel(v)}"`).join(',')}}`;
}

function keyOf(labels: Labels): string {
  return labelText(labels);
}

function number(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return '+Inf';
  if (value === -Infinity) return '-Inf';
  return String(value);
}

export function createMetricsRegistry(): MetricsRegistry {
  const families = new Map<string, Family>();

  function add(family: Family): void {
    if (!NAME.test(family.name)) throw new Error(`invalid metric name: ${family.name}`);
    if (families.has(family.name)) throw new Error(`metric registered twice: ${family.name}`);
    families.set(family.name, family);
  }

  return {
    counter(name, help) {
      const series = new Map<string, { labels: Labels; value: number }>();
      add({
        name,
        help,
        type: 'counter',
        render: () => [...series.values()].map((s) => `${name}${labelText(s.labels)} ${number(s.value)}`),
      });
      return {
        inc(labels = {}, by = 1) {
          if (!(by >= 0)) return;
          const key = keyOf(labels);
          const s = series.get(key);
          if (s) s.value += by;
          else series.set(key, { labels: { ...labels }, value: by });
        },
        value(labels = {}) {
          return series.get(keyOf(labels))?.value ?? 0;
        },
      };
    },

    histogram(name, help, buckets) {
      const bounds = [...buckets].sort((a, b) => a - b);
      const series = new Map<string, { labels: Labels; counts: number[]; sum: number; count: number }>();
      add({
        name,
        help,
        type: 'histogram',
        render: () =>
          [...series.values()].flatMap((s) => {
            let cumulative = 0;
            const lines = bounds.map((le, i) => {
              cumulative += s.counts[i] ?? 0;
              return `${name}_bucket${labelText(s.labels, ['le', number(le)])} ${cumulative}`;
            });
            lines.push(`${name}_bucket${labelText(s.labels, ['le', '+Inf'])} ${s.count}`);
            lines.push(`${name}_sum${labelText(s.labels)} ${number(s.sum)}`);
            lines.push(`${name}_count${labelText(s.labels)} ${s.count}`);
            return lines;
          }),
      });
      return {
        observe(labels, value) {
          const key = keyOf(labels);
          let s = series.get(key);
          if (!s) {
            s = { labels: { ...labels }, counts: bounds.map(() => 0), sum: 0, count: 0 };
            series.set(key, s);
          }
          const i = bounds.findIndex((le) => value <= le);
          if (i >= 0) s.counts[i] = (s.counts[i] ?? 0) + 1;
          s.sum += value;
          s.count += 1;
        },
      };
    },

    gauge(name, help, read) {
      add({ name, help, type: 'gauge', render: () => read().map(([labels, value]) => `${name}${labelText(labels)} ${number(value)}`) });
    },

    counterFrom(name, help, read) {
      add({ name, help, type: 'counter', render: () => read().map(([labels, value]) => `${name}${labelText(labels)} ${number(value)}`) });
    },

    render() {
      const out: string[] = [];
      for (const f of families.values()) {
        out.push(`# HELP ${f.name} ${f.help.replace(/\\/g, '\\\\').replace(/\n/g, '\\n')}`);
        out.push(`# TYPE ${f.name} ${f.type}`);
        out.push(...f.render());
      }
      return `${out.join('\n')}\n`;
    },
  };
}
