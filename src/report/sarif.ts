// SARIF 2.1.0 for GitHub code scanning (`cql-review check --format sarif`, then
// `github/codeql-action/upload-sarif`). What GitHub reads, and its limits, are in its "SARIF
// support for code scanning" and "SARIF results exceed limits" docs: one run, rules with short
// and full descriptions, results with a rule, a level, a message, one physical location with a
// 1-based region, and partialFingerprints so alerts survive unrelated edits.
import { jsonWithoutControls } from "./controls.js";
import { rules as ruleCatalogue } from "../../rules/index.js";
import { compareFindings, SEVERITY_ORDER, type Finding, type Severity } from "../findings.js";
import type { Review } from "../review.js";
import type { RuleMeta } from "../rule-engine/types.js";
import { ruleDocUrl, REPOSITORY_URL, wellFormed } from "./links.js";
import { notShown, takeWithin } from "./truncate.js";

export const SARIF_SCHEMA_URL = "https://json.schemastore.org/sarif-2.1.0.json";

/** GitHub's hard limit of results per run; past it the whole upload is rejected. */
export const SARIF_MAX_RESULTS_PER_RUN = 25_000;

/** partialFingerprints key: versioned, so a change of fingerprint scheme never merges old alerts. */
export const SARIF_FINGERPRINT_KEY = "cqlReviewFingerprint/v1";

export interface SarifOptions {
  /** the cql-review version (package.json) */
  toolVersion: string;
  /** rule metadata; the rule catalogue (rules/index.ts) by default. A finding whose rule has no
   * metadata still gets its result, with `ruleId` and no `ruleIndex`. */
  rules?: readonly RuleMeta[];
  /** results per run; GitHub's limit by default */
  maxResults?: number;
}

type SarifLevel = "error" | "warning" | "note";

const LEVEL: Record<Severity, SarifLevel> = { error: "error", warning: "warning", info: "note" };

interface SarifRegion {
  startLine: number;
  startColumn: number;
  endLine: number;
  endColumn: number;
}

/** SARIF regions are 1-based with an exclusive end column, as our ranges are; a zero-width range becomes one character. */
function region(range: Finding["location"]["range"]): SarifRegion {
  const { start, end } = range;
  const empty = end.line < start.line || (end.line === start.line && end.column <= start.column);
  return {
    startLine: Math.max(1, start.line),
    startColumn: Math.max(1, start.column),
    endLine: Math.max(1, empty ? start.line : end.line),
    endColumn: Math.max(1, empty ? start.column + 1 : end.column),
  };
}

/** "query-needs-allow-filtering" → "QueryNeedsAllowFiltering" (SARIF `name` is an identifier-like label). */
function ruleName(id: string): string {
  return id
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0].toUpperCase() + part.slice(1))
    .join("");
}

/** Paths as code scanning wants them: POSIX, relative to the repository root, percent-encoded where a URI needs it. */
function artifactUri(path: string): string {
  return wellFormed(path)
    .replace(/\\/g, "/")
    .replace(/^\.\//, "")
    .split("/")
    .map((segment) => encodeURIComponent(segment))
    .join("/");
}

function ruleDescriptor(meta: RuleMeta) {
  const url = ruleDocUrl(meta.id);
  return {
    id: meta.id,
    name: ruleName(meta.id),
    shortDescription: { text: meta.description },
    fullDescription: {
      text: `${meta.description} (${meta.category} rule${meta.fixable ? ", offers a fix" : ""})`,
    },
    helpUri: url,
    help: {
      text: `${meta.description}\n\nSee ${url}`,
      markdown: `${meta.description}\n\n[Rule documentation](${url})`,
    },
    defaultConfiguration: { level: LEVEL[meta.defaultSeverity] },
    properties: { tags: ["cassandra", "cql", meta.category], category: meta.category },
  };
}

function result(finding: Finding, ruleIndex: number | undefined) {
  const fix = finding.fix;
  return {
    ruleId: finding.rule,
    ...(ruleIndex !== undefined ? { ruleIndex } : {}),
    level: LEVEL[finding.severity],
    message: { text: finding.message },
    locations: [
      {
        physicalLocation: {
          artifactLocation: { uri: artifactUri(finding.location.file) },
          region: region(finding.location.range),
        },
      },
    ],
    partialFingerprints: { [SARIF_FINGERPRINT_KEY]: finding.fingerprint },
    ...(fix
      ? {
          fixes: [
            {
              description: { text: fix.description },
              artifactChanges: [
                {
                  artifactLocation: { uri: artifactUri(fix.file) },
                  replacements: [{ deletedRegion: region(fix.range), insertedContent: { text: fix.replacement } }],
                },
              ],
            },
          ],
        }
      : {}),
    ...(finding.existing !== undefined || finding.data
      ? {
          properties: {
            ...(finding.existing !== undefined ? { existing: finding.existing } : {}),
            ...(finding.data ? { data: finding.data } : {}),
          },
        }
      : {}),
  };
}

/** The SARIF log object (see renderSarif for the text). */
export function buildSarif(review: Review, options: SarifOptions) {
  const metadata = options.rules ?? ruleCatalogue.map((rule) => rule.meta);
  const descriptors = [...metadata].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).map(ruleDescriptor);
  const indexById = new Map(descriptors.map((descriptor, index) => [descriptor.id, index]));
  // Past the limit, keep the most severe: GitHub would otherwise reject the whole file.
  const ordered = [...review.findings].sort(
    (a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] || compareFindings(a, b),
  );
  const { kept, omitted } = takeWithin(ordered, options.maxResults ?? SARIF_MAX_RESULTS_PER_RUN);
  kept.sort(compareFindings);
  return {
    $schema: SARIF_SCHEMA_URL,
    version: "2.1.0" as const,
    runs: [
      {
        tool: {
          driver: {
            name: "cql-review",
            informationUri: REPOSITORY_URL,
            version: options.toolVersion,
            semanticVersion: options.toolVersion,
            rules: descriptors,
          },
        },
        // Columns count UTF-16 code units, as the parser's positions do.
        columnKind: "utf16CodeUnits" as const,
        invocations: [
          {
            executionSuccessful: true,
            ...(omitted > 0
              ? {
                  toolExecutionNotifications: [
                    {
                      level: "warning" as const,
                      message: {
                        text: `${notShown(omitted, { one: "result", many: "results" })}: code scanning accepts ${SARIF_MAX_RESULTS_PER_RUN.toLocaleString("en-US")} per run; the most severe were kept.`,
                      },
                    },
                  ],
                }
              : {}),
          },
        ],
        results: kept.map((finding) => result(finding, indexById.get(finding.rule))),
      },
    ],
  };
}

/** SARIF 2.1.0 text, 2-space indent, trailing newline. */
export function renderSarif(review: Review, options: SarifOptions): string {
  return `${jsonWithoutControls(JSON.stringify(buildSarif(review, options), null, 2))}\n`;
}
