// The table matcher: which table serves an abstract access pattern (`select`/`where`/`order_by`).
// For every table holding all the pattern's columns it synthesizes the SELECT the pattern implies,
// plans it, and ranks the candidates (one access pattern, exactly one table).
//
// Which candidate "serves" the query: a primary-key read (single- or multi-partition) always; an
// index read only when no table offers a primary-key read, because a Cassandra modeller would
// accept an index-served pattern (the query rules still flag its cost) but never one that needs
// ALLOW FILTERING or a full scan. A pattern with no WHERE at all is a scan on any table, so the
// best candidate serves it as a scan. Anything else is `unserved`, with a suggested table.
import type { Identifier, Ordering, Relation, Selector, SelectStatement, SourceRange, Term } from "../cql/ast.js";
import { quoteName } from "../cql/print.js";
import type { AbstractQuery } from "../manifest/types.js";
import type { CassandraVersion, SchemaModel, TableModel } from "../schema/model.js";
import { planSelect, reasonWithoutRuleCodes } from "./planner.js";
import { columnNamed } from "./planner-evaluate.js";
import { suggestTableFor } from "./suggest-table.js";
import type { Candidate, QueryPlan, Verdict } from "./types.js";
import { compareCodeUnits } from "../arrays.js";

export interface MatchOptions {
  version: CassandraVersion;
  keyspace?: string;
}

export interface MatchResult {
  table: string | null;
  candidates: Candidate[];
  plan: QueryPlan;
  /** the SELECT synthesized against the chosen table (or the best candidate) */
  select?: SelectStatement;
  suggestedTable?: string;
  /** the table suggestedTable creates, when known without parsing it (TableSuggestion) */
  suggestedTableName?: { keyspace?: string; name: string };
}

const VERDICT_RANK: Record<Verdict, number> = {
  "single-partition": 0,
  "multi-partition": 1,
  index: 2,
  scan: 3,
  "needs-allow-filtering": 4,
  invalid: 5,
  unserved: 6,
};

// ---------------------------------------------------------------------------------------------
// Tables by column name, built once per schema so a match costs the tables of its rarest column.

const tablesByColumnCache = new WeakMap<SchemaModel, Map<string, TableModel[]>>();

function tablesByColumn(schema: SchemaModel): Map<string, TableModel[]> {
  let index = tablesByColumnCache.get(schema);
  if (!index) {
    index = new Map();
    const tables = [...schema.tables.values()].sort((a, b) => compareCodeUnits(a.qualifiedName, b.qualifiedName));
    for (const table of tables) {
      for (const column of table.columns) {
        let list = index.get(column.name);
        if (!list) index.set(column.name, (list = []));
        list.push(table);
      }
    }
    tablesByColumnCache.set(schema, index);
  }
  return index;
}

/** Every column the pattern names: selected, restricted and ordered. */
export function queryColumns(query: AbstractQuery): string[] {
  const names = new Set<string>();
  for (const name of query.select) if (name !== "*") names.add(name);
  for (const w of query.where) names.add(w.column);
  for (const o of query.orderBy) names.add(o.column);
  return [...names];
}

const NO_TABLES: TableModel[] = [];

function holdsAll(table: TableModel, columns: string[]): boolean {
  for (const c of columns) if (columnNamed(table, c) === undefined) return false;
  return true;
}

function candidateTables(columns: string[], schema: SchemaModel, keyspace: string | undefined): TableModel[] {
  const index = tablesByColumn(schema);
  let tables: TableModel[];
  if (columns.length === 0) {
    tables = [...schema.tables.values()];
  } else {
    let rarest: TableModel[] | undefined;
    for (const c of columns) {
      const list = index.get(c) ?? NO_TABLES;
      if (rarest === undefined || list.length < rarest.length) rarest = list;
    }
    // Plain loops: the rarest column may still be one hundreds of tables hold.
    tables = [];
    for (const table of rarest!) if (holdsAll(table, columns)) tables.push(table);
  }
  if (keyspace !== undefined && tables.some((t) => t.keyspace === keyspace)) tables = tables.filter((t) => t.keyspace === keyspace);
  return tables;
}

/** How many tables the matcher would plan an abstract query against: the tables holding all its columns. */
export function candidateCount(query: AbstractQuery, schema: SchemaModel, keyspace: string | undefined): number {
  return candidateTables(queryColumns(query), schema, keyspace).length;
}

// ---------------------------------------------------------------------------------------------
// The SELECT a pattern implies, built as AST nodes; ranges point at the manifest entry.

// Names as the synthesized SELECTs write them: the same few column and table names come back in
// every pattern and candidate, so each is quoted once (bounded, as the process serves many reviews).
const quotedNames = new Map<string, string>();
const QUOTED_NAMES_KEPT = 4096;

function quoted(name: string): string {
  let text = quotedNames.get(name);
  if (text === undefined) {
    if (quotedNames.size >= QUOTED_NAMES_KEPT) quotedNames.clear();
    text = quoteName(name);
    quotedNames.set(name, text);
  }
  return text;
}

function identifier(name: string, range: SourceRange): Identifier {
  const text = quoted(name);
  return { name, text, quoted: text !== name, range };
}

/**
 * The parts of a pattern's SELECT that do not depend on the table: made once per match and shared
 * by the SELECT of every candidate table (the planner only reads them; only one SELECT leaves the
 * match).
 */
interface SelectParts {
  star: boolean;
  selectors: Selector[];
  relations: Relation[];
  orderBy: Ordering[];
  limit: Term | undefined;
  /** `SELECT a, b` */
  head: string;
  /** ` WHERE … ORDER BY … LIMIT n`, each present part after a space; may be empty */
  tail: string;
}

function selectParts(query: AbstractQuery): SelectParts {
  const range = query.location.range;
  const marker = (r: SourceRange): Term => ({ kind: "bind", range: r });
  const star = query.select.length === 0 || query.select.includes("*");
  const selectors: Selector[] = star
    ? []
    : query.select.map((name, i) => {
        const at = query.selectLocations?.[i]?.range ?? range;
        return { expression: { kind: "column", name: identifier(name, at), range: at }, range: at };
      });
  const relations: Relation[] = query.where.map((w) => ({
    kind: "column",
    column: identifier(w.column, w.location.range),
    operator: w.operator,
    value: marker(w.location.range),
    range: w.location.range,
  }));
  const orderBy: Ordering[] = query.orderBy.map((o) => {
    const at = o.location?.range ?? range;
    return { column: identifier(o.column, at), direction: o.direction, range: at };
  });
  const limit: Term | undefined = query.limit !== undefined ? { kind: "literal", type: "integer", value: String(query.limit), range } : undefined;
  const head = `SELECT ${star ? "*" : selectors.map((s) => (s.expression.kind === "column" ? s.expression.name.text : "")).join(", ")}`;
  let tail = "";
  if (relations.length > 0) tail += ` WHERE ${query.where.map((w) => `${quoted(w.column)} ${w.operator} ?`).join(" AND ")}`;
  if (orderBy.length > 0) tail += ` ORDER BY ${orderBy.map((o) => `${o.column.text} ${o.direction.toUpperCase()}`).join(", ")}`;
  if (limit) tail += ` LIMIT ${query.limit}`;
  return { star, selectors, relations, orderBy, limit, head, tail };
}

/** `FROM ks.name` as the synthesized SELECT writes it, made once per table. */
const fromClauses = new WeakMap<TableModel, string>();

function fromClause(table: TableModel): string {
  let from = fromClauses.get(table);
  if (from === undefined) {
    from = `FROM ${table.keyspace ? quoteName(table.keyspace) + "." : ""}${quoteName(table.name)}`;
    fromClauses.set(table, from);
  }
  return from;
}

function selectOn(parts: SelectParts, query: AbstractQuery, table: TableModel): SelectStatement {
  const range = query.location.range;
  const text = `${parts.head} ${fromClause(table)}${parts.tail}`;
  const name = identifier(table.name, range);
  // Built by assignment in the AST's key order, not with spreads: every candidate table makes one,
  // and on Node 20 objects made as `{ ...a, b }` are an order of magnitude slower to build and read.
  const select: Partial<SelectStatement> = { kind: "select", text, range, json: false, distinct: false, star: parts.star, selectors: parts.selectors };
  select.table = table.keyspace ? { keyspace: identifier(table.keyspace, range), name, range } : { name, range };
  if (parts.relations.length > 0) select.where = { relations: parts.relations, or: [], range };
  select.groupBy = [];
  select.orderBy = parts.orderBy;
  if (parts.limit) select.limit = parts.limit;
  select.allowFiltering = false;
  return select as SelectStatement;
}

export function synthesizeSelect(query: AbstractQuery, table: TableModel): SelectStatement {
  return selectOn(selectParts(query), query, table);
}

// ---------------------------------------------------------------------------------------------
// Ranking

interface Ranked {
  table: TableModel;
  plan: QueryPlan;
  select: SelectStatement;
  extraColumns: number;
}

function partitionsRank(p: QueryPlan["partitions"]): number {
  if (typeof p === "number") return p;
  return p === null ? Number.MAX_SAFE_INTEGER - 1 : Number.MAX_SAFE_INTEGER;
}

function directionRank(d: QueryPlan["direction"]): number {
  return d === "reverse" ? 1 : 0;
}

function compareRanked(a: Ranked, b: Ranked): number {
  return (
    VERDICT_RANK[a.plan.verdict] - VERDICT_RANK[b.plan.verdict] ||
    partitionsRank(a.plan.partitions) - partitionsRank(b.plan.partitions) ||
    directionRank(a.plan.direction) - directionRank(b.plan.direction) ||
    a.extraColumns - b.extraColumns ||
    compareCodeUnits(a.table.qualifiedName, b.table.qualifiedName)
  );
}

function because(entry: Ranked, position: number, best: Ranked | undefined, served: boolean): string {
  const parts = [`${entry.plan.verdict}`];
  if (entry.plan.direction) parts.push(`${entry.plan.direction} read`);
  parts.push(`${entry.extraColumns === 0 ? "no" : entry.extraColumns} column${entry.extraColumns === 1 ? "" : "s"} beyond the query's`);
  const summary = parts.join(", ");
  if (position === 0) return `${served ? "chosen" : "best candidate, but it does not serve the query"}: ${summary}. ${entry.plan.reason}`;
  const ahead = best ? ` ${best.table.qualifiedName} ranks higher` : "";
  return `ranked ${position + 1}: ${summary}.${ahead ? ahead + "." : ""} ${entry.plan.reason}`;
}

function serves(best: Ranked, query: AbstractQuery): boolean {
  const verdict = best.plan.verdict;
  if (verdict === "single-partition" || verdict === "multi-partition" || verdict === "index") return true;
  return verdict === "scan" && query.where.length === 0;
}

export function matchAbstractQuery(query: AbstractQuery, schema: SchemaModel, options: MatchOptions): MatchResult {
  const columns = queryColumns(query);
  const tables = candidateTables(columns, schema, options.keyspace);
  const parts = selectParts(query);
  const ranked: Ranked[] = tables.map((table) => {
    const select = selectOn(parts, query, table);
    return { table, select, plan: planSelect(select, table, options.version), extraColumns: table.columns.length - columns.length };
  });
  ranked.sort(compareRanked);
  const best = ranked[0];
  const served = best !== undefined && serves(best, query);
  const candidates: Candidate[] = ranked.map((entry, i) => ({
    table: entry.table.qualifiedName,
    plan: entry.plan,
    because: because(entry, i, best, served),
  }));

  if (best && served) {
    return { table: best.table.qualifiedName, candidates, plan: best.plan, select: best.select };
  }

  const suggestion = suggestTableFor(query, schema, { keyspace: options.keyspace });
  const reason = best
    ? `No table serves ${query.id} from its primary key or an index: the best candidate, ${best.table.qualifiedName}, gets the verdict ${best.plan.verdict}: ${reasonWithoutRuleCodes(best.plan.reason)}.`
    : `No table holds all of the columns ${columns.join(", ")} that ${query.id} names.`;
  const plan: QueryPlan = {
    verdict: "unserved",
    partitions: null,
    reason,
    ruleIds: best ? best.plan.ruleIds : [],
    direction: null,
    rowsRead: null,
    allowFilteringWritten: false,
    notes: [],
    steps: [
      { topic: "match", text: best ? `${ranked.length} table${ranked.length === 1 ? " holds" : "s hold"} the columns; none reads the pattern by its key.` : "No table holds every column of the pattern." },
      { topic: "suggestion", text: "A table keyed for this pattern is suggested." },
    ],
  };
  const unserved: MatchResult = { table: null, candidates, plan };
  if (best) unserved.select = best.select;
  unserved.suggestedTable = suggestion.text;
  if (suggestion.name) unserved.suggestedTableName = suggestion.name;
  return unserved;
}
