/**
 * `/ready`: whether this instance should get traffic. Each check is a named probe that resolves
 * when its part answers (the store a trivial query, Redis a PING, the parse processes warm); a
 * probe that throws or takes longer than `timeoutMs` makes the instance not ready. The answer
 * names the failing part and a short reason, never a URL or a credential.
 */

export type ReadinessProbe = () => Promise<void> | void;

export interface ReadinessReport {
  ready: boolean;
  /** `ok`, or why the part is not ready. */
  checks: Record<string, string>;
}

export interface Readiness {
  check(): Promise<ReadinessReport>;
}

export class NotReadyError extends Error {
  override readonly name = 'NotReadyError';
}

export function createReadiness(probes: Readonly<Record<string, ReadinessProbe>>, timeoutMs = 2_000): Readiness {
  async function run(probe: ReadinessProbe): Promise<string> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<string>((resolve) => {
      timer = setTimeout(() => resolve(`no answer within ${timeoutMs} ms`), timeoutMs);
    });
    try {
      return await Promise.race([
        (async () => {
          await probe();
          return 'ok';
        })(),
        late,
      ]);
    } catch (err) {
      // Only our own reasons are shown: a driver's message may carry an address or a user name.
      return err instanceof NotReadyError ? err.message : 'unreachable';
    } finally {
      clearTimeout(timer);
    }
  }
  return {
    async check() {
      const names = Object.keys(probes);
      const results = await Promise.all(names.map((n) => run(probes[n] as ReadinessProbe)));
      const checks = Object.fromEntries(names.map((n, i) => [n, results[i] as string]));
      return { ready: results.every((r) => r === 'ok'), checks };
    },
  };
}
