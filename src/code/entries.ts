// The statements of the application's code as manifest entries, so they are planned and checked
// exactly like written ones: a SELECT becomes a query, an INSERT, UPDATE, DELETE, BATCH or TRUNCATE a write,
// with every position on the code line. A manifest entry with `code: path#function` describes the
// statement of that id: it lends its id, rate and ignores, and takes the CQL from the code when it
// has none of its own.
import type { SelectStatement, Statement } from "../cql/ast.js";
import { parseCql } from "../cql/index.js";
import { collectSpans, moveSpan, SourceSpan } from "../cql/source-span.js";
import type { SourceLocation } from "../findings.js";
import type { CqlQuery, Manifest, ManifestQuery, ManifestWrite } from "../manifest/types.js";
import type { CodeExtraction, CodeStatement } from "./types.js";

// TRUNCATE deletes a table's data: a write path (that the write rules, which look at INSERT, UPDATE
// and DELETE, pass over), not a schema change.
const WRITE_KINDS = new Set<Statement["kind"]>(["insert", "update", "delete", "batch", "truncate"]);

export interface CodeModel {
  extraction: CodeExtraction;
  /** statement id → the id of the manifest entry that describes it */
  described: Map<string, string>;
  /** manifest entries whose `code:` names no statement of the code read */
  unresolved: { entry: string; ref: string; location: SourceLocation }[];
  /** manifest entries with CQL of their own that no statement of the code runs */
  notInCode: { entry: string; location: SourceLocation }[];
}

/** The statement parsed, every position moved onto the literal it is written in. */
function parseAt(statement: CodeStatement): Statement | undefined {
  const { result, spans } = collectSpans(() => parseCql(statement.cql));
  const target = statement.range;
  if (target instanceof SourceSpan) for (const span of spans) moveSpan(span, target);
  return result.statements.length === 1 ? result.statements[0] : undefined;
}

/** Whitespace and a final `;` aside, the same text: how a written entry is matched to code. */
export function sameCql(a: string, b: string): boolean {
  // Trimmed first, so the final `;` is found without a backtracking `\s*;\s*$`.
  const norm = (text: string) => {
    const spaced = text.replace(/\s+/g, " ").trim();
    return (spaced.endsWith(";") ? spaced.slice(0, -1).trimEnd() : spaced).toLowerCase();
  };
  return norm(a) === norm(b);
}

const locationOf = (statement: CodeStatement): SourceLocation => ({ file: statement.file, range: statement.range });

function implicitQuery(statement: CodeStatement, parsed: SelectStatement): CqlQuery {
  return { id: statement.id, form: "cql", cql: statement.cql, statement: parsed, cqlLocation: locationOf(statement), ignore: [], location: locationOf(statement) };
}

function implicitWrite(statement: CodeStatement, parsed: Statement): ManifestWrite {
  // A statement that only ever runs inside a batch stays an entry (its rate and size count), marked so.
  return { id: statement.id, ...(statement.batchOnly ? { insideBatch: true as const } : {}), statements: [{ cql: statement.cql, statement: parsed, location: locationOf(statement), ...bindsOf([statement]) }], retried: true, ignore: [], location: locationOf(statement) };
}

/** The places the code binds a text's markers, over every statement of the code that runs it; none when one of them is not read. */
function bindsOf(statements: CodeStatement[]): { binds?: ManifestWrite["statements"][number]["binds"] } {
  if (statements.length === 0 || statements.some((s) => !s.binds)) return {};
  return { binds: statements.flatMap((s) => s.binds!) };
}

/**
 * The manifest with the code's statements added (a manifest of them alone when there is none),
 * and what the drift rules need. Entries the manifest already has keep their place and ids.
 */
export function mergeCodeIntoManifest(extraction: CodeExtraction, manifest: Manifest | undefined): { manifest: Manifest | undefined; code: CodeModel } {
  const code: CodeModel = { extraction, described: new Map(), unresolved: [], notInCode: [] };
  const byId = new Map(extraction.statements.map((s) => [s.id, s]));
  const readFiles = new Set(extraction.files.map((f) => f.path));
  const queries: ManifestQuery[] = [];
  const writes: ManifestWrite[] = [];

  const attach = (entry: ManifestQuery | ManifestWrite, ownCql: string[]): CodeStatement | undefined => {
    if (entry.code) {
      const statement = byId.get(entry.code.ref);
      if (statement) {
        code.described.set(statement.id, entry.id);
        return statement;
      }
      // Only a file that was read can say the statement is gone.
      const file = entry.code.ref.slice(0, entry.code.ref.indexOf("#"));
      if (readFiles.has(file) || extraction.statements.length > 0) code.unresolved.push({ entry: entry.id, ref: entry.code.ref, location: entry.code.location });
      return undefined;
    }
    const matching = ownCql.length > 0 ? extraction.statements.filter((s) => ownCql.some((text) => sameCql(text, s.cql))) : [];
    for (const statement of matching) code.described.set(statement.id, entry.id);
    if (matching.length === 0 && ownCql.length > 0 && extraction.statements.length > 0) code.notInCode.push({ entry: entry.id, location: entry.location });
    return undefined;
  };

  for (const query of manifest?.queries ?? []) {
    const statement = attach(query, query.form === "cql" && query.cql !== "" ? [query.cql] : []);
    if (statement && query.form === "cql" && query.cql === "") {
      const parsed = parseAt(statement);
      const filled: CqlQuery = { ...query, cql: statement.cql, cqlLocation: locationOf(statement), location: locationOf(statement) };
      if (parsed?.kind === "select") filled.statement = parsed;
      queries.push(filled);
    } else queries.push(query);
  }
  for (const write of manifest?.writes ?? []) {
    const statement = attach(
      write,
      write.statements.map((s) => s.cql),
    );
    if (statement && write.statements.length === 0) {
      const parsed = parseAt(statement);
      writes.push({ ...write, statements: [{ cql: statement.cql, statement: parsed && WRITE_KINDS.has(parsed.kind) ? parsed : undefined, location: locationOf(statement), ...bindsOf([statement]) }], location: locationOf(statement) });
    } else if (extraction.statements.length > 0 && !write.code) {
      // A write written out in the manifest: the code that runs the same text binds its markers.
      writes.push({ ...write, statements: write.statements.map((s) => ({ ...s, ...bindsOf(extraction.statements.filter((c) => sameCql(c.cql, s.cql))) })) });
    } else writes.push(write);
  }

  for (const statement of extraction.statements) {
    if (code.described.has(statement.id)) continue;
    const parsed = parseAt(statement);
    if (parsed?.kind === "select") queries.push(implicitQuery(statement, parsed));
    else if (parsed && WRITE_KINDS.has(parsed.kind)) writes.push(implicitWrite(statement, parsed));
  }
  if (!manifest && queries.length === 0 && writes.length === 0) return { manifest, code };
  const base: Manifest = manifest ?? { file: "", version: 1, tables: [], queries: [], writes: [] };
  return { manifest: { ...base, queries, writes }, code };
}
