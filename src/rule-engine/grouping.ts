// One statement written in application code can be run by several entries: a constant several
// methods pass, or a generic DAO method (`@Insert(ifNotExists = true) void insert(T entity)`)
// that every DAO inherits. A rule then reports the same thing at the same place once per entry;
// those findings share their cause and are shown as one that names what it covers.
import { compareFindings, type Finding } from "../findings.js";
import { findingEntity } from "./suppression.js";
import type { AnalysedModel } from "./model.js";

/** The id of the query or write a finding's entity names (`write:<id>:lwt:…`), among the ids known. */
function entryOf(finding: Finding, ids: readonly string[]): string | undefined {
  const entity = findingEntity(finding);
  const colon = entity.indexOf(":");
  if (colon < 0) return undefined;
  const rest = entity.slice(colon + 1);
  let best: string | undefined;
  for (const id of ids) {
    if (!rest.startsWith(id)) continue;
    const next = rest.charAt(id.length);
    if ((next === "" || next === ":" || next === "#") && (best === undefined || id.length > best.length)) best = id;
  }
  return best;
}

/**
 * Findings of one rule at the same position of a code file, each about a query or write, as one
 * finding: the first in reading order, with the others named in its message. Findings elsewhere
 * (schema files, the manifest: each statement written once) are left as they are.
 */
export function groupSharedCauses(findings: readonly Finding[], model: AnalysedModel): Finding[] {
  const extraction = model.code?.extraction;
  if (!extraction || extraction.files.length === 0) return [...findings];
  const codeFiles = new Set(extraction.files.map((f) => f.path));
  const ids = [
    ...extraction.statements.map((s) => s.id),
    ...(model.manifest?.queries.map((q) => q.id) ?? []),
    ...(model.manifest?.writes.map((w) => w.id) ?? []),
  ];
  const groups = new Map<string, Finding[]>();
  const out: (Finding | Finding[])[] = [];
  for (const finding of findings) {
    // Only findings about a query or write: an entity's findings (a key, a column) each have their own cause.
    const entry = codeFiles.has(finding.location.file) ? entryOf(finding, ids) : undefined;
    if (entry === undefined) {
      out.push(finding);
      continue;
    }
    const { start } = finding.location.range;
    const key = `${finding.rule}\u0000${finding.severity}\u0000${finding.location.file}\u0000${start.line}:${start.column}`;
    const group = groups.get(key);
    if (group) group.push(finding);
    else {
      const fresh = [finding];
      groups.set(key, fresh);
      out.push(fresh);
    }
  }
  return out
    .map((item) => {
      if (!Array.isArray(item)) return item;
      if (item.length === 1) return item[0]!;
      const [first, ...others] = [...item].sort(compareFindings);
      const names = [...new Set(others.map((f) => entryOf(f, ids)!))];
      return {
        ...first!,
        message: `${first!.message} The same applies to ${others.length} more ${others.length === 1 ? "entry" : "entries"} that run${others.length === 1 ? "s" : ""} this statement: ${names.join(", ")}.`,
        data: { ...first!.data, sameCauseCount: item.length },
      };
    });
}
