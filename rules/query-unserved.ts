// Query-first modeling: every read the application makes needs a table built for it. An access
// pattern no table serves is a read the application cannot make efficiently, or at all.
import type { CreateTableStatement } from "../src/cql/ast.js";
import { parseCql } from "../src/cql/index.js";
import type { QueryAnalysis } from "../src/analysis/types.js";
import type { Position } from "../src/cql/ast.js";
import { abstractQueryColumns, columnNameSet, manifestQuery, positionAt, queryEntity } from "../src/rule-engine/helpers.js";
import type { AnalysedModel, ParsedSchemaFile } from "../src/rule-engine/model.js";
import type { RuleFix, RuleModule } from "../src/rule-engine/types.js";

/** The suggested CREATE TABLE, if it parses as exactly that. */
function parseSuggestion(text: string): CreateTableStatement | undefined {
  const parsed = parseCql(text);
  const [statement, ...rest] = parsed.statements;
  if (rest.length > 0 || parsed.diagnostics.some((d) => d.severity === "error")) return undefined;
  return statement?.kind === "create-table" ? statement : undefined;
}

/**
 * The keyspace the suggested table's name is qualified with (`keyspace: undefined` when it is not),
 * or undefined when the suggestion does not parse as one CREATE TABLE. The analysis says so for
 * the suggestions it knows to parse; others (hand-made models, names it cannot vouch for) are parsed.
 */
function suggestionQualifier(query: QueryAnalysis, suggestion: string): { keyspace: string | undefined } | undefined {
  if (query.suggestedTableName) return { keyspace: query.suggestedTableName.keyspace };
  const statement = parseSuggestion(suggestion);
  return statement ? { keyspace: statement.name.keyspace?.name } : undefined;
}

/** The keyspace unqualified names resolve to at the end of a file: its last USE, else the manifest's. */
function keyspaceAtEnd(file: ParsedSchemaFile, defaultKeyspace: string | undefined): string | undefined {
  const uses = file.parse.statements.filter((s) => s.kind === "use");
  const last = uses[uses.length - 1];
  return last?.kind === "use" ? last.keyspace.name : defaultKeyspace;
}

/**
 * The schema files and their tables, indexed once per model: targetFile runs for every unserved
 * query. Tables are numbered; counts per table and per file live in typed arrays reused per query,
 * valid where their stamp is the current query's (so nothing is cleared between queries).
 */
interface TargetIndex {
  files: { file: ParsedSchemaFile; keyspaceAtEnd: string | undefined; end?: FileEnd }[];
  /** per table number: the index of its file, and its keyspace */
  tableFile: number[];
  tableKeyspace: string[];
  /** the tables holding each column name: pairs of table number and file index */
  tablesByColumn: Map<string, Int32Array>;
  /** the same, per keyspace: made when a suggestion in that keyspace is placed */
  tablesByColumnIn: Map<string, Map<string, Int32Array>>;
  /** per keyspace (undefined: every keyspace), how many of its tables each file declares */
  tableCounts: Map<string | undefined, number[]>;
  /** scratch: query columns per table; per file the most and the sum of them; the files sharing a column */
  overlap: Int32Array;
  fileMost: Int32Array;
  fileAll: Int32Array;
  sharing: Int32Array;
  /** per table and per file, the stamp of the query their scratch counts are for */
  tableStamp: Int32Array;
  fileStamp: Int32Array;
  stamp: number;
}

const targetIndexCache = new WeakMap<AnalysedModel, TargetIndex>();

function targetIndex(model: AnalysedModel): TargetIndex {
  let index = targetIndexCache.get(model);
  if (index) return index;
  const defaultKeyspace = model.manifest?.keyspace;
  const files = model.schemaFiles.map((file) => ({ file, keyspaceAtEnd: keyspaceAtEnd(file, defaultKeyspace) }));
  const fileIndex = new Map(model.schemaFiles.map((file, i) => [file.path, i]));
  const tableFile: number[] = [];
  const tableKeyspace: string[] = [];
  const holders = new Map<string, number[]>();
  for (const table of model.schema.tables.values()) {
    const file = fileIndex.get(table.source.file);
    if (file === undefined) continue;
    const number = tableFile.length;
    tableFile.push(file);
    tableKeyspace.push(table.keyspace);
    for (const column of columnNameSet(table)) {
      const list = holders.get(column);
      if (list) list.push(number, file);
      else holders.set(column, [number, file]);
    }
  }
  const tablesByColumn = new Map<string, Int32Array>();
  for (const [column, pairs] of holders) tablesByColumn.set(column, Int32Array.from(pairs));
  index = {
    files,
    tableFile,
    tableKeyspace,
    tablesByColumn,
    tablesByColumnIn: new Map(),
    tableCounts: new Map(),
    overlap: new Int32Array(tableFile.length),
    fileMost: new Int32Array(files.length),
    fileAll: new Int32Array(files.length),
    sharing: new Int32Array(files.length),
    tableStamp: new Int32Array(tableFile.length),
    fileStamp: new Int32Array(files.length),
    stamp: 0,
  };
  targetIndexCache.set(model, index);
  return index;
}

/** The tables holding each column, of one keyspace or (undefined) of every keyspace. */
function tablesByColumn(index: TargetIndex, keyspace: string | undefined): Map<string, Int32Array> {
  if (keyspace === undefined) return index.tablesByColumn;
  let byColumn = index.tablesByColumnIn.get(keyspace);
  if (!byColumn) {
    byColumn = new Map();
    for (const [column, pairs] of index.tablesByColumn) {
      const inKeyspace: number[] = [];
      for (let i = 0; i < pairs.length; i += 2) {
        if (index.tableKeyspace[pairs[i]!] === keyspace) inKeyspace.push(pairs[i]!, pairs[i + 1]!);
      }
      if (inKeyspace.length > 0) byColumn.set(column, Int32Array.from(inKeyspace));
    }
    index.tablesByColumnIn.set(keyspace, byColumn);
  }
  return byColumn;
}

function tableCounts(index: TargetIndex, keyspace: string | undefined): number[] {
  let counts = index.tableCounts.get(keyspace);
  if (!counts) {
    counts = index.files.map(() => 0);
    index.tableFile.forEach((file, table) => {
      if (keyspace === undefined || index.tableKeyspace[table] === keyspace) counts![file]!++;
    });
    index.tableCounts.set(keyspace, counts);
  }
  return counts;
}

/**
 * Counts one query column's (table, file) pairs into the scratch arrays; returns the new number of
 * sharing files. Its own function, over typed arrays alone: it is optimised early and stays so,
 * whatever shapes of manifest entries deoptimise targetFile around it.
 */
function countHolders(index: TargetIndex, holding: Int32Array, stamp: number, sharingCount: number): number {
  const { overlap, fileMost, fileAll, sharing, tableStamp, fileStamp } = index;
  for (let i = 0; i < holding.length; i += 2) {
    const table = holding[i]!;
    const file = holding[i + 1]!;
    const count = tableStamp[table] === stamp ? overlap[table]! + 1 : 1;
    tableStamp[table] = stamp;
    overlap[table] = count;
    if (fileStamp[file] !== stamp) {
      fileStamp[file] = stamp;
      fileMost[file] = count;
      fileAll[file] = 1;
      sharing[sharingCount++] = file;
    } else {
      fileAll[file]! += 1;
      if (count > fileMost[file]!) fileMost[file] = count;
    }
  }
  return sharingCount;
}

/**
 * The schema file the suggested table belongs in: one that already declares tables of its keyspace,
 * preferring the file whose tables hold most of the query's columns (the same entity, denormalised).
 * Files are scored by [the most query columns one of their tables holds, the query columns all
 * their tables hold, their table count], the first file winning ties.
 */
function targetFile(model: AnalysedModel, query: QueryAnalysis, qualifiedBy: string | undefined): TargetIndex["files"][number] | undefined {
  const keyspace = qualifiedBy ?? model.manifest?.keyspace;
  const manifestEntry = manifestQuery(model, query.id);
  const wanted = new Set(manifestEntry?.form === "abstract" ? abstractQueryColumns(manifestEntry) : []);
  const index = targetIndex(model);
  const { fileMost, fileAll, sharing, tableStamp, fileStamp } = index;
  const counts = tableCounts(index, keyspace);
  // An unqualified name must resolve to the intended keyspace where it is appended.
  const eligible = (file: number) => counts[file]! > 0 && (qualifiedBy !== undefined || index.files[file]!.keyspaceAtEnd === keyspace);

  // Only tables holding a query column score above zero: find them through the column index,
  // not by scanning every table for every query. A file's sum counts each (column, table) pair and
  // its most follows each table's count as it grows, so one pass over the pairs scores the files.
  // Indexed loop over typed arrays: a column held by most tables makes it the hot loop of the rule.
  const holdingColumn = tablesByColumn(index, keyspace);
  if (index.stamp === 0x3fffffff) {
    tableStamp.fill(0);
    fileStamp.fill(0);
    index.stamp = 0;
  }
  const stamp = ++index.stamp;
  let sharingCount = 0;
  for (const column of wanted) {
    const holding = holdingColumn.get(column);
    if (holding) sharingCount = countHolders(index, holding, stamp, sharingCount);
  }
  // The best score, compared field by field (no score arrays: every file may share a column).
  let best = -1;
  let bestMost = 0;
  let bestAll = 0;
  let bestCount = 0;
  const consider = (file: number, most: number, all: number, count: number): void => {
    if (best >= 0 && !(most > bestMost || (most === bestMost && (all > bestAll || (all === bestAll && count > bestCount))))) return;
    best = file;
    bestMost = most;
    bestAll = all;
    bestCount = count;
  };
  // A typed array sorts numerically without a compare callback.
  const sharingFiles = sharing.subarray(0, sharingCount).sort();
  for (let i = 0; i < sharingFiles.length; i++) {
    const file = sharingFiles[i]!;
    if (eligible(file)) consider(file, fileMost[file]!, fileAll[file]!, counts[file]!);
  }
  // No file shares a column with the query: the one with the most tables of the keyspace.
  if (best < 0) {
    for (let file = 0; file < index.files.length; file++) {
      if (eligible(file)) consider(file, 0, 0, counts[file]!);
    }
  }
  return best >= 0 ? index.files[best]! : undefined;
}

/**
 * Appends the table at the end of the file. A last statement without its `;` is closed first:
 * cqlsh would otherwise read both as one statement. Offered only when the result parses as before.
 */
function appendFix(target: TargetIndex["files"][number], createTable: string, queryId: string): RuleFix | undefined {
  const { file } = target;
  const end = (target.end ??= fileEnd(file));
  // In the file's own line ends: a CRLF file stays CRLF.
  const replacement = `${end.before}-- Serves ${queryId}.\n${createTable};\n`.replace(/\r?\n/g, end.lineEnd);
  if (!end.closed && !parsesAsBeforePlusOne(file, replacement)) return undefined;
  return {
    description: `Add a table that serves ${queryId} to ${file.path} (and write to it wherever its data changes).`,
    file: file.path,
    range: { start: { ...end.position }, end: { ...end.position } },
    replacement,
  };
}

/** What appending to a file needs, the same for every table appended to it: worked out once per file. */
interface FileEnd {
  /** the `;` closing its last statement when missing, and the line breaks before the appended text */
  before: string;
  /** the position of the end of the text */
  position: Position;
  /**
   * Whether the file parses without any diagnostic and ends with `;` and white space alone: then
   * nothing is left open for the appended text to continue (no statement, comment or string), and
   * each statement is parsed on its own, so the appended text stands alone. It is a line comment
   * (query ids hold no line break: ID_PATTERN), then the suggested table, which the analysis or
   * parseSuggestion already found to be exactly one statement without error, and its `;`: it
   * parses as one statement without error, and is not parsed a second time.
   */
  closed: boolean;
  /** `\r\n` when the file's lines end so, else `\n` */
  lineEnd: string;
}

function fileEnd(file: ParsedSchemaFile): FileEnd {
  const { text, parse } = file;
  const last = parse.statements[parse.statements.length - 1];
  const terminator = last && !/^\s*;/.test(text.slice(last.range.end.offset)) ? ";" : "";
  const lineEnd = text.includes("\r\n") ? "\r\n" : "\n";
  const gap = text.length === 0 ? "" : terminator || !text.endsWith("\n") ? "\n\n" : "\n";
  const closed = last !== undefined && parse.diagnostics.length === 0 && /^\s*;\s*$/.test(text.slice(last.range.end.offset));
  return { before: terminator + gap, position: positionAt(text, text.length), closed, lineEnd };
}

/**
 * Whether the file with `replacement` appended parses to its statements plus one, with no new
 * error: asked only of files not known to be closed (FileEnd), by parsing the file again whole.
 */
function parsesAsBeforePlusOne(file: ParsedSchemaFile, replacement: string): boolean {
  const { text, parse } = file;
  const fixed = parseCql(text + replacement);
  const errorsBefore = parse.diagnostics.filter((d) => d.severity === "error").length;
  const errorsAfter = fixed.diagnostics.filter((d) => d.severity === "error").length;
  return errorsAfter <= errorsBefore && fixed.statements.length === parse.statements.length + 1;
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
      sizedWithFix: "{summary}. The suggested fix adds a table shaped for it to {file}; the writes must then fill it too. {sizing}",
      sizedInline: "{summary}. A table that would:\n{table}\n{sizing}",
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
      // The analysis sized the suggestion with the manifest's figures (sizeSuggestedTables): the
      // comment shows the table explain and the JSON show.
      const suggestion = query.suggestedTable?.trim().replace(/;\s*$/, "");
      const sized = query.suggestedTableSizing;
      // The figures' words ride in the data only when they say something.
      const sizing: Record<string, string> = sized !== undefined ? { sizing: sized } : {};
      const qualifier = suggestion ? suggestionQualifier(query, suggestion) : undefined;
      if (!suggestion || !qualifier) {
        context.report({ ...base, messageId: "unserved", data: { query: query.id, summary } });
        continue;
      }
      const target = targetFile(model, query, qualifier.keyspace);
      const fix = target ? appendFix(target, suggestion, query.id) : undefined;
      if (target && fix) {
        // The CREATE TABLE rides in the data as well, so a renderer can show it beside the finding:
        // the statement explain shows, closed by its `;`.
        context.report({ ...base, messageId: sized !== undefined ? "sizedWithFix" : "unservedWithFix", data: { query: query.id, summary, file: target.file.path, table: `${suggestion};`, ...sizing }, fix });
      } else {
        context.report({ ...base, messageId: sized !== undefined ? "sizedInline" : "unservedInline", data: { query: query.id, summary, table: `${suggestion};`, ...sizing } });
      }
    }
  },
};

export default queryUnserved;
