// The rule catalogue: every rule module, sorted by id. Adding a rule means adding its file here,
// its doc (rules/<id>.md) and its test (test/rules/<id>.test.ts); rules/README.md is generated from this list.
import type { RuleModule } from "../src/rule-engine/types.js";
import changeClusteringOrder from "./change-clustering-order.js";
import changeColumnType from "./change-column-type.js";
import changeDroppedStillUsed from "./change-dropped-still-used.js";
import changeDropDeletesData from "./change-drop-deletes-data.js";
import changePrimaryKey from "./change-primary-key.js";
import codeStatementDynamic from "./code-statement-dynamic.js";
import codeStatementNotInManifest from "./code-statement-not-in-manifest.js";
import codeTableMismatch from "./code-table-mismatch.js";
import codeTableNotInSchema from "./code-table-not-in-schema.js";
import configInvalid from "./config-invalid.js";
import cqlSyntaxError from "./cql-syntax-error.js";
import cqlUnsupportedStatement from "./cql-unsupported-statement.js";
import inputLimitExceeded from "./input-limit-exceeded.js";
import internalError from "./internal-error.js";
import keyspaceDurableWrites from "./keyspace-durable-writes.js";
import keyspaceReplication from "./keyspace-replication.js";
import manifestInvalid from "./manifest-invalid.js";
import manifestPlaceholder from "./manifest-placeholder.js";
import manifestQueryNotInCode from "./manifest-query-not-in-code.js";
import queryAllowFilteringScan from "./query-allow-filtering-scan.js";
import queryAmbiguousTable from "./query-ambiguous-table.js";
import queryFullScan from "./query-full-scan.js";
import queryInWithOrderBy from "./query-in-with-order-by.js";
import queryIndexUnsupportedOperator from "./query-index-unsupported-operator.js";
import queryIndexWithoutPartitionKey from "./query-index-without-partition-key.js";
import queryInvalid from "./query-invalid.js";
import queryMeasuredTombstones from "./query-measured-tombstones.js";
import queryNeedsAllowFiltering from "./query-needs-allow-filtering.js";
import queryNeedsMultipleTables from "./query-needs-multiple-tables.js";
import queryOrderAgainstClustering from "./query-order-against-clustering.js";
import queryRowsRead from "./query-rows-read.js";
import queryTombstones from "./query-tombstones.js";
import queryTooManyPartitions from "./query-too-many-partitions.js";
import queryTtlUnwrittenColumn from "./query-ttl-unwritten-column.js";
import queryUnserved from "./query-unserved.js";
import schemaInvalid from "./schema-invalid.js";
import statsInvalid from "./stats-invalid.js";
import suppressionMissingReason from "./suppression-missing-reason.js";
import suppressionUnused from "./suppression-unused.js";
import tableCompactStorage from "./table-compact-storage.js";
import tableCompactionStrategy from "./table-compaction-strategy.js";
import tableCounterAsIdentifier from "./table-counter-as-identifier.js";
import tableGcGraceRepair from "./table-gc-grace-repair.js";
import tableGuardrailExceeded from "./table-guardrail-exceeded.js";
import tableHotPartitionKey from "./table-hot-partition-key.js";
import tableIndexCardinality from "./table-index-cardinality.js";
import tableLargeCell from "./table-large-cell.js";
import tableLargeCollection from "./table-large-collection.js";
import tableMaterializedView from "./table-materialized-view.js";
import tableMeasuredSize from "./table-measured-size.js";
import tablePartitionTooLarge from "./table-partition-too-large.js";
import tableRemovedOption from "./table-removed-option.js";
import tableSasiIndex from "./table-sasi-index.js";
import tableTimeSeriesRetention from "./table-time-series-retention.js";
import tableTimestampCollision from "./table-timestamp-collision.js";
import tableTokenWithoutTtl from "./table-token-without-ttl.js";
import tableTooManyClusteringColumns from "./table-too-many-clustering-columns.js";
import tableUnboundedPartition from "./table-unbounded-partition.js";
import tableUnread from "./table-unread.js";
import writeBatchTooLarge from "./write-batch-too-large.js";
import writeCounterDelete from "./write-counter-delete.js";
import writeDenormalisationDrift from "./write-denormalisation-drift.js";
import writeHotCounter from "./write-hot-counter.js";
import writeLightweightTransaction from "./write-lightweight-transaction.js";
import writeListReadBeforeWrite from "./write-list-read-before-write.js";
import writeLookupDeleteOutsideBatch from "./write-lookup-delete-outside-batch.js";
import writeLoggedBatchMultiPartition from "./write-logged-batch-multi-partition.js";
import writeMixedLwt from "./write-mixed-lwt.js";
import writeNonIdempotentRetried from "./write-non-idempotent-retried.js";
import writeReadModifyWrite from "./write-read-modify-write.js";
import writeTableNotWritten from "./write-table-not-written.js";
import writeTombstones from "./write-tombstones.js";
import writeTtlRowMarker from "./write-ttl-row-marker.js";
import writeUniquenessRace from "./write-uniqueness-race.js";

export const rules: RuleModule[] = [
  changeClusteringOrder,
  changeColumnType,
  changeDroppedStillUsed,
  changeDropDeletesData,
  changePrimaryKey,
  codeStatementDynamic,
  codeStatementNotInManifest,
  codeTableMismatch,
  codeTableNotInSchema,
  configInvalid,
  cqlSyntaxError,
  cqlUnsupportedStatement,
  inputLimitExceeded,
  internalError,
  keyspaceDurableWrites,
  keyspaceReplication,
  manifestInvalid,
  manifestPlaceholder,
  manifestQueryNotInCode,
  queryAllowFilteringScan,
  queryAmbiguousTable,
  queryFullScan,
  queryInWithOrderBy,
  queryIndexUnsupportedOperator,
  queryIndexWithoutPartitionKey,
  queryInvalid,
  queryMeasuredTombstones,
  queryNeedsAllowFiltering,
  queryNeedsMultipleTables,
  queryOrderAgainstClustering,
  queryRowsRead,
  queryTombstones,
  queryTooManyPartitions,
  queryTtlUnwrittenColumn,
  queryUnserved,
  schemaInvalid,
  statsInvalid,
  suppressionMissingReason,
  suppressionUnused,
  tableCompactStorage,
  tableCompactionStrategy,
  tableCounterAsIdentifier,
  tableGcGraceRepair,
  tableGuardrailExceeded,
  tableHotPartitionKey,
  tableIndexCardinality,
  tableLargeCell,
  tableLargeCollection,
  tableMaterializedView,
  tableMeasuredSize,
  tablePartitionTooLarge,
  tableRemovedOption,
  tableSasiIndex,
  tableTimeSeriesRetention,
  tableTimestampCollision,
  tableTokenWithoutTtl,
  tableTooManyClusteringColumns,
  tableUnboundedPartition,
  tableUnread,
  writeBatchTooLarge,
  writeCounterDelete,
  writeDenormalisationDrift,
  writeHotCounter,
  writeLightweightTransaction,
  writeListReadBeforeWrite,
  writeLoggedBatchMultiPartition,
  writeLookupDeleteOutsideBatch,
  writeMixedLwt,
  writeNonIdempotentRetried,
  writeReadModifyWrite,
  writeTableNotWritten,
  writeTombstones,
  writeTtlRowMarker,
  writeUniquenessRace,
].sort((a, b) => (a.meta.id < b.meta.id ? -1 : a.meta.id > b.meta.id ? 1 : 0));
