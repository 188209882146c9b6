// Every tombstone a read meets is read, kept in memory and thrown away. Cassandra counts them per
// read: past tombstone_warn_threshold (1,000 by default) it logs a warning, past
// tombstone_failure_threshold (100,000) it aborts the read (cassandra.yaml). nodetool tablestats
// reports the most tombstones one slice met in the last five minutes: production's own count.
import { formatCount } from "../src/analysis/estimator-text.js";
import { describeMeasured } from "../src/analysis/measured.js";
import { queriesOnTable, queryEntity, tableEntity, tableLabel, tableLocation } from "../src/rule-engine/helpers.js";
import type { RuleModule } from "../src/rule-engine/types.js";

// Cassandra's defaults (cassandra.yaml). The repository settings will carry these under the same
// names (tombstone_warn_threshold, tombstone_failure_threshold); until then, the defaults.
const TOMBSTONE_WARN_THRESHOLD = 1_000;
const TOMBSTONE_FAILURE_THRESHOLD = 100_000;

const ADVICE =
  "Find what leaves tombstones where this read scans (rows deleted one by one, nulls written, expired TTLs, a table used as a queue) and read past them: start the clustering range after the deleted rows, compact TTL'd data with TimeWindowCompactionStrategy, or lower gc_grace_seconds where repair runs often enough.";

const queryMeasuredTombstones: RuleModule = {
  meta: {
    id: "query-measured-tombstones",
    category: "query",
    defaultSeverity: "warning",
    description: "In production, reads of the query's table meet more tombstones per slice than tombstone_warn_threshold (nodetool tablestats).",
    messages: {
      query:
        "{query} reads {table}, where a read met up to {maximum} in production (average {average}), past tombstone_warn_threshold ({warn}){failing}. {advice}",
      table:
        "Reads of {table} met up to {maximum} in production (average {average}), past tombstone_warn_threshold ({warn}){failing}; no query of the manifest reads it. {advice}",
    },
    fixable: false,
  },
  check(context) {
    const { model } = context;
    for (const [name, measured] of model.measured ?? []) {
      const maximum = measured.figures.tombstonesPerSliceMax;
      if (!maximum || maximum.value <= TOMBSTONE_WARN_THRESHOLD) continue;
      const table = model.schema.tables.get(name);
      if (!table) continue;
      const average = measured.figures.tombstonesPerSliceAverage;
      const data = {
        table: tableLabel(model, name),
        maximum: describeMeasured(maximum, "tombstones"),
        average: average ? formatCount(average.value) : "not measured",
        warn: formatCount(TOMBSTONE_WARN_THRESHOLD),
        failing:
          maximum.value > TOMBSTONE_FAILURE_THRESHOLD
            ? `, and past tombstone_failure_threshold (${formatCount(TOMBSTONE_FAILURE_THRESHOLD)}), where Cassandra aborts the read`
            : `: Cassandra logs a warning for each such read, and aborts it past tombstone_failure_threshold (${formatCount(TOMBSTONE_FAILURE_THRESHOLD)})`,
        advice: ADVICE,
        file: maximum.file,
        tombstones: maximum.value,
      };
      const reads = queriesOnTable(model, name);
      if (reads.length === 0) {
        context.report({ messageId: "table", data, ...tableLocation(table), entity: `${tableEntity(name)}:tombstones` });
        continue;
      }
      for (const query of reads) {
        context.report({ messageId: "query", data: { ...data, query: query.id }, file: query.location.file, range: query.location.range, entity: `${queryEntity(query.id)}:tombstones` });
      }
    }
  },
};

export default queryMeasuredTombstones;
