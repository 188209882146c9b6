// What a rule sees: every result of the analysis, for one commit.
import type { ParseResult } from "../cql/ast.js";
import type { PartitionEstimate, QueryAnalysis } from "../analysis/types.js";
import type { Finding, SourceLocation } from "../findings.js";
import type { Manifest } from "../manifest/types.js";
import type { CassandraVersion, SchemaModel } from "../schema/model.js";
import type { ReviewConfig } from "../config.js";
import type { CodeModel } from "../code/entries.js";
import type { TableMeasurements } from "../stats/types.js";

export interface ParsedSchemaFile {
  path: string;
  text: string;
  parse: ParseResult;
}

export interface AnalysedModel {
  version: CassandraVersion;
  config: ReviewConfig;
  schemaFiles: ParsedSchemaFile[];
  /** the schema files applied, in the order applied (src/schema/file-order.ts, or the manifest's `schema:`); unset: applyOrder(schemaFiles) */
  appliedSchemaFiles?: ParsedSchemaFile[];
  /** paths of the manifests read (also those that failed to load) */
  manifestFiles: string[];
  schema: SchemaModel;
  manifest?: Manifest;
  queries: QueryAnalysis[];
  /** by qualified table name */
  estimates: Map<string, PartitionEstimate>;
  /** the repository config file, when there is one: where rule settings are, so rule-config problems get positions */
  configFile?: { path: string; ruleLocations?: Record<string, SourceLocation> };
  /** findings of the input stages (parse, schema, manifest, config), before rules run */
  inputFindings: Finding[];
  /** the application code read (src/code), when there was any */
  code?: CodeModel;
  /** production measurements (saved nodetool output, src/stats) by qualified table name, when files were given */
  measured?: Map<string, TableMeasurements>;
}
