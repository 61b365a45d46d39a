/**
 * Makes one of a started service's ledger writes slow (the real store behind it) — its token
 * usage or its credit charges — to show that an answer or a job's end waits for that row.
 * Returns the function that undoes it.
 */
import type { CreditLedgerStore } from '../../src/store/credit-ledger.ts';

type LedgerWrite = 'recordTokenUsage' | 'recordCharge';

export function slowWrites<K extends LedgerWrite>(store: Pick<CreditLedgerStore, K>, method: K, ms: number): () => void {
  const write = store[method];
  const bound = write.bind(store) as (...args: Parameters<CreditLedgerStore[K]>) => ReturnType<CreditLedgerStore[K]>;
  const slowed = async (...args: Parameters<CreditLedgerStore[K]>) => {
    await new Promise((r) => setTimeout(r, ms));
    return bound(...args);
  };
  store[method] = slowed as unknown as Pick<CreditLedgerStore, K>[K];
  return () => {
    store[method] = write;
  };
}
