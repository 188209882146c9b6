// TTL is set per cell when it is written: a retention decided after launch leaves every row written
// before it for ever. Time-window compaction only pays off when whole windows expire together.
import { isTimeType } from "../src/analysis/estimator.js";
import { queriesOnTable, tableEntity, tableLabel, tableLocation, volumeOf, writesOnTable } from "../src/rule-engine/helpers.js";
import type { AnalysedModel } from "../src/rule-engine/model.js";
import type { RuleModule } from "../src/rule-engine/types.js";
import type { ColumnModel, TableModel } from "../src/schema/model.js";

const RANGE_OPERATORS = new Set(["<", "<=", ">", ">="]);

/**
 * Whether a clustering column marks a time series. A timestamp or date does. A timeuuid is also
 * the usual unique identifier (a lookup table of repair runs keyed by their `id timeuuid`), so it
 * counts only when the model uses it as time: the table keeps it newest first (CLUSTERING ORDER
 * DESC), the manifest states the partitions' growth, a query reads a range of it or orders by it,
 * or a write fills it with now().
 */
function marksTimeSeries(model: AnalysedModel, table: TableModel, column: ColumnModel): boolean {
  if (!isTimeType(column.type)) return false;
  if (column.type.kind !== "native" || column.type.name !== "timeuuid") return true;
  if (column.order === "desc" || volumeOf(model, table)?.growthPerSecond !== undefined) return true;
  for (const query of queriesOnTable(model, table.qualifiedName)) {
    const select = query.select;
    if (!select) continue;
    if (select.orderBy.some((o) => o.column?.name === column.name)) return true;
    for (const relation of select.where?.relations ?? []) {
      if (relation.kind === "column" && relation.column.name === column.name && RANGE_OPERATORS.has(relation.operator)) return true;
    }
  }
  for (const write of writesOnTable(model, table)) {
    const statement = write.statement;
    if (statement.kind !== "insert") continue;
    const at = statement.columns.findIndex((c) => c.name === column.name);
    const value = at < 0 ? undefined : statement.values[at];
    if (value?.kind === "function" && value.name.name.name.toLowerCase() === "now") return true;
  }
  return false;
}

const tableTimeSeriesWithoutTtl: RuleModule = {
  meta: {
    id: "table-time-series-without-ttl",
    category: "table",
    defaultSeverity: "warning",
    description: "A time-series table has no TTL and no stated retention, or uses time-window compaction without a TTL.",
    messages: {
      noTtl:
        "{table} is a time series (clustered by `{column}`) with no default_time_to_live, no TTL on its writes and no `retention` in the manifest: its rows live for ever. Decide now: a TTL set later applies only to new writes, so every row written before it stays until deleted one by one. Set default_time_to_live, or state the retention the application enforces (`retention: 90d`, or `retention: forever` when keeping everything is intended).",
      twcsWithoutTtl:
        "{table} uses TimeWindowCompactionStrategy with default_time_to_live = 0{writesTtl}. TWCS is built to drop whole SSTables once every row in them has expired; without a TTL nothing expires, windows are never dropped, and deletes leave tombstones that TWCS compacts poorly. Cassandra 5.0 warns on such tables (guardrail `zero_ttl_on_twcs_warned`). Set default_time_to_live to the retention, or use another compaction strategy.",
    },
    fixable: false,
  },
  check(context) {
    const { model } = context;
    for (const table of model.schema.tables.values()) {
      if (table.kind !== "table" || table.defaultTtlSeconds > 0) continue;
      const own = writesOnTable(model, table).filter((w) => w.statement.kind !== "delete");
      const everyWriteExpires = own.length > 0 && own.every((w) => w.statement.using?.ttl !== undefined);
      if (everyWriteExpires) continue;
      const label = tableLabel(model, table.qualifiedName);

      if (table.compaction?.className === "TimeWindowCompactionStrategy") {
        const statement = table.statement.kind === "create-table" ? table.statement : undefined;
        const entry = statement?.options.find((o) => o.name.name === "compaction");
        context.report({
          messageId: "twcsWithoutTtl",
          data: { table: label, writesTtl: own.some((w) => w.statement.using?.ttl !== undefined) ? " and only some writes set a TTL" : "" },
          ...(entry ? { file: table.source.file, range: entry.range } : tableLocation(table)),
          entity: `${tableEntity(table.qualifiedName)}:twcs`,
        });
        continue;
      }

      const timeColumn = table.clustering.find((c) => marksTimeSeries(model, table, c));
      if (!timeColumn) continue;
      // Counters cannot expire; their retention is a delete job (table-unbounded-partition covers growth).
      if (table.columns.some((c) => c.type.kind === "native" && c.type.name === "counter")) continue;
      const volume = volumeOf(model, table);
      if (volume?.retentionSeconds !== undefined) continue;
      // Stated rows and no growth: the manifest says partitions do not keep growing (an ordered list, not a series).
      if (volume?.rowsPerPartition && volume.growthPerSecond === undefined) continue;
      context.report({
        messageId: "noTtl",
        data: { table: label, column: timeColumn.name },
        ...tableLocation(table),
        entity: `${tableEntity(table.qualifiedName)}:ttl`,
      });
    }
  },
};

export default tableTimeSeriesWithoutTtl;
