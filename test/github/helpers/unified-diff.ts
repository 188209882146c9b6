// A small line diff (LCS) that writes GitHub-style patches for the test repositories, so tests
// describe files before and after a change instead of hand-writing hunks.

type Op = { kind: " " | "-" | "+"; text: string };

function diffLines(before: string[], after: string[]): Op[] {
  const n = before.length;
  const m = after.length;
  const lcs: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i]![j] = before[i] === after[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && before[i] === after[j]) {
      ops.push({ kind: " ", text: before[i]! });
      i++;
      j++;
    } else if (j < m && (i >= n || lcs[i]![j + 1]! >= lcs[i + 1]![j]!)) {
      ops.push({ kind: "+", text: after[j]! });
      j++;
    } else {
      ops.push({ kind: "-", text: before[i]! });
      i++;
    }
  }
  return ops;
}

function splitLines(text: string | undefined): string[] {
  if (text === undefined || text === "") return [];
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** The `patch` GitHub shows for a file going from `before` to `after` (undefined = absent), 3 lines of context. */
export function unifiedPatch(before: string | undefined, after: string | undefined, context = 3): string {
  const ops = diffLines(splitLines(before), splitLines(after));
  const changed = ops.map((op, index) => (op.kind === " " ? -1 : index)).filter((index) => index >= 0);
  if (changed.length === 0) return "";
  // Group changes whose context windows touch into one hunk.
  const groups: Array<[number, number]> = [];
  for (const index of changed) {
    const last = groups[groups.length - 1];
    if (last && index - last[1] <= 2 * context) last[1] = index;
    else groups.push([index, index]);
  }
  const hunks: string[] = [];
  for (const [first, last] of groups) {
    const from = Math.max(0, first - context);
    const to = Math.min(ops.length - 1, last + context);
    let oldLine = 1;
    let newLine = 1;
    for (let k = 0; k < from; k++) {
      if (ops[k]!.kind !== "+") oldLine++;
      if (ops[k]!.kind !== "-") newLine++;
    }
    const body = ops.slice(from, to + 1);
    const oldCount = body.filter((op) => op.kind !== "+").length;
    const newCount = body.filter((op) => op.kind !== "-").length;
    hunks.push(
      `@@ -${oldCount === 0 ? oldLine - 1 : oldLine},${oldCount} +${newCount === 0 ? newLine - 1 : newLine},${newCount} @@`,
      ...body.map((op) => `${op.kind}${op.text}`),
    );
  }
  return hunks.join("\n");
}
