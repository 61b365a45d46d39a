/**
 * Ordered tree edit distance, as the evaluator's APTED (Pawlik & Augsten 2016) computes it:
 * deleting or inserting a node costs 1, relabelling costs `rename(a, b)` in [0, 1].
 *
 * Implemented with the classic Zhang–Shasha (1989) dynamic programme instead of APTED: both
 * compute the SAME minimum (the edit distance is defined by the cost model, the algorithms only
 * differ in which subproblems they visit and so in running time). Zhang–Shasha is
 * O(|T1|·|T2|·min(depth, leaves)²), which for the benchmark's trees (tables: depth 3, headings:
 * depth 2) is fast enough. The rename cost of each pair is computed once and cached.
 */

export interface TreeNode {
  children: TreeNode[];
}

interface Postorder<T extends TreeNode> {
  nodes: T[];
  /** Post-order index of each node's leftmost leaf descendant. */
  leftmost: Int32Array;
  /** Key roots: the nodes that are not the leftmost child of their parent, plus the root. */
  keyRoots: number[];
}

function postorder<T extends TreeNode>(root: T): Postorder<T> {
  const nodes: T[] = [];
  const left: number[] = [];
  const visit = (node: T): number => {
    let first = -1;
    for (const child of node.children) {
      const l = visit(child as T);
      if (first < 0) first = l;
    }
    nodes.push(node);
    const index = nodes.length - 1;
    left.push(first < 0 ? index : first);
    return left[index] as number;
  };
  visit(root);
  const leftmost = Int32Array.from(left);
  const seen = new Set<number>();
  const keyRoots: number[] = [];
  for (let i = nodes.length - 1; i >= 0; i--) {
    const l = leftmost[i] as number;
    if (!seen.has(l)) {
      seen.add(l);
      keyRoots.push(i);
    }
  }
  keyRoots.sort((a, b) => a - b);
  return { nodes, leftmost, keyRoots };
}

export function countNodes(root: TreeNode): number {
  let n = 1;
  for (const child of root.children) n += countNodes(child);
  return n;
}

export function treeEditDistance<T extends TreeNode>(a: T, b: T, rename: (x: T, y: T) => number): number {
  const ta = postorder(a);
  const tb = postorder(b);
  const n = ta.nodes.length;
  const m = tb.nodes.length;
  const renameCache = new Float64Array(n * m).fill(-1);
  const renameCost = (i: number, j: number): number => {
    const k = i * m + j;
    let c = renameCache[k] as number;
    if (c < 0) {
      c = rename(ta.nodes[i] as T, tb.nodes[j] as T);
      renameCache[k] = c;
    }
    return c;
  };
  const td = new Float64Array(n * m);
  const fd = new Float64Array((n + 1) * (m + 1));
  const la = ta.leftmost;
  const lb = tb.leftmost;
  for (const i of ta.keyRoots) {
    for (const j of tb.keyRoots) {
      const li = la[i] as number;
      const lj = lb[j] as number;
      const rows = i - li + 2;
      const cols = j - lj + 2;
      // fd[x][y]: forest la..li+x-1 vs lb..lj+y-1 (offsets by one)
      fd[0] = 0;
      for (let x = 1; x < rows; x++) fd[x * cols] = (fd[(x - 1) * cols] as number) + 1;
      for (let y = 1; y < cols; y++) fd[y] = (fd[y - 1] as number) + 1;
      for (let x = 1; x < rows; x++) {
        const ni = li + x - 1;
        const lni = la[ni] as number;
        for (let y = 1; y < cols; y++) {
          const nj = lj + y - 1;
          const lnj = lb[nj] as number;
          const del = (fd[(x - 1) * cols + y] as number) + 1;
          const ins = (fd[x * cols + y - 1] as number) + 1;
          let best = del < ins ? del : ins;
          if (lni === li && lnj === lj) {
            const ren = (fd[(x - 1) * cols + y - 1] as number) + renameCost(ni, nj);
            if (ren < best) best = ren;
            fd[x * cols + y] = best;
            td[ni * m + nj] = best;
          } else {
            const px = lni - li;
            const py = lnj - lj;
            const sub = (fd[px * cols + py] as number) + (td[ni * m + nj] as number);
            if (sub < best) best = sub;
            fd[x * cols + y] = best;
          }
        }
      }
    }
  }
  return td[(n - 1) * m + (m - 1)] as number;
}
