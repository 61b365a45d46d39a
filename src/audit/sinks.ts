/**
 * Where audit events go (docs/audit.md), chosen by the plan's `siem` value:
 * - a file path (absolute, or relative to the working directory): JSON lines, appended;
 * - `syslog://host:port`: RFC 5424 messages over UDP (RFC 5426), one event per datagram;
 * - `syslog+tcp://host:port`: RFC 5424 over TCP with octet-counting framing (RFC 6587 3.4.1);
 * - `https://…`: a webhook, each POST a JSON array of events (batches);
 *   `http://` only to a loopback address and only with FOLIO_AUDIT_ALLOW_HTTP_LOOPBACK=on.
 * A sink delivers a batch or rejects; the retries and the buffer are delivery.ts's.
 */
import dgram from 'node:dgram';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import type { AuditEvent } from './event.ts';

export interface AuditSink {
  /** How the sink is named in log lines (never credentials: a URL's user info and query are left out). */
  readonly label: string;
  /** Events per delivery at most. */
  readonly batchSize: number;
  /** How long a delivery waits for more events to fill its batch (webhooks: fewer, larger POSTs). */
  readonly lingerMs?: number;
  deliver(events: readonly AuditEvent[]): Promise<void>;
  close(): Promise<void>;
}

/** A batch the receiver refused for good (a 4xx): not retried, its events count as dropped. */
export class RejectedBatchError extends Error {}

export interface SinkOptions {
  allowHttpLoopback: boolean;
  /** A delivery that takes longer fails (and is retried). */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 10_000;
/** RFC 5424: facility 13 (log audit); severity 6 (informational), 5 (notice) for a failed request. */
const FACILITY = 13;
/** A datagram larger than this is not sent whole by common stacks; such an event is cut to its core fields. */
const MAX_DATAGRAM_BYTES = 60_000;

function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h);
}

/** The syslog line of one event (RFC 5424: HEADER SP STRUCTURED-DATA SP MSG). */
export function syslogMessage(event: AuditEvent, hostname = os.hostname()): string {
  const severity = event.status >= 400 ? 5 : 6;
  const host = hostname.replace(/[^\x21-\x7e]/g, '').slice(0, 255) || '-';
  const msgId = event.operation.replace(/[^\x21-\x7e]/g, '').slice(0, 32) || '-';
  return `<${FACILITY * 8 + severity}>1 ${event.time} ${host} folio ${process.pid} ${msgId} - ${JSON.stringify(event)}`;
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function fileSink(file: string): AuditSink {
  return {
    label: `file ${file}`,
    batchSize: 500,
    async deliver(events) {
      await fs.appendFile(file, events.map((e) => `${JSON.stringify(e)}\n`).join(''), { mode: 0o600 });
    },
    async close() {},
  };
}

function udpSyslogSink(host: string, port: number, timeoutMs: number): AuditSink {
  const bare = host.replace(/^\[|\]$/g, '');
  const socket = dgram.createSocket(net.isIPv6(bare) ? 'udp6' : 'udp4');
  socket.on('error', () => undefined);
  socket.unref();
  return {
    label: `syslog udp ${host}:${port}`,
    batchSize: 100,
    async deliver(events) {
      for (const event of events) {
        let message = Buffer.from(syslogMessage(event));
        if (message.length > MAX_DATAGRAM_BYTES) message = Buffer.from(syslogMessage({ ...event, options: { truncated: true } }));
        await withTimeout(
          new Promise<void>((resolve, reject) => socket.send(message, port, bare, (err) => (err ? reject(err) : resolve()))),
          timeoutMs,
          'a syslog datagram',
        );
      }
    },
    async close() {
      await new Promise<void>((resolve) => {
        try {
          socket.close(() => resolve());
        } catch {
          resolve();
        }
      });
    },
  };
}

function tcpSyslogSink(host: string, port: number, timeoutMs: number): AuditSink {
  const bare = host.replace(/^\[|\]$/g, '');
  let socket: net.Socket | undefined;
  let connecting: Promise<net.Socket> | undefined;

  const connection = (): Promise<net.Socket> => {
    if (socket && !socket.destroyed) return Promise.resolve(socket);
    connecting ??= new Promise<net.Socket>((resolve, reject) => {
      const s = net.connect({ host: bare, port });
      s.setNoDelay(true);
      const fail = (err: Error) => {
        connecting = undefined;
        s.destroy();
        reject(err);
      };
      s.once('error', fail);
      s.once('connect', () => {
        s.off('error', fail);
        s.on('error', () => s.destroy());
        s.once('close', () => {
          if (socket === s) socket = undefined;
        });
        s.unref();
        socket = s;
        connecting = undefined;
        resolve(s);
      });
    });
    return connecting;
  };

  return {
    label: `syslog tcp ${host}:${port}`,
    batchSize: 200,
    async deliver(events) {
      const s = await withTimeout(connection(), timeoutMs, 'the syslog connection');
      const frames = events.map((e) => {
        const message = Buffer.from(syslogMessage(e));
        return Buffer.concat([Buffer.from(`${message.length} `), message]);
      });
      await withTimeout(
        new Promise<void>((resolve, reject) => {
          s.write(Buffer.concat(frames), (err) => (err ? reject(err) : resolve()));
        }),
        timeoutMs,
        'a syslog write',
      ).catch((err: unknown) => {
        s.destroy();
        throw err;
      });
    },
    async close() {
      const s = socket;
      socket = undefined;
      if (s) await new Promise<void>((resolve) => s.end(() => resolve()));
    },
  };
}

function webhookSink(target: URL, timeoutMs: number): AuditSink {
  const label = `webhook ${target.origin}${target.pathname}`;
  // fetch() refuses a URL with user info: it becomes Basic authorization.
  const url = new URL(target);
  const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'folio-audit' };
  if (url.username || url.password) {
    headers.authorization = `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`;
    url.username = '';
    url.password = '';
  }
  return {
    label,
    batchSize: 100,
    lingerMs: 200,
    async deliver(events) {
      const response = await fetch(url, {
        method: 'POST',
        headers,
        body: JSON.stringify(events),
        signal: AbortSignal.timeout(timeoutMs),
        redirect: 'error',
      });
      await response.body?.cancel().catch(() => undefined);
      if (response.ok) return;
      if (response.status >= 400 && response.status < 500 && response.status !== 408 && response.status !== 429) {
        throw new RejectedBatchError(`the receiver refused the batch with HTTP ${response.status}`);
      }
      throw new Error(`the receiver answered HTTP ${response.status}`);
    },
    async close() {},
  };
}

/** A sink that cannot be built: every delivery fails for good, with the reason. */
function brokenSink(label: string, reason: string): AuditSink {
  return {
    label,
    batchSize: 1000,
    async deliver() {
      throw new RejectedBatchError(reason);
    },
    async close() {},
  };
}

function hostPort(url: URL): { host: string; port: number } | undefined {
  const port = Number(url.port);
  if (!url.hostname || !Number.isInteger(port) || port < 1 || port > 65535) return undefined;
  return { host: url.hostname, port };
}

export type SinkTarget =
  | { kind: 'file'; path: string }
  | { kind: 'syslog-udp' | 'syslog-tcp'; host: string; port: number }
  | { kind: 'webhook'; url: URL }
  | { kind: 'invalid'; label: string; problem: string };

/** What a plan's `siem` value names, or why it names nothing usable. */
export function parseSinkTarget(target: string, options: Pick<SinkOptions, 'allowHttpLoopback'>): SinkTarget {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(target)) {
    return target.trim() === '' ? { kind: 'invalid', label: 'an empty SIEM sink', problem: 'the SIEM sink is empty' } : { kind: 'file', path: target };
  }
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return { kind: 'invalid', label: 'an unreadable SIEM URL', problem: 'the SIEM sink is not a valid URL' };
  }
  const scheme = url.protocol.slice(0, -1).toLowerCase();
  if (scheme === 'syslog' || scheme === 'syslog+udp' || scheme === 'syslog+tcp') {
    const hp = hostPort(url);
    if (!hp) return { kind: 'invalid', label: `syslog ${url.host}`, problem: 'a syslog sink needs a host and a port: syslog://host:514' };
    return { kind: scheme === 'syslog+tcp' ? 'syslog-tcp' : 'syslog-udp', ...hp };
  }
  if (scheme === 'https') return { kind: 'webhook', url };
  if (scheme === 'http') {
    if (options.allowHttpLoopback && isLoopbackHost(url.hostname)) return { kind: 'webhook', url };
    return { kind: 'invalid', label: `webhook ${url.origin}`, problem: 'a SIEM webhook must be https (http only to a loopback address with FOLIO_AUDIT_ALLOW_HTTP_LOOPBACK=on)' };
  }
  return { kind: 'invalid', label: `${scheme} sink`, problem: `a SIEM sink is a file path, an https:// URL, syslog://host:port or syslog+tcp://host:port, not ${scheme}://` };
}

/**
 * Why a `siem` value cannot be used, as a sentence; undefined when it can (for `folio teams set
 * --siem` and configuration checks).
 */
export function siemTargetProblem(target: string, options: Pick<SinkOptions, 'allowHttpLoopback'>): string | undefined {
  const parsed = parseSinkTarget(target, options);
  return parsed.kind === 'invalid' ? parsed.problem : undefined;
}

/** The sink a plan's `siem` value names. */
export function createSink(target: string, options: SinkOptions): AuditSink {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const parsed = parseSinkTarget(target, options);
  switch (parsed.kind) {
    case 'file':
      return fileSink(parsed.path);
    case 'syslog-udp':
      return udpSyslogSink(parsed.host, parsed.port, timeoutMs);
    case 'syslog-tcp':
      return tcpSyslogSink(parsed.host, parsed.port, timeoutMs);
    case 'webhook':
      return webhookSink(parsed.url, timeoutMs);
    case 'invalid':
      return brokenSink(parsed.label, parsed.problem);
  }
}
