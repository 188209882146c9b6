// The rule catalogue: every rule module, sorted by id. Adding a rule means adding its file here,
// its doc (rules/<id>.md) and its test (test/rules/<id>.test.ts); rules/README.md is generated from this list.
import type { RuleModule } from "../src/rule-engine/types.js";
import configInvalid from "./config-invalid.js";
import cqlSyntaxError from "./cql-syntax-error.js";
import cqlUnsupportedStatement from "./cql-unsupported-statement.js";
import inputLimitExceeded from "./input-limit-exceeded.js";
import internalError from "./internal-error.js";
import manifestInvalid from "./manifest-invalid.js";
import queryAllowFilteringScan from "./query-allow-filtering-scan.js";
import queryAmbiguousTable from "./query-ambiguous-table.js";
import queryFullScan from "./query-full-scan.js";
import queryInWithOrderBy from "./query-in-with-order-by.js";
import queryIndexUnsupportedOperator from "./query-index-unsupported-operator.js";
import queryIndexWithoutPartitionKey from "./query-index-without-partition-key.js";
import queryInvalid from "./query-invalid.js";
import queryNeedsAllowFiltering from "./query-needs-allow-filtering.js";
import queryNeedsMultipleTables from "./query-needs-multiple-tables.js";
import queryOrderAgainstClustering from "./query-order-against-clustering.js";
import queryTooManyPartitions from "./query-too-many-partitions.js";
import queryUnserved from "./query-unserved.js";
import schemaInvalid from "./schema-invalid.js";
import suppressionMissingReason from "./suppression-missing-reason.js";
import suppressionUnused from "./suppression-unused.js";

export const rules: RuleModule[] = [
  configInvalid,
  cqlSyntaxError,
  cqlUnsupportedStatement,
  inputLimitExceeded,
  internalError,
  manifestInvalid,
  queryAllowFilteringScan,
  queryAmbiguousTable,
  queryFullScan,
  queryInWithOrderBy,
  queryIndexUnsupportedOperator,
  queryIndexWithoutPartitionKey,
  queryInvalid,
  queryNeedsAllowFiltering,
  queryNeedsMultipleTables,
  queryOrderAgainstClustering,
  queryTooManyPartitions,
  queryUnserved,
  schemaInvalid,
  suppressionMissingReason,
  suppressionUnused,
].sort((a, b) => (a.meta.id < b.meta.id ? -1 : a.meta.id > b.meta.id ? 1 : 0));
