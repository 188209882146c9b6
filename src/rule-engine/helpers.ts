// Lookups the rules share. Rules never import one another; what two of them need lives here.
import type { QueryAnalysis } from "../analysis/types.js";
import type { Position, SourceRange } from "../cql/ast.js";
import type { AbstractQuery, ManifestQuery } from "../manifest/types.js";
import type { TableModel } from "../schema/model.js";
import type { AnalysedModel, ParsedSchemaFile } from "./model.js";
import type { RuleContext } from "./types.js";

/** The entity of a manifest query, for fingerprints and `ignore:` matching. */
export function queryEntity(queryId: string): string {
  return `query:${queryId}`;
}

/** The line and column (1-based) of an offset (0-based) in a text. */
export function positionAt(text: string, offset: number): Position {
  const clamped = Math.max(0, Math.min(offset, text.length));
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < clamped; i = text.indexOf("\n", i + 1)) {
    line += 1;
    lineStart = i + 1;
  }
  return { line, column: clamped - lineStart + 1, offset: clamped };
}

/** The range between two offsets of a text. */
export function rangeBetween(text: string, start: number, end: number): SourceRange {
  return { start: positionAt(text, start), end: positionAt(text, end) };
}

/**
 * Re-reports the input stage's findings of one rule id (parse, schema, manifest, config, limits):
 * the input rules wrap them so config can change their severity or turn them off like any rule.
 * Their fingerprint is kept when it follows the `rule:entity` convention.
 */
export function reportInputFindings(context: RuleContext<unknown>, ruleId: string): void {
  const prefix = `${ruleId}:`;
  for (const finding of context.model.inputFindings) {
    if (finding.rule !== ruleId) continue;
    context.report({
      messageId: "input",
      message: finding.message,
      ...(finding.data ? { data: finding.data } : {}),
      file: finding.location.file,
      range: finding.location.range,
      entity: finding.fingerprint.startsWith(prefix) ? finding.fingerprint.slice(prefix.length) : finding.fingerprint,
      ...(finding.fix ? { fix: finding.fix } : {}),
    });
  }
}

/** The manifest entry of an analysed query. */
export function manifestQuery(model: AnalysedModel, queryId: string): ManifestQuery | undefined {
  return model.manifest?.queries.find((q) => q.id === queryId);
}

/** The analysed queries that read a table (by qualified name). */
export function queriesOnTable(model: AnalysedModel, table: string): QueryAnalysis[] {
  return model.queries.filter((q) => q.table === table);
}

/** The parsed schema file a table (or anything with a source) was declared in. */
export function schemaFileOf(model: AnalysedModel, path: string): ParsedSchemaFile | undefined {
  return model.schemaFiles.find((f) => f.path === path);
}

/** The short name users write (`videos`), or the qualified one when the table's keyspace is not the default. */
export function tableLabel(model: AnalysedModel, qualifiedName: string): string {
  const table = model.schema.tables.get(qualifiedName);
  if (!table) return qualifiedName;
  return model.manifest?.keyspace === table.keyspace ? table.name : table.qualifiedName;
}

/** `a`, `a and b`, `a, b and c`. */
export function joinWords(items: readonly string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

/** Every column name of a table, in declaration order. */
export function columnNames(table: TableModel): string[] {
  return table.columns.map((c) => c.name);
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** The closest known rule id, when one is close enough to be a typo. */
export function closestRuleId(id: string, known: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(id.length / 4)) + 1;
  for (const candidate of known) {
    const distance = editDistance(id, candidate);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** The columns an abstract query names (select, where, order by), each once, in that order. */
export function abstractQueryColumns(query: AbstractQuery): string[] {
  return [...new Set([...query.select, ...query.where.map((w) => w.column), ...query.orderBy.map((o) => o.column)])];
}
