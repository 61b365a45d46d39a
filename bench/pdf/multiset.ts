/** Items of `a` also in `b`, counted with multiplicity (the size of the two bags' intersection). */
export function sharedCount<T>(a: Iterable<T>, b: Iterable<T>): number {
  const bag = new Map<T, number>();
  for (const item of b) bag.set(item, (bag.get(item) ?? 0) + 1);
  let n = 0;
  for (const item of a) {
    const k = bag.get(item) ?? 0;
    if (k > 0) {
      n++;
      bag.set(item, k - 1);
    }
  }
  return n;
}
