// An index on the column does not mean the index serves the predicate: each index kind answers
// only some operators (the index implementations in apache/cassandra). The query then filters or is rejected, and
// the index only costs writes.
import type { ColumnRelation, Relation } from "../src/cql/ast.js";
import { isNonFrozenCollection, queryEntity } from "../src/rule-engine/helpers.js";
import type { ColumnModel, IndexModel } from "../src/schema/model.js";
import type { RuleModule } from "../src/rule-engine/types.js";

type Operation = "=" | "IN" | "range" | "CONTAINS" | "CONTAINS KEY" | "entry" | "LIKE";

function operationOf(relation: ColumnRelation): Operation | undefined {
  if (relation.key) return relation.operator === "=" ? "entry" : undefined;
  switch (relation.operator) {
    case "=":
    case "IN":
    case "CONTAINS":
    case "CONTAINS KEY":
    case "LIKE":
      return relation.operator;
    case "<":
    case "<=":
    case ">":
    case ">=":
      return "range";
    default:
      // !=, NOT …, IS NOT NULL, BETWEEN: no index is involved; Cassandra rejects them (query-invalid).
      return undefined;
  }
}

/** The index's target as Cassandra reads it: an unqualified index on a non-frozen collection indexes its values. */
function effectiveTarget(index: IndexModel, column: ColumnModel): IndexModel["target"] {
  return index.target === "simple" && isNonFrozenCollection(column.type) ? "values" : index.target;
}

// LIKE is served only by SASI, experimental and off by default since 4.0 (table-sasi-index): the
// reason says so without sending the reader to it.
const LIKE_NEEDS_SASI =
  "Cassandra serves LIKE only through a SASI index, which is experimental, disabled by default since 4.0 and not advised (see table-sasi-index); store the words or prefixes the query looks for as a key of their own table instead";

const SAI_NO_RANGE = new Set(["text", "varchar", "ascii", "uuid", "timeuuid", "boolean"]);

const OPERATOR_TEXT: Record<Operation, string> = {
  "=": "=",
  IN: "IN",
  range: "a range (<, <=, >, >=)",
  CONTAINS: "CONTAINS",
  "CONTAINS KEY": "CONTAINS KEY",
  entry: "a map entry (m[key] = …)",
  LIKE: "LIKE",
};

const COLLECTION_TARGET_FOR: Partial<Record<Operation, IndexModel["target"]>> = {
  CONTAINS: "values",
  "CONTAINS KEY": "keys",
  entry: "entries",
};

function likePattern(relation: ColumnRelation): string | undefined {
  return relation.value?.kind === "literal" && relation.value.type === "string" ? relation.value.value : undefined;
}

/** Why the index cannot serve the operation, or undefined when it can (or when its kind is unknown). */
function unsupportedBecause(index: IndexModel, column: ColumnModel, operation: Operation, relation: ColumnRelation): string | undefined {
  const target = effectiveTarget(index, column);
  if (index.implementation === "custom") return undefined;
  if (operation === "IN") return "no index kind serves IN; Cassandra filters IN predicates on non-key columns at best";
  const wantedTarget = COLLECTION_TARGET_FOR[operation];
  if (wantedTarget) {
    if (index.implementation === "sasi") return "SASI indexes do not index collections";
    return target === wantedTarget ? undefined : `it indexes the collection's ${target}, and ${OPERATOR_TEXT[operation]} needs an index on ${wantedTarget}(${column.name})`;
  }
  if (target === "values" || target === "keys" || target === "entries") {
    return `it indexes the collection's ${target}, which serves CONTAINS-style predicates, not ${OPERATOR_TEXT[operation]}`;
  }
  switch (index.implementation) {
    case "legacy":
      if (operation === "=") return undefined;
      if (operation === "LIKE") return `legacy secondary indexes answer equality only. ${LIKE_NEEDS_SASI}`;
      return "legacy secondary indexes answer equality only, never ranges";
    case "sai":
      if (operation === "=") return column.type.kind === "vector" ? "an SAI index on a vector serves ANN ordering, not equality" : undefined;
      if (operation === "LIKE") return `SAI does not serve LIKE. ${LIKE_NEEDS_SASI}`;
      if (column.type.kind === "native" && SAI_NO_RANGE.has(column.type.name)) {
        return `SAI serves no ranges on ${column.type.name} columns`;
      }
      return undefined;
    case "sasi": {
      if (operation !== "LIKE") return undefined;
      const mode = (index.options["mode"] ?? "PREFIX").toUpperCase();
      if (mode === "SPARSE") return "a SASI index in SPARSE mode does not serve LIKE";
      const pattern = likePattern(relation);
      if (mode === "PREFIX" && pattern?.startsWith("%")) {
        return `a SASI index in PREFIX mode serves only 'prefix%' patterns, not '${pattern}' (use mode CONTAINS)`;
      }
      return undefined;
    }
  }
}

function columnRelations(relations: readonly Relation[]): ColumnRelation[] {
  return relations.filter((r): r is ColumnRelation => r.kind === "column");
}

const queryIndexUnsupportedOperator: RuleModule = {
  meta: {
    id: "query-index-unsupported-operator",
    category: "query",
    defaultSeverity: "warning",
    description: "The column has an index, but its kind cannot serve the query's operator, so the index does not help.",
    messages: {
      unsupported: "{query}: index {index} on {column} cannot serve {operator}: {because}. The query gets no help from it (its verdict is {verdict}).",
    },
    fixable: false,
  },
  check(context) {
    for (const query of context.model.queries) {
      const { plan, select } = query;
      // When the primary key already serves the read, an index is beside the point (E4).
      if (!select?.where || plan.verdict === "single-partition" || plan.verdict === "multi-partition") continue;
      const table = query.table ? context.model.schema.tables.get(query.table) : undefined;
      if (!table) continue;
      for (const relation of columnRelations(select.where.relations)) {
        const operation = operationOf(relation);
        const column = table.columns.find((c) => c.name === relation.column.name);
        if (!operation || !column) continue;
        const indexes = table.indexes.filter((i) => i.column === column.name);
        if (indexes.length === 0) continue;
        const reasons = indexes.map((index) => ({ index, because: unsupportedBecause(index, column, operation, relation) }));
        // One index that serves it is enough.
        if (reasons.some((r) => r.because === undefined)) continue;
        const first = reasons[0]!;
        context.report({
          messageId: "unsupported",
          data: {
            query: query.id,
            index: reasons.map((r) => r.index.name).join(", "),
            column: column.name,
            operator: OPERATOR_TEXT[operation],
            because: first.because!,
            verdict: plan.verdict,
            implementation: first.index.implementation,
          },
          file: query.location.file,
          range: query.location.range,
          entity: `${queryEntity(query.id)}:column:${column.name}`,
        });
      }
    }
  },
};

export default queryIndexUnsupportedOperator;
