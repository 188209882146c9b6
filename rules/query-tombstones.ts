// A read that walks the rows its write paths deleted meets their tombstones until gc_grace_seconds
// lets Cassandra skip them: past tombstone_warn_threshold the read logs a warning, past
// tombstone_failure_threshold it fails. The estimate is the plan's (estimator-tombstones.ts).
import * as z from "zod";
import { formatCount, formatSpan } from "../src/analysis/estimator-text.js";
import type { TombstoneSource, TombstonesEstimate } from "../src/analysis/types.js";
import { joinWords, queryEntity, tableLabel } from "../src/rule-engine/helpers.js";
import type { RuleModule } from "../src/rule-engine/types.js";

const optionsSchema = z
  .object({
    /** cassandra.yaml `tombstone_warn_threshold` of the cluster */
    warnThreshold: z.number().int().positive().default(1_000),
    /** cassandra.yaml `tombstone_failure_threshold` of the cluster */
    failureThreshold: z.number().int().positive().default(100_000),
  })
  .strict();
type Options = z.infer<typeof optionsSchema>;

const KIND: Record<TombstoneSource["kind"], string> = {
  "row-delete": "row deletes",
  "range-delete": "range deletes (two bounds each)",
  "cell-delete": "column deletes",
  null: "nulls written",
  "ttl-expiry": "cells expired by TTL",
};

/** The sources that weigh, largest first: "2,600 row deletes of unindex-resource". */
function sourcesText(estimate: TombstonesEstimate): string {
  const sources = [...estimate.sources].filter((s) => Math.round(s.worstPerRead) > 0).sort((a, b) => b.worstPerRead - a.worstPerRead);
  return joinWords(sources.map((s) => `${formatCount(Math.round(s.worstPerRead))} ${KIND[s.kind]} from ${s.write}`));
}

const REGION: Record<TombstonesEstimate["region"], string> = {
  partition: "it reads the whole partition, so it walks every tombstone in it",
  queue: "it reads from the partition's start, where the rows its write paths deleted lie ahead of the live ones (a queue)",
  rows: "they are written with the rows it reads, so it walks them row by row whatever the slice",
};

const ADVICE: Record<TombstonesEstimate["region"], string> = {
  queue:
    "Read from a cursor instead of the start: keep the consumer's ack level (the last clustering value it processed) and read `> ?` from it, so the read begins past the deleted rows; or bucket the queue by time so consumed buckets are left behind (or expired with a TTL) rather than deleted row by row.",
  rows: "A null written is a tombstone cell, kept like any other until gc_grace_seconds has passed and compaction drops it.",
  partition:
    "Keep the partitions that take deletes small (split the largest keys), read a bounded slice instead of the whole partition, or let rows expire by TTL (with TimeWindowCompactionStrategy, which drops whole expired SSTables) instead of deleting them.",
};

const queryTombstones: RuleModule<Options> = {
  meta: {
    id: "query-tombstones",
    category: "query",
    defaultSeverity: "warning",
    description: "A read walks more tombstones than tombstone_warn_threshold, by the deletes, nulls and TTLs of the manifest's write paths.",
    messages: {
      many:
        "{query} walks about {worst} tombstones per read of the largest partitions of {table} (about {average} on an average partition): {sources}, each counted for gc_grace_seconds ({gcGrace}) after it is written, and {region}. {threshold} {advice} A shorter gc_grace_seconds lets reads skip them sooner, but only if every replica is repaired within it (for example gc_grace_seconds 3 days with a repair every 2 days); otherwise deleted data can come back.",
    },
    options: optionsSchema,
    fixable: false,
  },
  check(context) {
    const { model, options } = context;
    for (const query of model.queries) {
      const estimate = query.plan.tombstonesEstimate;
      if (!estimate || !query.table || estimate.worstPerRead <= options.warnThreshold) continue;
      const failing = estimate.worstPerRead > options.failureThreshold;
      context.report({
        messageId: "many",
        data: {
          query: query.id,
          table: tableLabel(model, query.table),
          worst: formatCount(estimate.worstPerRead),
          average: formatCount(estimate.perRead),
          sources: sourcesText(estimate),
          gcGrace: formatSpan(estimate.gcGraceSeconds),
          region: REGION[estimate.region],
          threshold: failing
            ? `That is past tombstone_failure_threshold (${formatCount(options.failureThreshold)}): the read fails with TombstoneOverwhelmingException.`
            : `That is past tombstone_warn_threshold (${formatCount(options.warnThreshold)}), ${Math.round((estimate.worstPerRead / options.failureThreshold) * 100)} % of tombstone_failure_threshold (${formatCount(options.failureThreshold)}), at which the read fails.`,
          advice: estimate.sources.some((s) => s.kind === "null" && s.worstPerRead > 0)
            ? `Leave null columns out of the statement (or bind them unset), so no tombstone is written. ${ADVICE[estimate.region]}`
            : ADVICE[estimate.region],
        },
        file: query.location.file,
        range: query.location.range,
        entity: queryEntity(query.id),
      });
    }
  },
};

export default queryTombstones;
