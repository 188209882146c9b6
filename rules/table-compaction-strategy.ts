// A compaction strategy that fights the table's workload: the deprecated date-tiered strategy,
// levels rewritten on a table written far more than read, or time windows computed from
// millisecond timestamps read as microseconds.
import { formatTtl, timeWindowFor } from "../src/analysis/compaction-window.js";
import { isTimeType } from "../src/analysis/estimator.js";
import { formatFrequency } from "../src/analysis/estimator-text.js";
import { atLeast } from "../src/analysis/planner-evaluate.js";
import { queriesOnTable, tableEntity, tableLabel, tableLocation, volumeOf, writesOnTable, writeTimestampUnit } from "../src/rule-engine/helpers.js";
import type { RuleModule } from "../src/rule-engine/types.js";
import type { TableModel } from "../src/schema/model.js";
import type { AnalysedModel } from "../src/rule-engine/model.js";

/** Writes at least this many times the reads make a table write-heavy for leveled compaction. */
const WRITE_HEAVY_RATIO = 10;

/** The table's row-writing statements and reads a second, when the manifest states every rate. */
function rates(model: AnalysedModel, table: TableModel): { writes: number; reads: number } | undefined {
  const writes = writesOnTable(model, table).filter((w) => w.statement.kind !== "delete");
  const queries = queriesOnTable(model, table.qualifiedName);
  if (writes.length === 0 || writes.some((w) => w.write?.ratePerSecond === undefined) || queries.some((q) => q.ratePerSecond === undefined)) return undefined;
  return {
    writes: writes.reduce((sum, w) => sum + w.write!.ratePerSecond!, 0),
    reads: queries.reduce((sum, q) => sum + q.ratePerSecond!, 0),
  };
}

/**
 * The TTL the table's rows live: default_time_to_live (or a longer literal TTL of a write), else the
 * longest literal TTL when every row-writing statement sets one, else the manifest's retention when
 * they bind it; undefined when rows do not all expire or the figure is unknown.
 */
function rowsTtl(model: AnalysedModel, table: TableModel): number | undefined {
  const upserts = writesOnTable(model, table).filter((w) => w.statement.kind !== "delete");
  const literals = upserts.map((w) => {
    const ttl = w.statement.using?.ttl;
    return ttl?.kind === "literal" && /^\d+$/.test(ttl.value) ? Number(ttl.value) : undefined;
  });
  const longest = literals.reduce<number>((max, t) => (t !== undefined && t > max ? t : max), 0);
  if (table.defaultTtlSeconds > 0) return Math.max(table.defaultTtlSeconds, longest);
  if (upserts.length === 0 || upserts.some((w) => w.statement.using?.ttl === undefined)) return undefined;
  if (literals.every((t) => t !== undefined)) return longest > 0 ? longest : undefined;
  const retention = volumeOf(model, table)?.retentionSeconds;
  return typeof retention === "number" && retention > 0 ? retention : undefined;
}

/** The time windows to move to, sized from the rows' TTL when it is known. */
function windowAdvice(model: AnalysedModel, table: TableModel): string {
  const ttl = rowsTtl(model, table);
  const resolution = writeTimestampUnit(model, table) === "milliseconds" ? ", 'timestamp_resolution': 'MILLISECONDS'" : "";
  if (ttl === undefined) return `compaction_window_unit and compaction_window_size so the TTL spans about 20 to 30 windows${resolution ? `, and ${resolution.slice(2)} as the writes set millisecond timestamps` : ""}`;
  const window = timeWindowFor(ttl);
  return `compaction = {'class': 'TimeWindowCompactionStrategy', 'compaction_window_unit': '${window.unit}', 'compaction_window_size': ${window.size}${resolution}}, about ${window.windows} windows over the rows' ${formatTtl(ttl)} TTL, as the Apache Cassandra docs advise 20 to 30`;
}

/** Seconds in which a table's writes must cover its rows once for them to count as rewrites. */
const REWRITE_PERIOD_SECONDS = 86_400;

/**
 * Whether the table's writes mostly rewrite rows it already holds (the latest value of a key, a
 * heartbeat, a lock): the manifest sizes a table that does not grow (no `growth`, and rows not keyed
 * by time first), and its writes a day outnumber its rows. Updates are what leveled compaction is
 * for: it keeps a row's versions in one SSTable per level and drops the overwritten ones early,
 * where size-tiered leaves them spread over every tier a read must merge.
 */
function rewritesRows(model: AnalysedModel, table: TableModel, writesPerSecond: number): boolean {
  const volume = volumeOf(model, table);
  if (!volume?.partitions || volume.growthPerSecond !== undefined) return false;
  const first = table.clustering[0];
  if (first && isTimeType(first.type)) return false;
  const rowsPerPartition = first ? volume.rowsPerPartition?.avg : 1;
  if (rowsPerPartition === undefined) return false;
  return writesPerSecond * REWRITE_PERIOD_SECONDS >= volume.partitions * rowsPerPartition;
}

const tableCompactionStrategy: RuleModule = {
  meta: {
    id: "table-compaction-strategy",
    category: "table",
    defaultSeverity: "warning",
    description: "The compaction strategy fights the workload: date-tiered (deprecated), leveled on a write-heavy table, or time windows read from millisecond timestamps.",
    messages: {
      dateTiered:
        "{table} uses DateTieredCompactionStrategy, deprecated during the 3.x releases in favour of TimeWindowCompactionStrategy and removed in 5.0: its tiers grow with the data's age and are undone by any out-of-order write, and a 5.0 node rejects the table. Move to TimeWindowCompactionStrategy now ({window}); the ALTER applies to new compactions and old SSTables are regrouped as they compact.",
      leveledWriteHeavy:
        "{table} uses LeveledCompactionStrategy but is written {comparison}. Leveled compaction keeps each level ten times the one above and merges every SSTable into the next level's overlapping ones, so each row is rewritten about ten times per level it passes: its write amplification is many times size-tiered's, spent on a table whose reads are too few to gain from it. Use SizeTieredCompactionStrategy{twcs}, or UnifiedCompactionStrategy on 5.0.",
      millisecondWindows:
        "{table} uses TimeWindowCompactionStrategy while the application writes millisecond timestamps ({why}), and the compaction map does not set timestamp_resolution: TWCS reads write timestamps as microseconds, so every window is 1,000 times wider than configured and the TTL spans a fraction of one window. Add 'timestamp_resolution': 'MILLISECONDS' to the compaction map.",
    },
    fixable: false,
  },
  check(context) {
    const { model } = context;
    for (const table of model.schema.tables.values()) {
      const compaction = table.compaction;
      if (!compaction) continue;
      const label = tableLabel(model, table.qualifiedName);
      const base = { ...tableLocation(table), entity: `${tableEntity(table.qualifiedName)}:compaction` };
      const strategy = compaction.className;
      // On 5.0 table-removed-option reports the failing statement.
      if (strategy === "DateTieredCompactionStrategy" && !atLeast(model.version, "5.0")) {
        context.report({ ...base, messageId: "dateTiered", data: { table: label, window: windowAdvice(model, table) } });
      } else if (strategy === "LeveledCompactionStrategy") {
        const figures = rates(model, table);
        if (!figures || figures.writes < WRITE_HEAVY_RATIO * figures.reads) continue;
        if (rewritesRows(model, table, figures.writes)) continue;
        const ratio = figures.reads > 0 ? Math.round(figures.writes / figures.reads) : undefined;
        const series = table.defaultTtlSeconds > 0 || writesOnTable(model, table).every((w) => w.statement.kind === "delete" || w.statement.using?.ttl !== undefined);
        context.report({
          ...base,
          messageId: "leveledWriteHeavy",
          data: {
            table: label,
            comparison:
              ratio === undefined
                ? `${formatFrequency(figures.writes)} and read by no query of the manifest`
                : `${ratio.toLocaleString("en-US")}× as often as it is read (writes ${formatFrequency(figures.writes)} against reads ${formatFrequency(figures.reads)})`,
            twcs: series ? " (TimeWindowCompactionStrategy, as its rows expire by TTL)" : "",
          },
        });
      } else if (strategy === "TimeWindowCompactionStrategy") {
        const resolution = compaction.options.timestamp_resolution;
        if (resolution !== undefined) continue;
        const unit = writeTimestampUnit(model, table);
        if (unit !== "milliseconds") continue;
        const declared = volumeOf(model, table)?.writeTimestamps === "milliseconds";
        context.report({
          ...base,
          messageId: "millisecondWindows",
          data: { table: label, why: declared ? "write_timestamps: milliseconds in the manifest" : "a USING TIMESTAMP literal in milliseconds" },
        });
      }
    }
  },
};

export default tableCompactionStrategy;
