// The two scan rules (with and without ALLOW FILTERING written) judge a scan the same way and
// differ only in their words: a token range, a LIMIT that stops the scan, a table the manifest
// sizes as small (both worth a note, not a failed gate), or a scan of everything.
import { isNodeLocalTable } from "../schema/system-tables.js";
import { formatCount } from "../analysis/estimator-text.js";
import { scanExtent } from "../analysis/queries.js";
import type { QueryAnalysis } from "../analysis/types.js";
import { queryEntity, tableLabel, volumeOf } from "./helpers.js";
import type { RuleContext } from "./types.js";

/** Reports one scanning query with the message ids `tokenRange`, `limited`, `smallTable` or `scan`. */
export function reportScan(context: RuleContext<{ smallTablePartitions: number }>, query: QueryAnalysis): void {
  const { model, options } = context;
  const { plan } = query;
  // Cassandra's own node-local tables (system.peers_v2, system_views.clients): a scan reads one node's copy, no ring.
  if (query.table && !model.schema.tables.has(query.table) && model.schema.builtIn?.has(query.table) && isNodeLocalTable(query.table)) return;
  const table = query.table ? model.schema.tables.get(query.table) : undefined;
  const extent = scanExtent(plan, table ? volumeOf(model, table)?.partitions : undefined, options.smallTablePartitions);
  const location = { file: query.location.file, range: query.location.range, entity: queryEntity(query.id) };
  const data = { query: query.id, table: query.table ? tableLabel(model, query.table) : "its table", partitions: plan.partitions };
  if (plan.partitions !== "all") {
    context.report({ ...location, messageId: "tokenRange", data });
  } else if (extent.kind === "limited") {
    context.report({ ...location, messageId: "limited", data: { ...data, rows: formatCount(extent.rows) }, severityCap: "info" });
  } else if (extent.kind === "small") {
    context.report({ ...location, messageId: "smallTable", data: { ...data, partitions: formatCount(extent.partitions) }, severityCap: "info" });
  } else {
    context.report({ ...location, messageId: "scan", data });
  }
}
