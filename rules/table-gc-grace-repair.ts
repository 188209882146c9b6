// A tombstone protects a delete only until gc_grace_seconds: compaction then drops it, and a replica
// that missed the delete and was not repaired in time still holds the data, which read repair or the
// next repair copies back to every replica. A short gc_grace_seconds is safe when every node is
// repaired within it, or when the deleted rows expire by TTL before their tombstones can be dropped.
import * as z from "zod";
import { formatSpan } from "../src/analysis/estimator-text.js";
import { numberOf } from "../src/schema/options.js";
import { joinWords, tableEntity, tableLabel, tableLocation, volumeOf, writesOnTable, type WriteStatement } from "../src/rule-engine/helpers.js";
import type { Term } from "../src/cql/ast.js";
import type { AnalysedModel } from "../src/rule-engine/model.js";
import type { RuleModule } from "../src/rule-engine/types.js";
import type { TableModel } from "../src/schema/model.js";

const optionsSchema = z
  .object({
    /** days between two repairs of every node of the cluster (a weekly repair schedule by default) */
    repairIntervalDays: z.number().positive().default(7),
  })
  .strict();
type Options = z.infer<typeof optionsSchema>;

const DAY = 86_400;

const isNull = (term: Term | undefined) => term?.kind === "literal" && term.type === "null";

/** Whether a write statement deletes: a DELETE, or a literal null written to a cell. */
function deletes(write: WriteStatement): boolean {
  const statement = write.statement;
  if (statement.kind === "delete") return true;
  if (statement.kind === "insert") return statement.values.some(isNull);
  if (statement.kind === "update") return statement.assignments.some((a) => a.operator === "=" && isNull(a.value));
  return false;
}

/** TTL seconds of a term: a whole-number literal; undefined for a bind marker. */
function literalSeconds(term: Term): number | undefined {
  return term.kind === "literal" && /^\d+$/.test(term.value) ? Number(term.value) : undefined;
}

/**
 * How long the table's rows can live, as far as the schema and the manifest say: Infinity when some
 * write sets no TTL on a table without default_time_to_live; the longest TTL otherwise (a bound TTL
 * is the manifest's `retention`); undefined when a bound TTL leaves it unknown.
 */
function longestLife(model: AnalysedModel, table: TableModel, upserts: readonly WriteStatement[]): number | undefined {
  let longest = 0;
  for (const write of upserts) {
    const ttl = write.statement.using?.ttl ?? write.batch?.using?.ttl;
    if (ttl === undefined) {
      if (table.defaultTtlSeconds <= 0) return Infinity;
      longest = Math.max(longest, table.defaultTtlSeconds);
      continue;
    }
    const seconds = literalSeconds(ttl);
    if (seconds === 0) return Infinity;
    if (seconds !== undefined) {
      longest = Math.max(longest, seconds);
      continue;
    }
    const retention = volumeOf(model, table)?.retentionSeconds;
    if (typeof retention !== "number") return undefined;
    longest = Math.max(longest, retention);
  }
  return upserts.length === 0 ? (table.defaultTtlSeconds > 0 ? table.defaultTtlSeconds : Infinity) : longest;
}

/** "W2 deletes" or "W2 and W3 delete". */
function deleterText(ids: string[]): string {
  return `${joinWords(ids)} ${ids.length === 1 ? "deletes" : "delete"}`;
}

const tableGcGraceRepair: RuleModule<Options> = {
  meta: {
    id: "table-gc-grace-repair",
    category: "table",
    defaultSeverity: "warning",
    description: "A table the write paths delete from sets gc_grace_seconds shorter than the repair interval while its rows outlive it, so deleted data can come back.",
    messages: {
      shortGrace:
        "{table} sets gc_grace_seconds to {grace}, shorter than a repair of every node every {interval} (the rule's `repairIntervalDays`), and {deleters} from it while {life}. Compaction drops a tombstone once it is older than gc_grace_seconds; a replica that missed the delete (down longer than max_hint_window, a dropped mutation) and is not repaired before then still holds the data, and read repair or the next repair copies it back to every replica: the deleted data returns. Raise gc_grace_seconds above the repair interval (`gc_grace_seconds = {suggested}`, {suggestedSpan}), or keep it only with every node repaired within {grace} (and set `repairIntervalDays` to say so).",
    },
    options: optionsSchema,
    fixable: false,
  },
  check(context) {
    const { model, options } = context;
    const interval = options.repairIntervalDays * DAY;
    for (const table of model.schema.tables.values()) {
      if (table.kind !== "table") continue;
      const grace = numberOf(table.options.gc_grace_seconds);
      if (grace === undefined || !Number.isFinite(grace) || grace < 0 || grace >= interval) continue;
      const writes = writesOnTable(model, table).filter((w) => w.write);
      const deleting = writes.filter(deletes);
      if (deleting.length === 0) continue;
      const life = longestLife(model, table, writes.filter((w) => w.statement.kind !== "delete"));
      // A row that expires before its tombstone can be dropped cannot come back; unknown says nothing.
      if (life === undefined || life <= grace) continue;
      const suggested = Math.ceil((interval * 10) / 7 / DAY) * DAY;
      context.report({
        messageId: "shortGrace",
        data: {
          table: tableLabel(model, table.qualifiedName),
          grace: grace === 0 ? "0 (tombstones can be dropped at the next compaction)" : formatSpan(grace),
          interval: formatSpan(interval),
          deleters: deleterText([...new Set(deleting.map((w) => w.write!.id))]),
          life: life === Infinity ? "its rows have no TTL" : `its rows live up to ${formatSpan(life)}, longer than gc_grace_seconds`,
          suggested: String(suggested),
          suggestedSpan: formatSpan(suggested),
        },
        ...tableLocation(table),
        entity: `${tableEntity(table.qualifiedName)}:gc-grace`,
      });
    }
  },
};

export default tableGcGraceRepair;
