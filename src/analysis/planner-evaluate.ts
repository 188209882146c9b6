// One evaluation of a SELECT the way Cassandra prepares and executes it: relations become
// restrictions (planner-restrictions.ts), then the partition key, clustering and non-key checks of
// StatementRestrictions, DISTINCT / GROUP BY / ORDER BY of SelectStatement, the final ALLOW FILTERING
// check and the execution-time checks on literal values (StatementRestrictions and SelectStatement in apache/cassandra, in that order).
// The first failing check throws a Rejection, so the error reported is the one Cassandra reports.
import type { ColumnReference, FunctionCall, Ordering, Relation, SelectStatement, Term } from "../cql/ast.js";
import type { CassandraVersion, ColumnModel, IndexModel, TableModel } from "../schema/model.js";
import {
  describeIndex,
  filtersMultipleContains,
  indexGroups,
  indexSupports,
  isNonFrozenCollection,
  sasiAcceptsPattern,
  usableIndexes,
  type IndexOperation,
  type LikePatternKind,
} from "./planner-indexes.js";
import {
  ALLOW_FILTERING_GIST,
  columnNames,
  containsCount,
  existingColumn,
  firstColumn,
  indexOperations,
  lastColumn,
  mergeRestrictions,
  reject,
  Rejection,
  relationText,
  toRestriction,
  type RelationContext,
  type Restriction,
} from "./planner-restrictions.js";
import { assignmentError, containsNullLiteral, integerLiteral, isZeroVector, unwrapHint } from "./planner-terms.js";
import { append } from "../arrays.js";

// ---------------------------------------------------------------------------------------------
// Per-table lookups, computed once per TableModel (the bench plans thousands of queries).

interface TableInfo {
  columnsByName: Map<string, ColumnModel>;
  indexes: Map<CassandraVersion, IndexModel[]>;
  hasStatic: boolean;
  /** the Selection of `SELECT *`, made on first use */
  starSelection: Selection | undefined;
}

const tableInfoCache = new WeakMap<TableModel, TableInfo>();

function tableInfo(table: TableModel): TableInfo {
  let info = tableInfoCache.get(table);
  if (!info) {
    info = {
      columnsByName: new Map(table.columns.map((c) => [c.name, c])),
      indexes: new Map(),
      hasStatic: table.static.length > 0,
      starSelection: undefined,
    };
    tableInfoCache.set(table, info);
  }
  return info;
}

/** The table's column of that name, through the per-table map (no scan of its columns). */
export function columnNamed(table: TableModel, name: string): ColumnModel | undefined {
  return tableInfo(table).columnsByName.get(name);
}

export function indexesFor(table: TableModel, version: CassandraVersion): IndexModel[] {
  const info = tableInfo(table);
  let indexes = info.indexes.get(version);
  if (!indexes) {
    indexes = usableIndexes(table, version);
    info.indexes.set(version, indexes);
  }
  return indexes;
}

const NO_RELATIONS: readonly Relation[] = [];
const NO_RESTRICTION_LIST: readonly Restriction[] = [];

const AGGREGATES = new Set(["count", "min", "max", "sum", "avg"]);

const RELEASE_ORDER: Record<CassandraVersion, number> = { "3.11": 0, "4.0": 1, "4.1": 2, "5.0": 3 };

export function atLeast(version: CassandraVersion, minimum: CassandraVersion): boolean {
  return RELEASE_ORDER[version] >= RELEASE_ORDER[minimum];
}

// ---------------------------------------------------------------------------------------------
// The state of one evaluation (one pass over the statement, with or without ALLOW FILTERING).

/** Restrictions per column; read-only to all but mergeInto, which swaps NO_RESTRICTIONS for a map of its own. */
export type RestrictionMap = ReadonlyMap<ColumnModel, Restriction>;

// An evaluation's three maps start as this one empty map (many stay empty, and a Map is a few
// hundred bytes in every one of thousands of evaluations a review); never written to.
const NO_RESTRICTIONS: RestrictionMap = new Map();

export interface Evaluation {
  allowFiltering: boolean;
  /** partition key restrictions per column, and the token() restriction if any */
  partition: RestrictionMap;
  token?: Restriction;
  /** clustering restrictions per column (a multi-column restriction appears under each of its columns) */
  clustering: RestrictionMap;
  nonKey: RestrictionMap;
  customExpressions: { index: IndexModel; relation: Relation }[];
  ann?: Restriction;
  hasQueriableIndex: boolean;
  isKeyRange: boolean;
  usesIndex: boolean;
  /** which restrictions reach the row filter (StatementRestrictions.filterRestrictions) */
  partitionInFilter: boolean;
  clusteringInFilter: boolean;
  ordering?: { reversed: boolean };
  rules: string[];
}

export interface Selection {
  star: boolean;
  /** shared by every `SELECT *` on the table: read, never changed */
  columns: ReadonlySet<ColumnModel>;
  aggregate: boolean;
  onlyStatic: boolean;
  selectsComplexColumn: boolean;
  aliases: ReadonlySet<string>;
}

/** What the accepted evaluation needs to describe the plan. */
export interface Accepted {
  evaluation: Evaluation;
  selection: Selection;
  /** the partition key's shape; the restrictions it looks at do not change once it is taken */
  partitionKey: PartitionKeyShape;
  /** distinctRestrictions(evaluation.clustering), complete once the WHERE clause is read */
  clusteringRestrictions: Restriction[];
}

export function addRule(ev: Evaluation, id: string): void {
  if (!ev.rules.includes(id)) ev.rules.push(id);
}

// ---------------------------------------------------------------------------------------------
// One evaluation, in Cassandra's check order.

export function evaluate(select: SelectStatement, table: TableModel, version: CassandraVersion, allowFiltering: boolean): Accepted | Rejection {
  try {
    return evaluateOrThrow(select, table, version, allowFiltering);
  } catch (error) {
    if (error instanceof Rejection) return error;
    throw error;
  }
}

function evaluateOrThrow(select: SelectStatement, table: TableModel, version: CassandraVersion, allowFiltering: boolean): Accepted {
  const info = tableInfo(table);
  const indexes = indexesFor(table, version);
  const ev: Evaluation = {
    allowFiltering,
    partition: NO_RESTRICTIONS,
    clustering: NO_RESTRICTIONS,
    nonKey: NO_RESTRICTIONS,
    customExpressions: [],
    hasQueriableIndex: false,
    isKeyRange: false,
    usesIndex: false,
    partitionInFilter: false,
    clusteringInFilter: false,
    rules: [],
  };

  // §2 step 1: the grammar of the release line.
  checkGrammar(select, version);

  // Selection (RawSelector.toSelectables): unknown selected columns fail first.
  const selection = prepareSelection(select, table, info);
  const ctx: RelationContext = { table, version, columnsByName: info.columnsByName, aliases: selection.aliases };

  // 5.0 binds the orderings before the WHERE clause (Ordering.Raw.bind).
  if (version === "5.0") for (const o of select.orderBy) existingColumn(ctx, o.column.name, "ORDER BY");

  // §2 step 2: relations → restrictions, merged per column in WHERE order.
  const relations = select.where?.relations ?? NO_RELATIONS;
  let customExpressionCount = 0;
  for (const relation of relations) {
    if (relation.kind === "custom-index-expression") {
      customExpressionCount++;
      continue;
    }
    if (relation.kind === "column" && relation.operator === "IS NOT NULL") {
      reject("A1", `Unsupported restriction: ${relationText(relation)}`, "IS NOT NULL is only accepted in materialized view definitions");
    }
    const restriction = toRestriction(ctx, relation);
    if (restriction.op === "like" && !indexes.some((i) => indexSupports(i, firstColumn(restriction), "like"))) {
      reject(
        "A5",
        `LIKE restriction is only supported on properly indexed columns. ${relationText(relation)} is not valid.`,
        `LIKE on ${firstColumn(restriction).name} needs a SASI index that supports LIKE; ALLOW FILTERING cannot evaluate it`,
      );
    }
    addRestriction(ev, restriction, version, indexes);
  }

  // ORDER BY … ANN OF (5.0): the ordering becomes a restriction on the vector column.
  addAnnOrdering(ev, select, ctx);

  // Custom index expressions and which restrictions an index could serve.
  if (customExpressionCount > 0) {
    const customRelations = relations.filter((r): r is Extract<Relation, { kind: "custom-index-expression" }> => r.kind === "custom-index-expression");
    processCustomExpressions(ev, customRelations, table);
  }
  const clusteringRestrictions = distinctRestrictions(ev.clustering);
  const hasQueriableClusteringIndex = anySupported(clusteringRestrictions, indexes);
  ev.hasQueriableIndex =
    ev.customExpressions.length > 0 ||
    hasQueriableClusteringIndex ||
    anySupported(ev.partition.values(), indexes) ||
    anySupported(ev.nonKey.values(), indexes);

  // Partition key (B1–B4, T2, T3).
  const pk = classifyPartitionKey(ev, table);
  if (pk.onToken) {
    ev.isKeyRange = true;
    addRule(ev, pk.columns === 0 ? "T2" : "T3");
  }
  if (pk.empty) {
    ev.isKeyRange = true;
    ev.usesIndex = ev.hasQueriableIndex;
  }
  if (pk.needsFiltering) {
    addRule(ev, "B3");
    if (!allowFiltering && !ev.hasQueriableIndex) {
      reject("B3", ALLOW_FILTERING_GIST, pk.filteringReason);
    }
    if (pk.hasIn && !atLeast(version, "4.1")) {
      reject("B4", "IN restrictions are not supported when the query involves filtering", `an IN on the partition key cannot be combined with filtering before Cassandra 4.1`);
    }
    ev.isKeyRange = true;
    ev.usesIndex = ev.hasQueriableIndex;
  }
  if (ev.usesIndex || pk.needsFiltering) ev.partitionInFilter = true;

  if (selection.onlyStatic && clusteringRestrictions.length > 0) {
    reject("N4", "Cannot restrict clustering columns when selecting only static columns", "the query selects only static columns but restricts a clustering column");
  }

  // Clustering columns (C1–C7).
  const clusteringNeedsFiltering = processClustering(ev, table, version, selection, clusteringRestrictions);
  if (ev.isKeyRange && hasQueriableClusteringIndex) ev.usesIndex = true;
  if (ev.usesIndex || clusteringNeedsFiltering) ev.clusteringInFilter = true;

  // Non-key columns (N1–N5, E9).
  if (ev.nonKey.size > 0 || ev.ann) {
    checkAnnRestrictions(ev, table, indexes, pk, clusteringNeedsFiltering);
    if (ev.hasQueriableIndex) {
      ev.usesIndex = true;
    } else if (!allowFiltering) {
      const names = [...ev.nonKey.keys()].map((c) => c.name);
      const one = names.length === 1;
      const columns = `the non-key column${one ? "" : "s"} ${names.join(", ")}`;
      const counter = table.columns.some((c) => c.type.kind === "native" && c.type.name === "counter");
      reject(
        counter ? "N5" : "N1",
        ALLOW_FILTERING_GIST,
        counter
          ? `${columns} of a counter table can only be filtered (counter tables cannot have indexes)`
          : `${columns} ${one ? "is" : "are"} restricted without an index that serves ${one ? "it" : "them"}`,
      );
    }
    if (!ev.usesIndex) addRule(ev, ev.isKeyRange ? "N1" : "N2");
  }
  // StatementRestrictions.keyIsInRelation looks at the partition key only.
  if (ev.usesIndex && pk.hasIn) {
    reject("E5", "Select on indexed columns and with IN clause for the PRIMARY KEY are not supported", "an index query cannot also have IN on the partition key");
  }

  // Before 5.0 the ORDER BY columns are looked up once the restrictions are built (getOrderingColumns).
  if (version !== "5.0") for (const o of select.orderBy) existingColumn(ctx, o.column.name, "ORDER BY");

  // §2 step 4: DISTINCT, GROUP BY, PER PARTITION LIMIT with aggregates.
  if (select.distinct) checkDistinct(ev, select, table, selection, clusteringRestrictions);
  const grouping = checkGroupBy(ev, select, table, ctx);
  if (select.perPartitionLimit && !grouping && selection.aggregate) {
    reject("L1", "PER PARTITION LIMIT is not allowed with aggregate queries.", "PER PARTITION LIMIT cannot be combined with an aggregate without GROUP BY");
  }

  // §2 step 5: ORDER BY.
  checkOrdering(ev, select, table, version, ctx);

  // §2 step 6: the final ALLOW FILTERING check for range and index queries.
  if (!allowFiltering && (ev.isKeyRange || ev.usesIndex) && needsFiltering(ev, version, indexes, clusteringRestrictions)) {
    const why = ev.usesIndex
      ? coverageExplanation(version)
      : `a clustering restriction without a partition key restriction is answered by a filtered scan of every partition`;
    reject(ev.usesIndex ? (version === "5.0" ? "E2" : "E3") : "C3", ALLOW_FILTERING_GIST, why);
  }

  // The limits are prepared last (prepareLimit): they must be integers.
  checkLimitType(select.perPartitionLimit, "[per_partition_limit]");
  checkLimitType(select.limit, "[limit]");

  // §2 step 7: execution-time checks on the literal values.
  checkExecution(ev, select, version, indexes, clusteringRestrictions);

  if (ev.usesIndex) {
    addRule(ev, "E1");
    addRule(ev, version === "5.0" ? "E2" : "E3");
  }
  return { evaluation: ev, selection, partitionKey: pk, clusteringRestrictions };
}

// ---------------------------------------------------------------------------------------------
// Grammar (§2 step 1)

function checkGrammar(select: SelectStatement, version: CassandraVersion): void {
  const where = select.where;
  if (where && where.or.length > 0) {
    reject("A1", "syntax error: WHERE accepts only AND-ed relations (no OR)", `OR is not part of the WHERE grammar of Cassandra ${version}`, "syntax");
  }
  for (const relation of where?.relations ?? []) {
    if (relation.kind === "custom-index-expression") continue;
    const op = relation.operator;
    if (op === "BETWEEN" || op === "NOT IN" || op === "NOT CONTAINS" || op === "NOT CONTAINS KEY") {
      reject("A1", `syntax error: ${op} is not supported before Cassandra 5.1`, `${op} does not exist in Cassandra ${version}`, "syntax");
    }
    if (relation.kind === "token" && op === "IN") {
      reject("T1", "syntax error: IN cannot be used with token()", "token() accepts = and ranges, never IN", "syntax");
    }
    if (relation.kind === "column" && relation.field) {
      reject("A4", "syntax error: a user type field cannot be restricted in a WHERE clause", "fields of a user type cannot be restricted", "syntax");
    }
  }
  if (version !== "5.0" && select.orderBy.some((o) => o.ann)) {
    reject("E9", "syntax error: ORDER BY … ANN OF needs Cassandra 5.0", `ANN ordering does not exist in Cassandra ${version}`, "syntax");
  }
  if (!atLeast(version, "4.1") && select.groupBy.some((g) => unwrapHint(g).kind !== "column")) {
    reject("G2", "syntax error: GROUP BY only accepts column names before 4.1", `GROUP BY functions need Cassandra 4.1`, "syntax");
  }
}

// ---------------------------------------------------------------------------------------------
// Selection

function columnReferences(term: Term, out: ColumnReference[]): void {
  switch (term.kind) {
    case "column":
      out.push(term);
      return;
    case "function":
      for (const arg of term.args) columnReferences(arg, out);
      return;
    case "cast":
      columnReferences(term.value, out);
      return;
    case "type-hint":
      columnReferences(term.value, out);
      return;
    case "field":
    case "element":
    case "slice":
      columnReferences(term.target, out);
      return;
    case "binary":
      columnReferences(term.left, out);
      columnReferences(term.right, out);
      return;
    case "negate":
      columnReferences(term.operand, out);
      return;
    default:
      return;
  }
}

function containsAggregate(term: Term): boolean {
  if (term.kind === "function") {
    if (!term.name.keyspace && AGGREGATES.has(term.name.name.name)) return true;
    return term.args.some(containsAggregate);
  }
  if (term.kind === "cast" || term.kind === "type-hint") return containsAggregate(term.value);
  return false;
}

const NO_ALIASES: ReadonlySet<string> = new Set();

function isComplexColumn(c: ColumnModel): boolean {
  return isNonFrozenCollection(c.type) || (c.type.kind === "udt" && !c.type.frozen);
}

function prepareSelection(select: SelectStatement, table: TableModel, info: TableInfo): Selection {
  // `SELECT *` selects the same columns of a table every time: its Selection is made once.
  if (select.star && select.selectors.length === 0) {
    info.starSelection ??= {
      star: true,
      columns: new Set(table.columns),
      aggregate: false,
      onlyStatic: false,
      selectsComplexColumn: table.columns.some(isComplexColumn),
      aliases: NO_ALIASES,
    };
    return info.starSelection;
  }
  const columns = new Set<ColumnModel>();
  let aliases: Set<string> | undefined;
  let aggregate = false;
  const addColumn = (ref: ColumnReference): void => {
    const column = info.columnsByName.get(ref.name.name);
    if (!column) reject("A10", `Undefined column name ${ref.name.name}`, `the selected column ${ref.name.name} does not exist in ${table.qualifiedName}`);
    columns.add(column);
  };
  if (select.star) for (const c of table.columns) columns.add(c);
  for (const selector of select.selectors) {
    if (selector.alias) (aliases ??= new Set()).add(selector.alias.name);
    const expression = selector.expression;
    if (expression.kind === "column") {
      addColumn(expression);
      continue;
    }
    const refs: ColumnReference[] = [];
    columnReferences(expression, refs);
    for (const ref of refs) addColumn(ref);
    if (containsAggregate(expression)) aggregate = true;
  }
  let anyStatic = false;
  let anyOutsideKeyAndStatic = false;
  let selectsComplexColumn = false;
  for (const c of columns) {
    if (c.kind === "static") anyStatic = true;
    else if (c.kind !== "partition") anyOutsideKeyAndStatic = true;
    if (!selectsComplexColumn && isComplexColumn(c)) selectsComplexColumn = true;
  }
  const onlyStatic = !select.star && info.hasStatic && anyStatic && !anyOutsideKeyAndStatic;
  return { star: select.star, columns, aggregate, onlyStatic, selectsComplexColumn, aliases: aliases ?? NO_ALIASES };
}

// ---------------------------------------------------------------------------------------------
// Restriction sets

/**
 * The restrictions of a per-column map, each once (a multi-column restriction is stored under each
 * of its columns), in the order first met: what `new Set(map.values())` gives, without a Set per
 * call (maps hold a handful of entries, and the planner asks thousands of times).
 */
export function restrictionsOf(map: RestrictionMap): Restriction[] {
  const list: Restriction[] = [];
  for (const r of map.values()) if (!list.includes(r)) list.push(r);
  return list;
}

export function distinctRestrictions(map: RestrictionMap): Restriction[] {
  return restrictionsOf(map).sort((a, b) => firstColumn(a).position - firstColumn(b).position);
}

/** RestrictionSet.addRestriction: merge with whatever already restricts the same columns. */
function mergeInto(ev: Evaluation, set: "partition" | "clustering" | "nonKey", incoming: Restriction): void {
  const current = ev[set];
  const map = current === NO_RESTRICTIONS ? new Map<ColumnModel, Restriction>() : (current as Map<ColumnModel, Restriction>);
  ev[set] = map;
  if (incoming.columns.length === 1) {
    // The common case, without the list of overlapping restrictions below.
    const column = incoming.columns[0]!;
    const r = map.get(column);
    if (!r) {
      map.set(column, incoming);
      return;
    }
    const merged = mergeRestrictions(r, incoming);
    for (const c of merged.columns) map.set(c, merged);
    for (const c of r.columns) if (!merged.columns.includes(c)) map.set(c, merged);
    return;
  }
  const existing: Restriction[] = [];
  for (const c of incoming.columns) {
    const r = map.get(c);
    if (r && !existing.includes(r)) existing.push(r);
  }
  if (existing.length === 0) {
    for (const c of incoming.columns) map.set(c, incoming);
    return;
  }
  for (const r of existing) {
    const merged = mergeRestrictions(r, incoming);
    for (const c of merged.columns) map.set(c, merged);
    for (const c of r.columns) if (!merged.columns.includes(c)) map.set(c, merged);
  }
}

function addRestriction(ev: Evaluation, restriction: Restriction, version: CassandraVersion, indexes: IndexModel[]): void {
  const first = firstColumn(restriction);
  if (restriction.onToken) {
    ev.token = ev.token ? mergeRestrictions(ev.token, restriction) : restriction;
    return;
  }
  if (first.kind === "partition") {
    mergeInto(ev, "partition", restriction);
    return;
  }
  if (first.kind === "clustering") {
    // Only read to reject a restriction after a slice, which ALLOW FILTERING permits.
    const before = ev.allowFiltering || ev.clustering.size === 0 ? NO_RESTRICTION_LIST : distinctRestrictions(ev.clustering);
    mergeInto(ev, "clustering", restriction);
    // ClusteringColumnRestrictions.mergeWith: without ALLOW FILTERING, nothing may follow a slice;
    // 5.0 lets an index-supported restriction through (the index answers it).
    const indexed = version === "5.0" && restrictionSupported(restriction, indexes);
    if (before.length > 0 && !ev.allowFiltering && !indexed) {
      const last = before[before.length - 1]!;
      const lastStart = firstColumn(last);
      if (last.op === "slice" && first.position > lastStart.position) {
        reject(
          "C4",
          `Clustering column "${first.name}" cannot be restricted (preceding column "${lastStart.name}" is restricted by a non-EQ relation)`,
          `clustering column ${first.name} is restricted after a range on ${lastStart.name}`,
        );
      }
      if (first.position < lastStart.position && restriction.op === "slice") {
        const next = before.map(firstColumn).find((c) => c.position > first.position) ?? lastStart;
        reject(
          "C4",
          `PRIMARY KEY column "${next.name}" cannot be restricted (preceding column "${first.name}" is restricted by a non-EQ relation)`,
          `clustering column ${next.name} is restricted after a range on ${first.name}`,
        );
      }
    }
    return;
  }
  mergeInto(ev, "nonKey", restriction);
}

function addAnnOrdering(ev: Evaluation, select: SelectStatement, ctx: RelationContext): void {
  const ann = select.orderBy.filter((o) => o.ann);
  if (ann.length === 0) return;
  if (ann.length > 1) reject("E9", "Cannot specify more than one ANN ordering", "only one ANN ordering is allowed");
  if (select.orderBy.length > 1) reject("E9", "ANN ordering does not support any other ordering", "ANN ordering cannot be combined with another ORDER BY column");
  const ordering = ann[0]!;
  if (ordering.direction !== "asc") reject("E9", "Descending ANN ordering is not supported", "ANN ordering is ascending only");
  const column = existingColumn(ctx, ordering.column.name, "ORDER BY");
  const vectorError = ordering.ann ? assignmentError(ordering.ann, column.type, column.name) : null;
  if (vectorError) reject("E9", vectorError, `the ANN vector does not fit ${column.name}`);
  const restriction: Restriction = {
    op: "ann",
    columns: [column],
    multi: false,
    onToken: false,
    relations: [],
    value: ordering.ann,
    containsValues: 0,
    containsKeys: 0,
    containsEntries: 0,
    values: ordering.ann ? [ordering.ann] : [],
  };
  ev.ann = restriction;
  if (column.kind === "partition" || column.kind === "clustering") {
    reject("E9", "ANN ordering is only supported on float vector indexes", `ANN ordering needs a float vector column; ${column.name} is a primary key column`);
  }
  mergeInto(ev, "nonKey", restriction);
}

function processCustomExpressions(
  ev: Evaluation,
  expressions: Extract<Relation, { kind: "custom-index-expression" }>[],
  table: TableModel,
): void {
  if (expressions.length > 1) reject("E1", "Multiple custom index expressions in a single query are not supported", "only one expr(...) is allowed per query");
  const expression = expressions[0]!;
  const name = expression.index.name.name;
  if (expression.index.keyspace && expression.index.keyspace.name !== table.keyspace) {
    reject("E1", `Target index ${name} cannot be used to query ${table.qualifiedName}`, `the index ${name} belongs to another keyspace`);
  }
  const index = table.indexes.find((i) => i.name === name);
  if (!index) reject("E1", `Invalid index expression, index ${name} not found for ${table.qualifiedName}`, `no index named ${name} exists on ${table.qualifiedName}`);
  if (index.implementation === "legacy") {
    reject("E1", `Only CUSTOM indexes may be used in custom index expressions, ${name} is not valid`, `${name} is not a custom index`);
  }
  if (index.implementation !== "custom") {
    reject("E1", `Index ${name} does not support custom expressions`, `${describeIndex(index)} indexes do not accept expr(...)`);
  }
  ev.customExpressions.push({ index, relation: expression });
}

// ---------------------------------------------------------------------------------------------
// Index support (E1)

export function supportingIndexes(r: Restriction, indexes: IndexModel[]): IndexModel[] {
  if (r.onToken || indexes.length === 0) return [];
  const ops = indexOperations(r);
  return indexes.filter((index) => indexServes(index, r, ops));
}

function indexServes(index: IndexModel, r: Restriction, ops: IndexOperation[]): boolean {
  return r.columns.some((column) => ops.some((op) => indexSupports(index, column, op)));
}

/** Whether any index serves the restriction: what `supportingIndexes(…).length > 0` says, without its arrays. */
function restrictionSupported(r: Restriction, indexes: IndexModel[]): boolean {
  if (r.onToken || indexes.length === 0) return false;
  const ops = indexOperations(r);
  for (const index of indexes) if (indexServes(index, r, ops)) return true;
  return false;
}

function anySupported(restrictions: Iterable<Restriction>, indexes: IndexModel[]): boolean {
  if (indexes.length === 0) return false;
  for (const r of restrictions) if (restrictionSupported(r, indexes)) return true;
  return false;
}

/** 5.0 Restriction.needsFiltering(Index.Group) for one restriction. */
function groupServes(r: Restriction, group: IndexModel[]): boolean {
  const multipleContains = r.op === "contains" && containsCount(r) > 1;
  return supportingIndexes(r, group).some((index) => !(multipleContains && filtersMultipleContains(index)));
}

// ---------------------------------------------------------------------------------------------
// Partition key

export interface PartitionKeyShape {
  columns: number;
  empty: boolean;
  onToken: boolean;
  needsFiltering: boolean;
  filteringReason: string;
  hasIn: boolean;
  fullyBoundByEq: boolean;
}

export function classifyPartitionKey(ev: Evaluation, table: TableModel): PartitionKeyShape {
  const restrictions = restrictionsOf(ev.partition);
  const count = ev.partition.size;
  const total = table.partitionKey.length;
  const hasSlice = restrictions.some((r) => r.op === "slice");
  const hasContains = restrictions.some((r) => r.op === "contains" || r.op === "like");
  const partial = count > 0 && count < total;
  const needsFiltering = count > 0 && (partial || hasSlice || hasContains);
  const onToken = ev.token !== undefined && (needsFiltering || count < total);
  const hasIn = restrictions.some((r) => r.op === "in");
  let filteringReason = "";
  if (partial) {
    const missing = table.partitionKey.filter((c) => !ev.partition.has(c)).map((c) => c.name);
    filteringReason = `the partition key is only partly restricted (${missing.join(", ")} not bound), so no partition can be located`;
  } else if (hasSlice) {
    filteringReason = `a range on the partition key cannot locate partitions (the partitioner hashes keys)`;
  } else if (hasContains) {
    filteringReason = `CONTAINS on a partition key column cannot locate a partition`;
  }
  return {
    columns: count,
    empty: count === 0 && ev.token === undefined,
    onToken,
    needsFiltering,
    filteringReason,
    hasIn,
    fullyBoundByEq: count === total && restrictions.every((r) => r.op === "eq"),
  };
}

// ---------------------------------------------------------------------------------------------
// Clustering columns

/** ClusteringColumnRestrictions.needFiltering: a restriction that is not part of the served prefix. */
export function clusteringFilteredRestrictions(restrictions: Restriction[]): Restriction[] {
  const filtered: Restriction[] = [];
  let position = 0;
  for (const r of restrictions) {
    if (r.op === "contains" || r.op === "like" || firstColumn(r).position !== position) {
      filtered.push(r);
      continue;
    }
    if (r.op !== "slice") position = lastColumn(r).position + 1;
  }
  return filtered;
}

function processClustering(
  ev: Evaluation,
  table: TableModel,
  version: CassandraVersion,
  selection: Selection,
  restrictions: Restriction[],
): boolean {
  const hasIn = restrictions.some((r) => r.op === "in");
  if (version === "3.11" && hasIn && selection.selectsComplexColumn) {
    reject(
      "C7",
      "Cannot restrict clustering columns by IN relations when a collection is selected by the query",
      "in Cassandra 3.x a clustering IN cannot be used while a non-frozen collection is selected",
    );
  }
  const hasContains = restrictions.some((r) => r.op === "contains");
  if (hasContains && !ev.hasQueriableIndex && !ev.allowFiltering) {
    reject("C6", "Clustering columns can only be restricted with CONTAINS with a secondary index or filtering", "CONTAINS on a clustering column needs an index or ALLOW FILTERING");
  }
  const filtered = clusteringFilteredRestrictions(restrictions);
  const needsFiltering = filtered.length > 0;
  if (restrictions.length > 0 && !needsFiltering) addRule(ev, "C1");
  if (needsFiltering) {
    if (ev.hasQueriableIndex) {
      ev.usesIndex = true;
    } else if (!ev.allowFiltering) {
      const restricted = [...ev.clustering.keys()].sort((a, b) => a.position - b.position);
      for (let i = 0; i < restricted.length; i++) {
        const expected = table.clustering[i]!;
        const actual = restricted[i]!;
        if (expected !== actual) {
          reject(
            "C2",
            `PRIMARY KEY column "${actual.name}" cannot be restricted as preceding column "${expected.name}" is not restricted`,
            `clustering column ${actual.name} is restricted while ${expected.name} is not`,
          );
        }
      }
    }
    const first = filtered[0]!;
    addRule(ev, first.op === "contains" ? "C6" : filtered.some((r) => firstColumn(r).position > 0 && precededBySlice(restrictions, r)) ? "C4" : "C2");
  }
  return needsFiltering;
}

function precededBySlice(restrictions: Restriction[], r: Restriction): boolean {
  return restrictions.some((other) => other !== r && other.op === "slice" && firstColumn(other).position < firstColumn(r).position);
}

// ---------------------------------------------------------------------------------------------
// ANN (E9, 5.0)

function checkAnnRestrictions(
  ev: Evaluation,
  table: TableModel,
  indexes: IndexModel[],
  pk: PartitionKeyShape,
  clusteringNeedsFiltering: boolean,
): void {
  const ann = ev.ann;
  const indexedColumns = new Set(indexes.map((i) => i.column));
  if (ann) {
    const column = firstColumn(ann);
    const isFloatVector = column.type.kind === "vector" && column.type.element.kind === "native" && column.type.element.name === "float";
    if (!isFloatVector) reject("E9", "ANN ordering is only supported on float vector indexes", `ANN ordering needs a float vector column; ${column.name} is not one`);
    if (!indexedColumns.has(column.name)) {
      reject("E9", "ANN ordering by vector requires the column to be indexed", `the vector column ${column.name} has no SAI index`);
    }
    if (pk.needsFiltering) {
      reject("E9", "ANN ordering by vector requires all restricted column(s) to be indexed", "an ANN query cannot filter on the partition key");
    }
    const others = [...ev.nonKey.keys()].filter((c) => c !== column);
    const clusteringColumns = [...ev.clustering.keys()];
    const notIndexed = [...others, ...clusteringColumns].filter((c) => !indexedColumns.has(c.name));
    if (notIndexed.length > 0) {
      const onlyClustering = notIndexed.every((c) => c.kind === "clustering");
      if (!onlyClustering || pk.columns < table.partitionKey.length || clusteringNeedsFiltering) {
        reject(
          "E9",
          "ANN ordering by vector requires all restricted column(s) to be indexed",
          `an ANN query cannot filter on the non-indexed column(s) ${notIndexed.map((c) => c.name).join(", ")}`,
        );
      }
    }
    return;
  }
  for (const column of ev.nonKey.keys()) {
    if (column.type.kind === "vector" && indexedColumns.has(column.name)) {
      reject("E9", "Vector indexes only support ANN queries", `the vector column ${column.name} is indexed and can only be used with ORDER BY … ANN OF`);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Filtering (E2, E3, C3): StatementRestrictions.needFiltering

function filterRestrictionList(ev: Evaluation, clusteringRestrictions: Restriction[]): Restriction[] {
  const list: Restriction[] = [];
  if (ev.partitionInFilter) append(list, restrictionsOf(ev.partition));
  if (ev.clusteringInFilter) append(list, clusteringRestrictions);
  append(list, restrictionsOf(ev.nonKey));
  return list;
}

function needsFiltering(ev: Evaluation, version: CassandraVersion, indexes: IndexModel[], clusteringRestrictions: Restriction[]): boolean {
  const filter = filterRestrictionList(ev, clusteringRestrictions);
  const restrictedColumns =
    (ev.partitionInFilter ? ev.partition.size : 0) + (ev.clusteringInFilter ? ev.clustering.size : 0) + ev.nonKey.size + ev.customExpressions.length;
  if (restrictedColumns === 0) return ev.clustering.size > 0;
  if (version === "5.0") {
    // IndexRestrictions.needsFiltering: no index group serves every restriction.
    return !indexGroups(indexes).some((group) => filter.every((r) => groupServes(r, group)) && ev.customExpressions.every((e) => group.includes(e.index)));
  }
  const nonKeyContains = restrictionsOf(ev.nonKey).reduce((n, r) => n + (r.op === "contains" ? containsCount(r) : 0), 0);
  return restrictedColumns > 1 || nonKeyContains > 1;
}

function coverageExplanation(version: CassandraVersion): string {
  if (version === "5.0") return "the index is used, but no index group serves every restriction, so the rest must be filtered";
  return "the index serves one restriction; the others would be filtered (one index per query before 5.0)";
}

// ---------------------------------------------------------------------------------------------
// DISTINCT (D1), GROUP BY (G1–G3), ORDER BY (O1–O2, E6)

function checkDistinct(ev: Evaluation, select: SelectStatement, table: TableModel, selection: Selection, clusteringRestrictions: Restriction[]): void {
  addRule(ev, "D1");
  if (select.perPartitionLimit) {
    reject("L1", "PER PARTITION LIMIT is not allowed with SELECT DISTINCT queries", "PER PARTITION LIMIT cannot be combined with DISTINCT");
  }
  const nonStaticFilter = [...ev.nonKey.keys()].some((c) => c.kind !== "static");
  if (clusteringRestrictions.length > 0 || nonStaticFilter) {
    reject(
      "D1",
      "SELECT DISTINCT with WHERE clause only supports restriction by partition key and/or static columns.",
      "SELECT DISTINCT may only restrict partition key and static columns",
    );
  }
  for (const column of selection.columns) {
    if (column.kind !== "partition" && column.kind !== "static") {
      reject(
        "D1",
        `SELECT DISTINCT queries must only request partition key columns and/or static columns (not ${column.name})`,
        `SELECT DISTINCT cannot select ${column.name}`,
      );
    }
  }
  if (!ev.isKeyRange) return;
  for (const column of table.partitionKey) {
    if (!selection.columns.has(column)) {
      reject("D1", `SELECT DISTINCT queries must request all the partition key columns (missing ${column.name})`, `a DISTINCT range query must select every partition key column`);
    }
  }
}

/** Whether a column is bound by `=` (a one-value IN and a multi-column `=` count). */
function restrictedByEq(ev: Evaluation, column: ColumnModel): boolean {
  const r = column.kind === "partition" ? ev.partition.get(column) : column.kind === "clustering" ? ev.clustering.get(column) : ev.nonKey.get(column);
  return r !== undefined && r.op === "eq";
}

function checkGroupBy(ev: Evaluation, select: SelectStatement, table: TableModel, ctx: RelationContext): boolean {
  if (select.groupBy.length === 0) return false;
  addRule(ev, "G1");
  const primaryKey = [...table.partitionKey, ...table.clustering];
  let cursor = 0;
  let clusteringPrefix = 0;
  let sawFunction = false;
  for (const raw of select.groupBy) {
    const term = unwrapHint(raw);
    let column: ColumnModel;
    if (term.kind === "function") {
      addRule(ev, "G2");
      column = groupByFunctionColumn(term, ctx);
      sawFunction = true;
    } else if (term.kind === "column") {
      column = existingColumn(ctx, term.name.name, "GROUP BY");
      if (column.kind !== "partition" && column.kind !== "clustering") {
        reject("G1", `Group by is currently only supported on the columns of the PRIMARY KEY, got ${column.name}`, `${column.name} is not a primary key column`);
      }
      if (sawFunction) reject("G2", "Functions are only supported on the last element of the GROUP BY clause", "a GROUP BY function must come last");
    } else {
      return reject("G1", "syntax error: GROUP BY accepts column names (and from 4.1 functions of one)", "GROUP BY accepts only column names", "syntax");
    }
    for (;;) {
      const next = primaryKey[cursor];
      if (!next) {
        reject("G1", "Group by currently only support groups of columns following their declared order in the PRIMARY KEY", "GROUP BY columns must follow the primary key order");
      }
      cursor++;
      if (next.kind === "clustering") clusteringPrefix++;
      if (next === column) break;
      if (!restrictedByEq(ev, next)) {
        reject(
          "G1",
          "Group by currently only support groups of columns following their declared order in the PRIMARY KEY",
          `GROUP BY skips ${next.name}, which is not bound by =`,
        );
      }
    }
  }
  const following = primaryKey[cursor];
  if (following && following.kind === "partition") {
    reject("G1", "Group by is not supported on only a part of the partition key", "GROUP BY must cover the whole partition key");
  }
  if (clusteringPrefix > 0 && select.distinct) {
    reject("G3", "Grouping on clustering columns is not allowed for SELECT DISTINCT queries", "DISTINCT cannot group on clustering columns");
  }
  return true;
}

function groupByFunctionColumn(call: FunctionCall, ctx: RelationContext): ColumnModel {
  const name = call.name.name.name;
  if (name !== "floor") {
    reject("G2", `Only monotonic functions are supported in the GROUP BY clause. Got: ${name}`, `${name} is not a monotonic time function`);
  }
  const refs: ColumnReference[] = [];
  for (const arg of call.args) columnReferences(arg, refs);
  if (refs.length === 0) reject("G2", "GROUP BY functions must have one clustering column name as parameter", "the GROUP BY function names no column");
  if (refs.length > 1) {
    reject("G2", `GROUP BY functions accept only one clustering column as parameter, got: ${refs.map((r) => r.name.name).join(",")}`, "the GROUP BY function names several columns");
  }
  const column = existingColumn(ctx, refs[0]!.name.name, "GROUP BY");
  if (column.kind !== "clustering") {
    reject("G2", `Group by functions are only supported on clustering columns, got ${column.name}`, `${column.name} is not a clustering column`);
  }
  return column;
}

function checkOrdering(ev: Evaluation, select: SelectStatement, table: TableModel, version: CassandraVersion, ctx: RelationContext): void {
  const orderings: Ordering[] = select.orderBy;
  if (orderings.length === 0) return;
  const columns = orderings.map((o) => existingColumn(ctx, o.column.name, "ORDER BY"));
  if (orderings.some((o) => o.ann)) return; // ANN orderings skip verifyOrderingIsAllowed (5.0)
  if (ev.usesIndex) {
    reject(
      "E6",
      version === "5.0" ? "ORDER BY with 2ndary indexes is not supported, except for ANN queries." : "ORDER BY with 2ndary indexes is not supported.",
      "ORDER BY cannot be used when the query goes through a secondary index",
    );
  }
  if (ev.isKeyRange) {
    reject("O1", "ORDER BY is only supported when the partition key is restricted by an EQ or an IN.", "ORDER BY needs the partition key bound by = or IN");
  }
  addRule(ev, "O2");
  const reversedByPosition = new Map<number, boolean>();
  let expected = 0;
  const wording = version === "3.11" ? "support" : "supports";
  for (let i = 0; i < orderings.length; i++) {
    const column = columns[i]!;
    if (column.kind !== "clustering") {
      reject("O2", `Order by is currently only supported on the clustered columns of the PRIMARY KEY, got ${column.name}`, `${column.name} is not a clustering column`);
    }
    if (version === "3.11") {
      if (expected !== column.position) {
        reject("O2", `Order by currently only ${wording} the ordering of columns following their declared order in the PRIMARY KEY`, "ORDER BY must list clustering columns in their declared order, without skipping (3.x)");
      }
    } else {
      while (expected < column.position) {
        const skipped = table.clustering[expected]!;
        if (!restrictedByEq(ev, skipped)) {
          reject(
            "O2",
            `Order by currently only ${wording} the ordering of columns following their declared order in the PRIMARY KEY`,
            `ORDER BY skips ${skipped.name}, which is not bound by =`,
          );
        }
        expected++;
      }
    }
    expected = column.position + 1;
    const declaredDesc = column.order === "desc";
    reversedByPosition.set(column.position, (orderings[i]!.direction === "desc") !== declaredDesc);
  }
  const directions = new Set(reversedByPosition.values());
  if (directions.size > 1) reject("O2", "Unsupported order by relation", "the ORDER BY columns ask for different directions relative to the clustering order");
  ev.ordering = { reversed: directions.has(true) };
}

// ---------------------------------------------------------------------------------------------
// Execution-time checks (§2 step 7)

function checkLimitType(term: Term | undefined, receiver: string): void {
  if (!term) return;
  const error = assignmentError(term, { kind: "native", name: "int" }, receiver);
  if (error) reject("L1", error, `${receiver} must be an integer`);
}

function likePatternKind(pattern: string): LikePatternKind | "empty" {
  const starts = pattern.startsWith("%");
  const ends = pattern.endsWith("%") && pattern.length > 1;
  const core = pattern.slice(starts ? 1 : 0, ends ? -1 : undefined);
  if (core.length === 0) return "empty";
  if (starts && ends) return "contains";
  if (starts) return "suffix";
  if (ends) return "prefix";
  return "matches";
}

function checkExecution(ev: Evaluation, select: SelectStatement, version: CassandraVersion, indexes: IndexModel[], clusteringRestrictions: Restriction[]): void {
  const limit = integerLiteral(select.limit);
  if (limit !== null && limit <= 0) reject("L1", "LIMIT must be strictly positive", `LIMIT ${limit} is not allowed`, "execution");
  const perPartition = integerLiteral(select.perPartitionLimit);
  if (perPartition !== null && perPartition <= 0) {
    reject("L1", "PER PARTITION LIMIT must be strictly positive", `PER PARTITION LIMIT ${perPartition} is not allowed`, "execution");
  }

  // Literal nulls (A9): key columns fail when the key is built, others when the row filter is.
  // The maps are walked in place: a restriction met twice (a multi-column one under each of its
  // columns) is checked twice to the same effect, and the first failure is the same one.
  for (const r of ev.partition.values()) checkNullLiteral(r);
  if (ev.token) checkNullLiteral(ev.token);
  for (const r of clusteringRestrictions) checkNullLiteral(r);
  for (const r of ev.nonKey.values()) checkNullLiteral(r);

  // Row filter construction: which restrictions are evaluated by filtering (C5, N3).
  if (ev.partitionInFilter) for (const r of ev.partition.values()) checkFilterable(r, version);
  if (ev.clusteringInFilter) {
    const notPrefix = clusteringFilteredRestrictions(clusteringRestrictions);
    for (const r of clusteringRestrictions) if (notPrefix.includes(r) || restrictionSupported(r, indexes)) checkFilterable(r, version);
  }
  for (const r of ev.nonKey.values()) checkFilterable(r, version);

  // SASI LIKE patterns against the index mode (A5).
  for (const r of ev.nonKey.values()) {
    if (r.op !== "like" || !r.value) continue;
    const value = unwrapHint(r.value);
    if (value.kind !== "literal" || value.type !== "string") continue;
    const kind = likePatternKind(value.value);
    if (kind === "empty") reject("A5", "LIKE value can't be empty.", "the LIKE pattern has no characters besides %", "execution");
    const sasi = indexes.filter((i) => i.implementation === "sasi" && i.column === firstColumn(r).name);
    if (sasi.length > 0 && !sasi.some((i) => sasiAcceptsPattern(i, kind))) {
      reject(
        "A5",
        `${likeOperatorName(kind)} is only supported on properly indexed columns`,
        `the SASI index on ${firstColumn(r).name} (${sasi.map(describeIndex).join(", ")}) does not support a ${kind} pattern`,
        "execution",
      );
    }
  }

  // ANN needs a LIMIT of at most 1000, and cosine similarity (the default) a non-zero vector (E9).
  if (ev.ann) {
    const annIndex = indexes.find((i) => i.column === firstColumn(ev.ann!).name && i.implementation === "sai");
    const similarity = (annIndex?.options["similarity_function"] ?? "cosine").toLowerCase();
    if (ev.ann.value && similarity === "cosine" && isZeroVector(ev.ann.value)) {
      reject("E9", "Zero vectors cannot be indexed or queried with cosine similarity", "cosine similarity is undefined for a zero vector", "execution");
    }
    if (!select.limit) {
      reject("E9", "Top-K queries must have a limit specified and the limit must be less than the query page size", "an ANN query needs a LIMIT", "execution");
    }
    if (limit !== null && limit > 1000) {
      reject("E9", `Use of ANN OF in an ORDER BY clause requires a LIMIT that is not greater than 1000. LIMIT was ${limit}`, "ANN queries return at most 1000 rows", "execution");
    }
  }
}

function checkNullLiteral(r: Restriction): void {
  if (!r.values.some(containsNullLiteral)) return;
  const key = r.onToken || firstColumn(r).kind === "partition" || firstColumn(r).kind === "clustering";
  reject(
    "A9",
    key ? `Invalid null value in condition for column ${firstColumn(r).name}` : `Unsupported null value for column ${firstColumn(r).name}`,
    `a literal null cannot be compared with ${columnNames(r)}`,
    "execution",
  );
}

/** Restrictions the row filter evaluates: the shapes it cannot (C5, and IN before 4.1). */
function checkFilterable(r: Restriction, version: CassandraVersion): void {
  if (r.multi && r.op === "slice") {
    reject("C5", "Multi-column slice restrictions cannot be used for filtering.", `the multi-column range on ${columnNames(r)} would have to be filtered`, "execution");
  }
  if (r.multi && r.op === "in") {
    reject(
      "C5",
      atLeast(version, "4.1") ? "Multicolumn IN filters are not supported" : "IN restrictions are not supported on indexed columns",
      `the multi-column IN on ${columnNames(r)} would have to be filtered`,
      "execution",
    );
  }
  if (!r.multi && r.op === "in" && !atLeast(version, "4.1")) {
    reject("C5", "IN restrictions are not supported on indexed columns", `the IN on ${columnNames(r)} would have to be filtered, which Cassandra supports from 4.1`, "execution");
  }
}

function likeOperatorName(kind: LikePatternKind): string {
  return { prefix: "LIKE '<term>%'", suffix: "LIKE '%<term>'", contains: "LIKE '%<term>%'", matches: "LIKE '<term>'" }[kind];
}

