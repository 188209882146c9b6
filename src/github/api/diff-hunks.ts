// The unified-diff `patch` GitHub returns per file, read as hunks. GitHub only accepts review
// comments on RIGHT-side lines inside a hunk (added or context lines); anything else is a 422
// that rejects the whole review, so every inline comment is placed through `hunkContaining`.

export interface Hunk {
  oldStart: number;
  newStart: number;
  /** RIGHT-side (head) line numbers shown in the hunk, ascending: context and added lines */
  rightLines: number[];
  /** head lines added by this change */
  addedLines: number[];
}

const HUNK_HEADER = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

/**
 * Reads a patch into hunks. Line numbers are counted from the hunk bodies rather than trusted
 * from the headers, so a truncated or malformed patch yields fewer commentable lines, never
 * wrong ones. Never throws.
 */
export function parsePatch(patch: string): Hunk[] {
  const hunks: Hunk[] = [];
  let current: Hunk | undefined;
  let nextRight = 0;
  const lines = patch.split("\n");
  // A trailing newline leaves an empty last element that is not a line of the diff.
  if (lines[lines.length - 1] === "") lines.pop();
  for (const rawLine of lines) {
    const line = rawLine.endsWith("\r") ? rawLine.slice(0, -1) : rawLine;
    const header = HUNK_HEADER.exec(line);
    if (header) {
      current = { oldStart: Number(header[1]), newStart: Number(header[2]), rightLines: [], addedLines: [] };
      nextRight = current.newStart;
      hunks.push(current);
      continue;
    }
    if (!current) continue;
    const marker = line[0];
    if (marker === "+") {
      current.rightLines.push(nextRight);
      current.addedLines.push(nextRight);
      nextRight++;
    } else if (marker === " " || line === "") {
      // Some tools strip the space of empty context lines; an empty line inside a hunk is context.
      current.rightLines.push(nextRight);
      nextRight++;
    }
    // "-" lines exist only on the LEFT side; "\ No newline at end of file" is not a line.
  }
  return hunks;
}

/** The hunk whose RIGHT side contains every line from `startLine` to `endLine`, if one does. */
export function hunkContaining(hunks: readonly Hunk[], startLine: number, endLine: number): Hunk | undefined {
  if (endLine < startLine) return undefined;
  for (const hunk of hunks) {
    const first = hunk.rightLines[0];
    const last = hunk.rightLines[hunk.rightLines.length - 1];
    if (first === undefined || last === undefined) continue;
    // RIGHT-side lines of one hunk are consecutive, so the bounds decide.
    if (startLine >= first && endLine <= last) return hunk;
  }
  return undefined;
}
