// The pure core: files in → Review out. No network, no clock, no environment.
// files → parse → model → plan/estimate → rules → findings (DESIGN §5).
import type { PartitionEstimate, QueryAnalysis } from "./analysis/types.js";
import type { ReviewConfig } from "./config.js";
import type { Finding } from "./findings.js";
import type { Manifest } from "./manifest/types.js";
import type { AnalysedModel } from "./rule-engine/model.js";
import type { CassandraVersion, SchemaModel } from "./schema/model.js";

/** A file of the repository at one commit. Paths are POSIX, relative to the repository root. */
export interface SourceFile {
  path: string;
  content: string;
}

export interface ReviewInput {
  /** every candidate file at the head commit (the review picks schema and manifest files by the config globs) */
  files: SourceFile[];
  /** the same at the base commit, to tell new findings from existing ones */
  baseFiles?: SourceFile[];
  /** the config file's text and path, if the repository has one */
  configFile?: SourceFile;
  /** overrides (CLI flags) */
  manifestPath?: string;
  cassandra?: CassandraVersion;
}

export interface ReviewedFile {
  path: string;
  kind: "schema" | "manifest" | "config";
  statements: number;
}

export interface Review {
  version: CassandraVersion;
  config: ReviewConfig;
  files: ReviewedFile[];
  schema: SchemaModel;
  manifest?: Manifest;
  queries: QueryAnalysis[];
  /** by qualified table name */
  estimates: Map<string, PartitionEstimate>;
  /** sorted with compareFindings; `existing` set when a base was given */
  findings: Finding[];
  summary: { errors: number; warnings: number; infos: number };
  /** whether the gate (`failOn`) fails, counting only findings new in this change */
  gateFails: boolean;
  /** the analysed model, for explain */
  model: AnalysedModel;
}
