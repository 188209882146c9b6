// Repository configuration, `.github/cql-review.yml` (DESIGN §2.3).
// The zod schema, its defaults and `loadConfig` (YAML with positions → ReviewConfig + findings)
// live here; the normalised shape below is what the rest of the core reads.
import type { Severity } from "./findings.js";
import type { CassandraVersion } from "./schema/model.js";

export interface RuleSetting {
  severity: Severity | "off";
  options?: unknown;
}

export interface ReviewConfig {
  /** globs of schema files */
  schema: string[];
  /** globs of access-patterns manifests */
  manifest: string[];
  /** semantics to apply; when absent the manifest's `cassandra`, else 5.0 */
  cassandra?: CassandraVersion;
  failOn: "error" | "warning" | "never";
  limits: {
    partitionValues: number;
    /** bytes */
    partitionBytes: number;
    partitionsPerQuery: number;
    rowsPerPartition: number;
  };
  /** by rule id */
  rules: Record<string, RuleSetting>;
  comments: {
    /** most inline review comments per review */
    max: number;
    /** the review event */
    event: "COMMENT" | "REQUEST_CHANGES";
  };
  /** globs of paths to leave out */
  ignore: string[];
}

export const DEFAULT_CONFIG: ReviewConfig = {
  schema: ["**/*.cql"],
  manifest: ["**/access-patterns.y{,a}ml"],
  failOn: "error",
  limits: {
    partitionValues: 100_000,
    partitionBytes: 100_000_000,
    partitionsPerQuery: 1,
    rowsPerPartition: 100_000,
  },
  rules: {},
  comments: { max: 50, event: "COMMENT" },
  ignore: ["**/node_modules/**"],
};
