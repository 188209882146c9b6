// Repository configuration, `.github/cql-review.yml` (docs/configuration.md).
// The zod schema is in src/config/schema.ts; the defaults and `loadConfig` (YAML with positions →
// ReviewConfig + findings) live here; the normalised shape below is what the rest of the core reads.
// The limits' type belongs to the analysis that measures against them (src/analysis/limits.ts).
import type { PartitionLimits } from "./analysis/limits.js";
import { CODE_LANGUAGES, configSchema, limitsSchema, RULE_ID_PATTERN, ruleSettingSchema, type ConfigDocument } from "./config/schema.js";
import { compareFindings, type Finding, type Severity, type SourceLocation } from "./findings.js";
import { issuesToFindings, plainIssueMessage } from "./manifest/issues.js";
import { readYamlWithPositions } from "./manifest/yaml-positions.js";
import type { SourceFile } from "./source-file.js";
import type { CassandraVersion } from "./schema/model.js";
import { append } from "./arrays.js";

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
  /** whether anything left unreviewed (too large, binary, out of time, internal error) fails the gate, or only warns */
  unreviewed: "fail" | "warn";
  limits: PartitionLimits;
  /** by rule id */
  rules: Record<string, RuleSetting>;
  comments: {
    /** most inline review comments per review */
    max: number;
    /** the most the review may do: REQUEST_CHANGES applies only while the gate fails (src/github/review-comments.ts) */
    event: "COMMENT" | "REQUEST_CHANGES";
  };
  /** globs of saved nodetool tablestats / tablehistograms output (docs/production-stats.md) */
  stats: string[];
  /** globs of paths to leave out */
  ignore: string[];
  /** directories that each hold one model, reviewed apart (src/manifest/model-roots.ts); absent: the manifests' directories */
  models?: string[];
  /** application code read for CQL statements (src/code) */
  code: { enabled: boolean; files: string[]; exclude: string[]; languages: CodeLanguageName[] };
}

export type CodeLanguageName = (typeof CODE_LANGUAGES)[number];

export const DEFAULT_CONFIG: ReviewConfig = {
  schema: ["**/*.cql"],
  manifest: ["**/access-patterns.y{,a}ml"],
  failOn: "error",
  unreviewed: "fail",
  limits: {
    partitionValues: 100_000,
    partitionBytes: 100_000_000,
    partitionsPerQuery: 1,
    rowsPerPartition: 100_000,
  },
  rules: {},
  comments: { max: 50, event: "COMMENT" },
  stats: ["**/cassandra-stats/**/*.{txt,json,yaml,yml}"],
  ignore: ["**/node_modules/**"],
  code: {
    enabled: true,
    files: ["**/*.java", "**/*.kt", "**/*.go", "**/*.py", "**/*.{js,mjs,cjs,jsx}", "**/*.{ts,mts,cts,tsx}"],
    exclude: [
      "**/src/test/**",
      "**/src/it/**",
      "**/*_test.go",
      "**/test_*.py",
      "**/*_test.py",
      "**/tests/**",
      "**/__tests__/**",
      "**/*.{test,spec}.{js,mjs,cjs,jsx,ts,mts,cts,tsx}",
      "**/vendor/**",
      "**/dist/**",
      "**/build/**",
    ],
    languages: [...CODE_LANGUAGES],
  },
};

export const CONFIG_RULE = "config-invalid";

export interface LoadedConfig {
  /** always usable: the defaults, with every valid setting of the file applied */
  config: ReviewConfig;
  /** `config-invalid` findings, each at its line and column */
  findings: Finding[];
  /** where each rule id is written under `rules:`, so the rule engine can report unknown ids there */
  ruleLocations: Record<string, SourceLocation>;
}

/** A fresh copy of the defaults (callers may change it). */
export function defaultConfig(): ReviewConfig {
  return {
    ...DEFAULT_CONFIG,
    schema: [...DEFAULT_CONFIG.schema],
    manifest: [...DEFAULT_CONFIG.manifest],
    limits: { ...DEFAULT_CONFIG.limits },
    rules: Object.assign(Object.create(null) as Record<string, RuleSetting>, DEFAULT_CONFIG.rules),
    comments: { ...DEFAULT_CONFIG.comments },
    ignore: [...DEFAULT_CONFIG.ignore],
    stats: [...DEFAULT_CONFIG.stats],
    code: { ...DEFAULT_CONFIG.code, files: [...DEFAULT_CONFIG.code.files], exclude: [...DEFAULT_CONFIG.code.exclude], languages: [...DEFAULT_CONFIG.code.languages] },
  };
}

/**
 * Reads `.github/cql-review.yml`. A missing or empty file gives the defaults; a setting that is
 * invalid keeps its default and gets a finding, so a bad config never stops a review.
 */
export function loadConfig(file?: SourceFile): LoadedConfig {
  const config = defaultConfig();
  const ruleLocations: Record<string, SourceLocation> = Object.create(null);
  if (!file) return { config, findings: [], ruleLocations };

  const yaml = readYamlWithPositions(file, { rule: CONFIG_RULE, noun: "config file" });
  const findings: Finding[] = [...yaml.findings];
  const data = yaml.data;
  if (data === undefined || data === null) return { config, findings, ruleLocations };
  if (!isPlainObject(data)) {
    findings.push({
      rule: CONFIG_RULE,
      severity: "error",
      location: { file: file.path, range: yaml.locate([]) },
      message: `the config file must be a mapping of settings (schema, manifest, cassandra, fail_on, unreviewed, limits, rules, comments, code, ignore), but it holds ${Array.isArray(data) ? "a list" : "a single value"}; the defaults are used`,
      fingerprint: `${CONFIG_RULE}:${file.path}#not-a-mapping`,
    });
    return { config, findings, ruleLocations };
  }

  const parsed = configSchema.safeParse(data, { error: plainIssueMessage });
  if (!parsed.success) {
    append(findings, issuesToFindings(parsed.error.issues, { yaml, rule: CONFIG_RULE, schema: configSchema, data }));
  }
  const valid = parsed.success ? parsed.data : salvage(data);
  applySettings(config, valid);

  if (isPlainObject(data.rules)) {
    for (const id of Object.keys(data.rules)) {
      if (RULE_ID_PATTERN.test(id)) ruleLocations[id] = { file: file.path, range: yaml.locate(["rules", id], "key") };
    }
  }
  return { config, findings: findings.sort(compareFindings), ruleLocations };
}

/** The valid settings of a config that failed validation, each key checked on its own. */
function salvage(data: Record<string, unknown>): ConfigDocument {
  const valid: ConfigDocument = {};
  const shape = configSchema.shape;
  for (const key of ["schema", "manifest", "cassandra", "fail_on", "unreviewed", "ignore", "code", "stats", "models"] as const) {
    const result = shape[key].safeParse(data[key]);
    if (result.success && result.data !== undefined) (valid as Record<string, unknown>)[key] = result.data;
  }
  if (isPlainObject(data.limits)) {
    const limits: NonNullable<ConfigDocument["limits"]> = {};
    for (const key of Object.keys(limitsSchema.shape) as (keyof typeof limitsSchema.shape)[]) {
      const result = limitsSchema.shape[key].safeParse(data.limits[key]);
      if (result.success && result.data !== undefined) limits[key] = result.data;
    }
    valid.limits = limits;
  }
  if (isPlainObject(data.rules)) {
    const rules: NonNullable<ConfigDocument["rules"]> = {};
    for (const [id, setting] of Object.entries(data.rules)) {
      const result = ruleSettingSchema.safeParse(setting);
      if (RULE_ID_PATTERN.test(id) && result.success) rules[id] = result.data;
    }
    valid.rules = rules;
  }
  const comments = shape.comments.safeParse(data.comments);
  if (comments.success) valid.comments = comments.data;
  else if (isPlainObject(data.comments)) {
    // Keep the half of `{ max, event }` that is right.
    const max = shape.comments.safeParse({ max: data.comments.max });
    const event = shape.comments.safeParse({ event: data.comments.event });
    valid.comments = {
      ...(max.success && typeof max.data === "object" ? max.data : {}),
      ...(event.success && typeof event.data === "object" ? event.data : {}),
    };
  }
  return valid;
}

function applySettings(config: ReviewConfig, valid: ConfigDocument): void {
  if (valid.schema) config.schema = valid.schema;
  if (valid.manifest) config.manifest = valid.manifest;
  if (valid.cassandra) config.cassandra = valid.cassandra;
  if (valid.fail_on) config.failOn = valid.fail_on;
  if (valid.unreviewed) config.unreviewed = valid.unreviewed;
  if (valid.ignore) config.ignore = valid.ignore;
  if (valid.stats) config.stats = valid.stats;
  if (valid.models) config.models = valid.models;
  if (valid.code === false) config.code.enabled = false;
  else if (typeof valid.code === "object") {
    if (valid.code.files) config.code.files = valid.code.files;
    if (valid.code.exclude) config.code.exclude = valid.code.exclude;
    if (valid.code.languages) config.code.languages = valid.code.languages;
  }
  const limits = valid.limits ?? {};
  if (limits.partition_values !== undefined) config.limits.partitionValues = limits.partition_values;
  if (limits.partition_bytes !== undefined) config.limits.partitionBytes = limits.partition_bytes;
  if (limits.partitions_per_query !== undefined) config.limits.partitionsPerQuery = limits.partitions_per_query;
  if (limits.rows_per_partition !== undefined) config.limits.rowsPerPartition = limits.rows_per_partition;
  for (const [id, setting] of Object.entries(valid.rules ?? {})) {
    if (typeof setting === "string") config.rules[id] = { severity: setting };
    else if (setting.length === 2) config.rules[id] = { severity: setting[0], options: setting[1] };
    else config.rules[id] = { severity: setting[0] };
  }
  if (typeof valid.comments === "number") config.comments.max = valid.comments;
  else if (valid.comments) {
    if (valid.comments.max !== undefined) config.comments.max = valid.comments.max;
    if (valid.comments.event !== undefined) config.comments.event = valid.comments.event;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
