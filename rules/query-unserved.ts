// Query-first modeling: every read the application makes needs a table built for it. An access
// pattern no table serves is a read the application cannot make efficiently, or at all.
import type { CreateTableStatement } from "../src/cql/ast.js";
import { parseCql } from "../src/cql/index.js";
import type { QueryAnalysis } from "../src/analysis/types.js";
import { abstractQueryColumns, manifestQuery, queryEntity, rangeBetween } from "../src/rule-engine/helpers.js";
import type { AnalysedModel, ParsedSchemaFile } from "../src/rule-engine/model.js";
import type { RuleFix, RuleModule } from "../src/rule-engine/types.js";
import type { TableModel } from "../src/schema/model.js";

/** The suggested CREATE TABLE, if it parses as exactly that. */
function parseSuggestion(text: string): CreateTableStatement | undefined {
  const parsed = parseCql(text);
  const [statement, ...rest] = parsed.statements;
  if (rest.length > 0 || parsed.diagnostics.some((d) => d.severity === "error")) return undefined;
  return statement?.kind === "create-table" ? statement : undefined;
}

/** The keyspace unqualified names resolve to at the end of a file: its last USE, else the manifest's. */
function keyspaceAtEnd(file: ParsedSchemaFile, defaultKeyspace: string | undefined): string | undefined {
  const uses = file.parse.statements.filter((s) => s.kind === "use");
  const last = uses[uses.length - 1];
  return last?.kind === "use" ? last.keyspace.name : defaultKeyspace;
}

/** Tables by the file that declares them, once per schema: targetFile runs for every unserved query. */
const tablesByFileCache = new WeakMap<AnalysedModel["schema"], Map<string, TableModel[]>>();

function tablesByFile(schema: AnalysedModel["schema"]): Map<string, TableModel[]> {
  let byFile = tablesByFileCache.get(schema);
  if (!byFile) {
    byFile = new Map();
    for (const table of schema.tables.values()) {
      const list = byFile.get(table.source.file);
      if (list) list.push(table);
      else byFile.set(table.source.file, [table]);
    }
    tablesByFileCache.set(schema, byFile);
  }
  return byFile;
}

/**
 * The schema file the suggested table belongs in: one that already declares tables of its keyspace,
 * preferring the file whose tables hold most of the query's columns (the same entity, denormalised).
 */
function targetFile(model: AnalysedModel, query: QueryAnalysis, statement: CreateTableStatement): ParsedSchemaFile | undefined {
  const defaultKeyspace = model.manifest?.keyspace;
  const keyspace = statement.name.keyspace?.name ?? defaultKeyspace;
  const manifestEntry = manifestQuery(model, query.id);
  const wanted = new Set(manifestEntry?.form === "abstract" ? abstractQueryColumns(manifestEntry) : []);
  let best: { file: ParsedSchemaFile; score: number[] } | undefined;
  for (const file of model.schemaFiles) {
    // An unqualified name must resolve to the intended keyspace where it is appended.
    if (!statement.name.keyspace && keyspaceAtEnd(file, defaultKeyspace) !== keyspace) continue;
    const tables = (tablesByFile(model.schema).get(file.path) ?? []).filter((t) => keyspace === undefined || t.keyspace === keyspace);
    if (tables.length === 0) continue;
    const overlaps = tables.map((t) => t.columns.filter((c) => wanted.has(c.name)).length);
    // The file of the table closest to the query's entity first, then the most shared columns.
    const score = [Math.max(...overlaps), overlaps.reduce((a, b) => a + b, 0), tables.length];
    if (!best || isGreater(score, best.score)) best = { file, score };
  }
  return best?.file;
}

/** Lexicographic comparison of scores. */
function isGreater(a: number[], b: number[]): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! > b[i]!;
  return false;
}

/**
 * Appends the table at the end of the file. A last statement without its `;` is closed first:
 * cqlsh would otherwise read both as one statement. Offered only when the result parses as before.
 */
function appendFix(file: ParsedSchemaFile, createTable: string, queryId: string): RuleFix | undefined {
  const { text } = file;
  const last = file.parse.statements[file.parse.statements.length - 1];
  const terminator = last && !/^\s*;/.test(text.slice(last.range.end.offset)) ? ";" : "";
  const gap = text.length === 0 ? "" : terminator || !text.endsWith("\n") ? "\n\n" : "\n";
  const replacement = `${terminator}${gap}-- Serves ${queryId}.\n${createTable};\n`;
  const fixed = parseCql(text + replacement);
  const errorsBefore = file.parse.diagnostics.filter((d) => d.severity === "error").length;
  const errorsAfter = fixed.diagnostics.filter((d) => d.severity === "error").length;
  if (errorsAfter > errorsBefore || fixed.statements.length !== file.parse.statements.length + 1) return undefined;
  return {
    description: `Add a table that serves ${queryId} to ${file.path} (and write to it wherever its data changes).`,
    file: file.path,
    range: rangeBetween(text, text.length, text.length),
    replacement,
  };
}

const queryUnserved: RuleModule = {
  meta: {
    id: "query-unserved",
    category: "query",
    defaultSeverity: "error",
    description: "No table can serve the access pattern; a CREATE TABLE shaped for it is suggested.",
    messages: {
      unserved: "{summary}.",
      unservedWithFix: "{summary}. The suggested fix adds a table shaped for it to {file}; the writes must then fill it too.",
      unservedInline: "{summary}. A table that would:\n{table}",
    },
    fixable: true,
  },
  check(context) {
    const { model } = context;
    for (const query of model.queries) {
      if (query.plan.verdict !== "unserved") continue;
      const base = { file: query.location.file, range: query.location.range, entity: queryEntity(query.id) };
      const reason = query.plan.reason.trim().replace(/\.$/, "");
      // The planner's reason usually says it already ("No table serves Q3 …"); do not say it twice.
      const summary = reason.includes(query.id) ? reason : `No table serves ${query.id}: ${reason}`;
      const suggestion = query.suggestedTable?.trim().replace(/;\s*$/, "");
      const statement = suggestion ? parseSuggestion(suggestion) : undefined;
      if (!suggestion || !statement) {
        context.report({ ...base, messageId: "unserved", data: { query: query.id, summary } });
        continue;
      }
      const file = targetFile(model, query, statement);
      const fix = file ? appendFix(file, suggestion, query.id) : undefined;
      if (file && fix) {
        context.report({ ...base, messageId: "unservedWithFix", data: { query: query.id, summary, file: file.path }, fix });
      } else {
        context.report({ ...base, messageId: "unservedInline", data: { query: query.id, summary, table: suggestion } });
      }
    }
  },
};

export default queryUnserved;
