/**
 * The plan's `siem` values (docs/audit.md "Sinks"): which name a sink and, for the others, the
 * sentence an operator reads (`folio teams set --siem`, the drop log line).
 */
import { describe, expect, it } from 'vitest';
import { siemTargetProblem } from '../../src/audit/index.ts';

describe('SIEM sink values', () => {
  const strict = { allowHttpLoopback: false };
  it('file paths, https URLs and syslog over UDP or TCP are sinks', () => {
    for (const ok of ['/var/log/folio/audit.jsonl', 'audit.jsonl', 'https://siem.example.com/in', 'https://user:pw@siem.example.com/in?token=x', 'syslog://10.0.0.5:514', 'syslog+udp://[::1]:514', 'syslog+tcp://logs.example.com:6514']) {
      expect(siemTargetProblem(ok, strict), ok).toBeUndefined();
    }
  });

  it('http only to loopback and only when allowed; other schemes and syslog without a port are refused with the reason', () => {
    expect(siemTargetProblem('http://127.0.0.1:9000/in', strict)).toMatch(/must be https/);
    expect(siemTargetProblem('http://127.0.0.1:9000/in', { allowHttpLoopback: true })).toBeUndefined();
    expect(siemTargetProblem('http://siem.example.com/in', { allowHttpLoopback: true })).toMatch(/loopback/);
    expect(siemTargetProblem('syslog://logs.example.com', strict)).toMatch(/host and a port/);
    expect(siemTargetProblem('ftp://logs.example.com/audit', strict)).toMatch(/not ftp:\/\//);
    expect(siemTargetProblem(' ', strict)).toMatch(/empty/);
  });
});
