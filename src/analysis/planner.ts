// The query planner: what Cassandra does with one SELECT against one table, for one release line.
// It follows Cassandra's own check order
// (SelectStatement.RawStatement.prepare, then StatementRestrictions, then execution), so that the
// error reported is the one Cassandra reports first.
//
// A query is evaluated as written; when that fails, it is evaluated again with ALLOW FILTERING:
// if that passes, the verdict is `needs-allow-filtering` (scope from the second run), otherwise
// `invalid` (§1 verdict definitions).
import type { SelectStatement, Term } from "../cql/ast.js";
import type { CassandraVersion, IndexModel, TableModel } from "../schema/model.js";
import {
  addRule,
  atLeast,
  clusteringFilteredRestrictions,
  distinctRestrictions,
  evaluate,
  indexesFor,
  restrictionsOf,
  supportingIndexes,
  type Accepted,
  type Evaluation,
  type PartitionKeyShape,
  type Selection,
} from "./planner-evaluate.js";
import { describeIndex } from "./planner-indexes.js";
import { firstColumn, relationText, Rejection, type Restriction } from "./planner-restrictions.js";
import { distinctCount, integerLiteral, unwrapHint } from "./planner-terms.js";
import type { PlanStep, QueryPlan } from "./types.js";

/**
 * A sentence without the planner's internal rule codes (`B1: `, `(C1: …)`, ` (T3)`): people read
 * reasons and notes, and the codes mean nothing to them; they stay in the plan's `ruleIds`.
 */
export function withoutRuleCodes(text: string): string {
  return text
    .replace(/ \([A-Z]\d{1,2}\)(?=\.|$)/g, "")
    .replace(/(^|\(|[;.:] )[A-Z]\d{1,2}: /g, "$1");
}

/** A plan's reason without rule codes and without its final period, to quote inside a finding's sentence. */
export function reasonWithoutRuleCodes(reason: string): string {
  return withoutRuleCodes(reason).trim().replace(/\.$/, "");
}

// ---------------------------------------------------------------------------------------------
// Entry point

export function planSelect(select: SelectStatement, table: TableModel, version: CassandraVersion): QueryPlan {
  try {
    const plan = planOrThrow(select, table, version);
    // Reasons and notes are read by people: the rule codes live in `ruleIds` only.
    plan.reason = withoutRuleCodes(plan.reason);
    plan.notes = plan.notes.map(withoutRuleCodes);
    return plan;
  } catch (error) {
    // Never throw on input: an unexpected shape becomes an honest "cannot judge" plan.
    return {
      verdict: "invalid",
      partitions: null,
      reason: `The planner could not judge this statement (${error instanceof Error ? error.message : String(error)}).`,
      ruleIds: [],
      errorGist: "internal planner error",
      direction: null,
      rowsRead: null,
      allowFilteringWritten: select.allowFiltering,
      notes: [],
      steps: [{ topic: "table", text: `Table ${table.qualifiedName}.` }],
    };
  }
}

function planOrThrow(select: SelectStatement, table: TableModel, version: CassandraVersion): QueryPlan {
  const asWritten = evaluate(select, table, version, select.allowFiltering);
  if (!(asWritten instanceof Rejection)) return acceptedPlan(select, table, version, asWritten);

  if (!select.allowFiltering && asWritten.stage !== "syntax") {
    const withFiltering = evaluate(select, table, version, true);
    if (!(withFiltering instanceof Rejection)) {
      const scope = acceptedPlan(select, table, version, withFiltering);
      const plan: Omit<QueryPlan, "steps"> = {
        verdict: "needs-allow-filtering",
        partitions: scope.partitions,
        reason: `${asWritten.ruleId}: ${asWritten.explanation}; Cassandra asks for ALLOW FILTERING, and with it the query would be a ${scope.verdict} read.`,
        ruleIds: unique([asWritten.ruleId, ...withFiltering.evaluation.rules]),
        errorGist: asWritten.gist,
        direction: null,
        rowsRead: null,
        allowFilteringWritten: false,
        notes: scope.notes,
      };
      return withLazySteps(plan, () => [
        ...scope.steps.filter((s) => s.topic !== "verdict"),
        { topic: "verdict", text: `Rejected as written: ${asWritten.gist}. Adding ALLOW FILTERING makes it a ${scope.verdict} read.` },
      ]);
    }
    const gist = withFiltering.gist === asWritten.gist ? asWritten.gist : `${asWritten.gist} (with ALLOW FILTERING: ${withFiltering.gist})`;
    return rejectedPlan(select, table, withFiltering.gist === asWritten.gist ? asWritten : withFiltering, gist, asWritten.ruleId);
  }
  return rejectedPlan(select, table, asWritten, asWritten.gist, asWritten.ruleId);
}

// A plan's `steps` are made on first read: the matcher plans every candidate table and only the
// chosen plan's steps are ever shown (explain), so building them eagerly was most of a plan's
// allocation. The property stays own and enumerable (JSON.stringify, spreads and deep equality
// see it, in the same key order). Every plan shares one accessor, and keeps its maker in a private
// field stamped onto the plain object: invisible to JSON, keys, symbols, spreads and deep
// equality, and added by an ordinary (inline-cached) store, where hiding it under a
// non-enumerable key took a second Object.defineProperty per plan. An accessor made per plan
// (a getter in the literal, a closure) turns each plan into a slow dictionary object, and a
// WeakMap of makers costs the garbage collector ephemeron work for thousands of plans a review.

/** Returns the object it is given, so that a subclass can stamp private fields onto a plain object. */
class PlainObject {
  constructor(target: object) {
    return target;
  }
}

class StepMaker extends PlainObject {
  #make: (() => PlanStep[]) | undefined;

  private constructor(plan: object, make: () => PlanStep[]) {
    super(plan);
    this.#make = make;
  }

  static stamp(plan: object, make: () => PlanStep[]): void {
    new StepMaker(plan, make);
  }

  /** The plan's maker, once: later reads find nothing (the steps are settled by then). */
  static take(plan: object): (() => PlanStep[]) | undefined {
    if (!(#make in plan)) return undefined;
    const make = (plan as StepMaker).#make;
    (plan as StepMaker).#make = undefined;
    return make;
  }
}

function settleSteps(plan: object, steps: PlanStep[]): void {
  StepMaker.take(plan);
  Object.defineProperty(plan, "steps", { value: steps, writable: true, enumerable: true, configurable: true });
}

const LAZY_STEPS: PropertyDescriptor = {
  enumerable: true,
  configurable: true,
  get(this: object): PlanStep[] {
    const steps = StepMaker.take(this)?.() ?? [];
    settleSteps(this, steps);
    return steps;
  },
  set(this: object, steps: PlanStep[]): void {
    settleSteps(this, steps);
  },
};

function withLazySteps(plan: Omit<QueryPlan, "steps">, makeSteps: () => PlanStep[]): QueryPlan {
  StepMaker.stamp(plan, makeSteps);
  return Object.defineProperty(plan, "steps", LAZY_STEPS) as QueryPlan;
}

function unique(ids: string[]): string[] {
  return [...new Set(ids)];
}

function rejectedPlan(select: SelectStatement, table: TableModel, decisive: Rejection, gist: string, firstRule: string): QueryPlan {
  return {
    verdict: "invalid",
    partitions: null,
    reason: `${decisive.ruleId}: ${decisive.explanation}; Cassandra rejects the query${select.allowFiltering || decisive.stage === "syntax" ? "" : " even with ALLOW FILTERING"}.`,
    ruleIds: unique([firstRule, decisive.ruleId]),
    errorGist: gist,
    direction: null,
    rowsRead: null,
    allowFilteringWritten: select.allowFiltering,
    notes: decisive.stage === "execution" ? ["The error is raised when the statement executes, not when it is prepared."] : [],
    steps: [
      { topic: "table", text: describeTable(table) },
      { topic: "verdict", text: `Rejected (${decisive.ruleId}): ${decisive.gist}.` },
    ],
  };
}

// ---------------------------------------------------------------------------------------------
// Accepted plans: verdict, partitions, rows, notes, steps

function partitionProduct(ev: Evaluation, table: TableModel): number | null {
  let product = 1;
  let unknown = false;
  for (const column of table.partitionKey) {
    const r = ev.partition.get(column);
    if (!r) return null;
    if (r.op === "eq") continue;
    if (r.op !== "in") return null;
    if (!r.inValues) {
      unknown = true;
      continue;
    }
    const count = distinctCount(r.inValues);
    if (count === 0) return 0;
    if (count === null) unknown = true;
    else product *= count;
  }
  return unknown ? null : product;
}

/** Rows one partition yields when every clustering column is bound by = or literal IN lists. */
function rowsPerBoundPartition(ev: Evaluation, restrictions: Restriction[], table: TableModel): number | null {
  let rows = 1;
  for (const r of restrictions) {
    if (r.op === "eq") continue;
    if (r.op === "in" && r.inValues) {
      const count = distinctCount(r.inValues);
      if (count === null) return null;
      rows *= count;
      continue;
    }
    return null;
  }
  if (ev.clustering.size < table.clustering.length) return null;
  const filteredOut = clusteringFilteredRestrictions(restrictions).length > 0;
  return filteredOut ? null : rows;
}

function acceptedPlan(select: SelectStatement, table: TableModel, version: CassandraVersion, accepted: Accepted): QueryPlan {
  const { evaluation: ev, selection, partitionKey: pk, clusteringRestrictions } = accepted;
  const indexes = indexesFor(table, version);
  let verdict: QueryPlan["verdict"];
  let partitions: QueryPlan["partitions"];
  let reason: string;
  // The index Cassandra queries comes from the row filter; when no filtered restriction is
  // indexed (4.x can accept such a query), the read is a plain key read that filters.
  const indexUsed = ev.usesIndex ? chooseIndex(ev, indexes) : undefined;
  const tokenBounded = pk.onToken;
  const { keyNames } = tableTexts(table);

  if (indexUsed) {
    verdict = "index";
    partitions = pk.fullyBoundByEq && !tokenBounded ? 1 : tokenBounded ? null : "all";
    const where = partitions === 1 ? "inside the one partition whose key is bound" : tokenBounded ? "over the token range" : "across every token range (scatter to all replicas)";
    const name = `${indexUsed.name} (${describeIndex(indexUsed)})`;
    reason = `E1: the read goes through the index ${name} ${where}${select.allowFiltering ? ", filtering what the index does not cover" : ""}.`;
  } else if (ev.isKeyRange) {
    verdict = "scan";
    partitions = tokenBounded ? null : "all";
    if (pk.columns === 0 && ev.token) {
      reason = `T2: token() restricts a range of the ring, read as a partition-range scan (every partition in the range).`;
    } else if (pk.needsFiltering) {
      reason = `B3: ${pk.filteringReason}; with ALLOW FILTERING every partition is read and filtered.`;
    } else if (ev.nonKey.size > 0 || ev.clustering.size > 0) {
      reason = `N1: no partition key restriction; with ALLOW FILTERING every partition is read and filtered.`;
    } else {
      reason = `B1: no partition key restriction, so every partition is read.`;
    }
    addRule(ev, pk.needsFiltering ? "B3" : "N1");
  } else {
    const count = partitionProduct(ev, table);
    if (pk.hasIn) {
      verdict = "multi-partition";
      partitions = count;
      addRule(ev, "B2");
      const counted = count === null ? "as many partitions as the bound lists hold distinct values are" : `${count} partition${count === 1 ? " is" : "s are"}`;
      const operators = restrictionsOf(ev.partition).some((r) => r.op === "eq") ? "= and IN" : "IN";
      reason = `B2: the partition key (${keyNames}) is bound by ${operators}, so ${counted} read${clusteringSummary(clusteringRestrictions)}.`;
    } else {
      verdict = "single-partition";
      partitions = 1;
      addRule(ev, "B1");
      reason = `B1: the partition key (${keyNames}) is bound by =, so one partition is read${clusteringSummary(clusteringRestrictions)}${ev.nonKey.size > 0 || ev.clusteringInFilter ? ", filtering its rows" : ""}.`;
    }
    if (ev.token) reason += " The token() bound only filters the listed keys (T3).";
  }

  const limit = integerLiteral(select.limit);
  const perPartition = integerLiteral(select.perPartitionLimit);
  const grouped = select.groupBy.length > 0;
  let rowsRead: number | null = null;
  if (verdict === "single-partition" || verdict === "multi-partition") {
    const perKey = select.distinct ? 1 : rowsPerBoundPartition(ev, clusteringRestrictions, table);
    const count = typeof partitions === "number" ? partitions : null;
    if (perKey !== null && count !== null) rowsRead = perKey * count;
    // LIMIT bounds the rows read only when every row read is returned: not under aggregation,
    // grouping or filtering (a filtered read may scan the whole partition to find LIMIT rows).
    const filtered = ev.nonKey.size > 0 || ev.clusteringInFilter;
    const limitsRows = !selection.aggregate && !grouped && !filtered;
    if (limitsRows && verdict === "single-partition") {
      for (const bound of [limit, perPartition]) if (bound !== null && bound > 0) rowsRead = rowsRead === null ? bound : Math.min(rowsRead, bound);
    }
    if (limitsRows && verdict === "multi-partition" && rowsRead !== null && limit !== null && limit > 0 && select.orderBy.length === 0) {
      rowsRead = Math.min(rowsRead, limit);
    }
  }
  // A scan with nothing to filter returns every row it reads, so its LIMIT stops it: Cassandra
  // walks the token ring only until it has LIMIT rows (DISTINCT: LIMIT partition keys).
  const unfilteredScan = verdict === "scan" && (select.where?.relations.length ?? 0) === 0 && !selection.aggregate && !grouped;
  if (unfilteredScan && limit !== null && limit > 0) rowsRead = limit;

  const notes = planNotes(select, table, version, ev, verdict, selection, indexUsed, pk);
  // Built by assignment in the plan's key order: a conditional spread makes every plan slower to
  // build and to read on Node 20, and each query has one or more plans.
  const plan: Partial<Omit<QueryPlan, "steps">> = {
    verdict,
    partitions,
    reason,
    ruleIds: [...ev.rules],
    direction: ev.ordering ? (ev.ordering.reversed ? "reverse" : "forward") : null,
    rowsRead,
  };
  if (indexUsed) plan.index = indexUsed.name;
  plan.allowFilteringWritten = select.allowFiltering;
  plan.notes = notes;
  return withLazySteps(plan as Omit<QueryPlan, "steps">, () => planSteps(select, table, version, ev, verdict, partitions, indexUsed, rowsRead, selection));
}

/** ", within it a slice on c" — how the clustering restrictions narrow each partition. */
function clusteringSummary(restrictions: Restriction[]): string {
  if (restrictions.length === 0) return "";
  const filtered = clusteringFilteredRestrictions(restrictions);
  // One pass over the served restrictions, without the intermediate arrays: every key read asks.
  let last: Restriction | undefined;
  let anyIn = false;
  let columns: string | undefined;
  for (const r of restrictions) {
    if (filtered.length > 0 && filtered.includes(r)) continue;
    for (const c of r.columns) columns = columns === undefined ? c.name : `${columns}, ${c.name}`;
    last = r;
    if (r.op === "in") anyIn = true;
  }
  if (!last) return "";
  const shape = last.op === "slice" ? "a slice" : anyIn ? "a set of rows" : "the rows";
  return ` (C1: ${shape} selected by ${columns ?? ""})`;
}

/** The index Cassandra would query: the one serving the first indexable restriction of the row filter. */
function chooseIndex(ev: Evaluation, indexes: IndexModel[]): IndexModel | undefined {
  if (ev.customExpressions.length > 0) return ev.customExpressions[0]!.index;
  if (ev.ann) {
    const vector = supportingIndexes(ev.ann, indexes)[0];
    if (vector) return vector;
  }
  const order = [
    ...restrictionsOf(ev.nonKey),
    ...(ev.clusteringInFilter ? distinctRestrictions(ev.clustering) : []),
    ...(ev.partitionInFilter ? restrictionsOf(ev.partition) : []),
  ];
  for (const r of order) {
    const index = supportingIndexes(r, indexes)[0];
    if (index) return index;
  }
  return undefined;
}

function planNotes(
  select: SelectStatement,
  table: TableModel,
  version: CassandraVersion,
  ev: Evaluation,
  verdict: QueryPlan["verdict"],
  selection: Selection,
  indexUsed: IndexModel | undefined,
  pk: PartitionKeyShape,
): string[] {
  const notes: string[] = [];
  if (pk.hasIn && select.orderBy.length > 0 && !select.orderBy.some((o) => o.ann)) {
    notes.push(
      "O3: with IN on the partition key, ORDER BY sorts every row of every listed partition on the coordinator; with paging on (drivers page by default) Cassandra refuses it (\"Cannot page queries with both ORDER BY and a IN restriction on the partition key\") unless its LIMIT is at most the page size, when it runs unpaged.",
    );
  }
  if (selection.aggregate && select.groupBy.length === 0 && (verdict === "scan" || verdict === "index" || ev.isKeyRange)) {
    notes.push("L2: an aggregate over a query that is not restricted to one partition reads every matching partition; Cassandra sends a client warning.");
  }
  if (atLeast(version, "4.1")) {
    if (verdict === "multi-partition") {
      notes.push("Guardrails (4.1+): partition_keys_in_select and in_select_cartesian_product can warn or fail on the number of keys (off by default).");
    }
    if (select.allowFiltering) notes.push("Guardrail (4.1+): allow_filtering_enabled: false rejects every ALLOW FILTERING query.");
    if (select.groupBy.length > 0) notes.push("Guardrail (4.1+): group_by_enabled: false rejects GROUP BY.");
  }
  if (verdict === "index" && indexUsed) {
    if (indexUsed.implementation === "legacy") {
      notes.push(
        pk.fullyBoundByEq
          ? "E10: the legacy index is read only on the replicas of the bound partition, within that partition's slice of the hidden index table."
          : "E10: a legacy 2i without a partition key walks the token ranges of every replica, reading the index partition for the value on each node and then each base row; only one index is used, the rest is filtered.",
      );
    } else if (indexUsed.implementation === "sai") {
      notes.push(
        pk.fullyBoundByEq
          ? "E10: SAI looks up the per-SSTable indexes of the bound partition's replicas; indexed predicates are intersected in one plan."
          : "E10: SAI intersects indexed predicates in one plan but still scatters over every token range without a partition key; 5.0 guardrail non_partition_restricted_index_query_enabled can forbid it.",
      );
    } else if (indexUsed.implementation === "sasi") {
      notes.push(`E10: SASI index ${indexUsed.name}; SASI is experimental and its creation is disabled by default from 4.0 (sasi_indexes_enabled).`);
    }
    if (version === "5.0" && indexUsed.implementation === "legacy" && !indexUsed.className) {
      notes.push("E11: plain CREATE INDEX is assumed to create a legacy index (default_secondary_index: legacy_local_table); with sai as the default the coverage rules of SAI apply.");
    }
  }
  if (version !== "5.0" && table.indexes.some((i) => i.implementation === "sai")) {
    notes.push(`SAI indexes do not exist before Cassandra 5.0; they are ignored for ${version}.`);
  }
  if (select.allowFiltering && verdict !== "needs-allow-filtering") {
    const alreadyServed = !ev.usesIndex && !ev.isKeyRange && ev.nonKey.size === 0 && !ev.clusteringInFilter;
    if (alreadyServed) notes.push("ALLOW FILTERING is written but not needed: the primary key serves every restriction.");
  }
  return notes;
}

/** Texts about a table that every plan on it repeats, made once per table (a string is shared, not copied). */
interface TableTexts {
  /** the partition key's column names, comma-separated */
  keyNames: string;
  /** the plan's first step */
  description: string;
}

const tableTextsCache = new WeakMap<TableModel, TableTexts>();

function tableTexts(table: TableModel): TableTexts {
  let texts = tableTextsCache.get(table);
  if (!texts) {
    const keyNames = table.partitionKey.map((c) => c.name).join(", ");
    const clustering = table.clustering.map((c) => `${c.name} ${(c.order ?? "asc").toUpperCase()}`).join(", ");
    const description = `${table.kind === "view" ? "Materialized view" : "Table"} ${table.qualifiedName}: partition key (${keyNames})${clustering ? `, clustering ${clustering}` : ", no clustering columns"}.`;
    texts = { keyNames, description };
    tableTextsCache.set(table, texts);
  }
  return texts;
}

function describeTable(table: TableModel): string {
  return tableTexts(table).description;
}

function relationsText(r: Restriction): string {
  if (r.op === "ann") return `ORDER BY ${firstColumn(r).name} ANN OF …`;
  return r.relations.map((rel) => relationText(rel)).join(" AND ");
}

function planSteps(
  select: SelectStatement,
  table: TableModel,
  version: CassandraVersion,
  ev: Evaluation,
  verdict: QueryPlan["verdict"],
  partitions: QueryPlan["partitions"],
  indexUsed: IndexModel | undefined,
  rowsRead: number | null,
  selection: Selection,
): PlanStep[] {
  const steps: PlanStep[] = [{ topic: "table", text: describeTable(table) }];
  const filteredClustering = new Set(clusteringFilteredRestrictions(distinctRestrictions(ev.clustering)));

  if (ev.token) steps.push({ topic: "partition key", text: `${relationsText(ev.token)}: a token range of the ring (T2).` });
  for (const column of table.partitionKey) {
    const r = ev.partition.get(column);
    if (!r) {
      steps.push({ topic: "partition key", text: `${column.name} is not restricted.` });
      continue;
    }
    const text = relationsText(r);
    if (r.op === "eq") steps.push({ topic: "partition key", text: `${text} binds ${column.name}.` });
    else if (r.op === "in") {
      const count = r.inValues ? distinctCount(r.inValues) : null;
      steps.push({ topic: "partition key", text: `${text} lists ${count === null ? "an unknown number of" : count} value${count === 1 ? "" : "s"} for ${column.name}.` });
    } else steps.push({ topic: "partition key", text: `${text} cannot locate a partition; it is filtered.` });
  }
  for (const column of table.clustering) {
    const r = ev.clustering.get(column);
    if (!r) continue;
    if (r.columns.length > 1 && firstColumn(r) !== column) continue;
    const text = relationsText(r);
    const shape = filteredClustering.has(r)
      ? "filtered row by row (not a prefix of the clustering key)"
      : r.op === "slice"
        ? "a slice of the clustering order"
        : r.op === "in"
          ? "a set of clustering values"
          : "binds a clustering prefix";
    steps.push({ topic: "clustering", text: `${text}: ${shape}.` });
  }
  for (const r of restrictionsOf(ev.nonKey)) {
    if (r.op === "ann") continue;
    const served = indexUsed && supportingIndexes(r, [indexUsed]).length > 0;
    steps.push({
      topic: "filter",
      text: `${relationsText(r)}: ${served ? `answered by the index ${indexUsed!.name}` : indexUsed ? "filtered after the index lookup" : verdict === "scan" ? "filtered on every row read" : "filtered inside the partition"}.`,
    });
  }
  if (indexUsed) steps.push({ topic: "index", text: `Index ${indexUsed.name} (${describeIndex(indexUsed)}) on ${indexUsed.column}${indexUsed.target !== "simple" ? ` (${indexUsed.target})` : ""} is used.` });
  if (ev.ann) steps.push({ topic: "order", text: `ORDER BY ${firstColumn(ev.ann).name} ANN OF …: top-k nearest vectors from the SAI index.` });
  else if (ev.ordering) {
    steps.push({
      topic: "order",
      text: ev.ordering.reversed ? "ORDER BY reverses the clustering order: each partition is read backwards." : "ORDER BY follows the clustering order: each partition is read forwards.",
    });
  }
  if (select.groupBy.length > 0) steps.push({ topic: "group", text: `GROUP BY ${select.groupBy.length} column(s): rows are aggregated per group as they are read.` });
  if (select.perPartitionLimit) steps.push({ topic: "limit", text: `PER PARTITION LIMIT ${termShown(select.perPartitionLimit)} rows from each partition.` });
  if (select.limit) steps.push({ topic: "limit", text: `LIMIT ${termShown(select.limit)}${selection.aggregate || select.groupBy.length > 0 ? " (applies to the result rows, not to the rows read)" : ""}.` });
  const partitionText = partitions === "all" ? "every partition of the table" : partitions === null ? "an unknown number of partitions" : `${partitions} partition${partitions === 1 ? "" : "s"}`;
  steps.push({ topic: "partitions", text: `Reads ${partitionText}${rowsRead !== null ? `, at most ${rowsRead} row${rowsRead === 1 ? "" : "s"}` : ""}.` });
  steps.push({ topic: "verdict", text: `${verdict} (Cassandra ${version}).` });
  return steps;
}

function termShown(term: Term): string {
  const t = unwrapHint(term);
  if (t.kind === "literal") return t.value;
  if (t.kind === "bind") return t.name ? `:${t.name}` : "?";
  return "(expression)";
}
