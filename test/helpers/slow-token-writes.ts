/**
 * Makes a started service's token-usage writes slow (the real store behind them), to show that
 * an answer or a job's end waits for its token rows. Returns the function that undoes it.
 */
import type { CreditLedgerStore } from '../../src/store/credit-ledger.ts';

export function slowTokenWrites(store: Pick<CreditLedgerStore, 'recordTokenUsage'>, ms: number): () => void {
  const record = store.recordTokenUsage.bind(store);
  store.recordTokenUsage = async (usage) => {
    await new Promise((r) => setTimeout(r, ms));
    return record(usage);
  };
  return () => {
    store.recordTokenUsage = record;
  };
}
