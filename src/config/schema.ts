// The repository config `.github/cql-review.yml` as written (docs/configuration.md), in zod. Every key is
// optional: src/config.ts merges what is valid over DEFAULT_CONFIG. Objects are strict, so a
// misspelt setting is reported instead of silently ignored.
import * as z from "zod";
import { cassandraVersionSchema } from "../manifest/schema.js";
import { SIZE_PATTERN, parseByteSize, parseNumberText, WHOLE_NUMBER_PATTERN } from "../manifest/units.js";

const says = (message: string) => ({ error: message });

const GLOB_MESSAGE = "expected a glob such as **/*.cql, or a list of globs";
const glob = z.string(says(GLOB_MESSAGE)).regex(/\S/, says("a glob must not be empty"));
function globList(description: string, { allowEmpty }: { allowEmpty: boolean }) {
  const list = z.array(glob, says(GLOB_MESSAGE));
  return z
    .union([glob, allowEmpty ? list : list.min(1, says("list at least one glob"))], says(GLOB_MESSAGE))
    .transform((value) => (typeof value === "string" ? [value] : value))
    .describe(description);
}

function positiveWholeNumber(message: string) {
  return z
    .union(
      [z.number(says(message)).int(says(message)).positive(says(message)), z.string(says(message)).regex(WHOLE_NUMBER_PATTERN, says(message))],
      says(message),
    )
    .transform((value) => parseNumberText(value))
    .refine((value) => value > 0, says(message));
}

const BYTES_MESSAGE = "expected a size such as 100MB, 64MiB or a number of bytes";
const byteSize = z
  .union(
    [z.number(says(BYTES_MESSAGE)).int(says(BYTES_MESSAGE)).positive(says(BYTES_MESSAGE)), z.string(says(BYTES_MESSAGE)).regex(SIZE_PATTERN, says(BYTES_MESSAGE))],
    says(BYTES_MESSAGE),
  )
  .transform((value) => parseByteSize(value))
  .refine((value) => value > 0, says(BYTES_MESSAGE));

export const RULE_LEVELS = ["off", "info", "warning", "error"] as const;
export type RuleLevel = (typeof RULE_LEVELS)[number];
const LEVEL_MESSAGE = "expected off, info, warning or error";
const level = z.enum(RULE_LEVELS, says(LEVEL_MESSAGE));

/**
 * Text, numbers, true/false, null, and lists and mappings of them. YAML's tagged values
 * (`!!binary`, `!!timestamp`, `!!set`, `!!omap`) read as Buffers, Dates, Sets and Maps, which no
 * rule expects and which must not reach a rule as its options.
 */
function isPlainValue(value: unknown): boolean {
  // The YAML reader has already refused cycles and bounded the depth.
  if (value === null || typeof value !== "object") return true;
  if (Array.isArray(value)) return value.every(isPlainValue);
  const prototype = Object.getPrototypeOf(value);
  return (prototype === Object.prototype || prototype === null) && Object.values(value).every(isPlainValue);
}

const ruleOptions = z
  .unknown()
  .refine(
    isPlainValue,
    says("rule options must be plain YAML values: text, numbers, true or false, lists and mappings, not tagged values such as !!binary or !!timestamp"),
  )
  .describe("The rule's options (see the rule's documentation).");

export const ruleSettingSchema = z
  .union(
    [
      level.describe("The severity of the rule's findings, or off."),
      z.tuple([level], says(`expected [level] or [level, options]; ${LEVEL_MESSAGE}`)),
      z.tuple([level, ruleOptions], says(`expected [level, options]; ${LEVEL_MESSAGE}`)),
    ],
    says(`expected off, info, warning or error, or [level, options]`),
  )
  .describe("off | info | warning | error, or [level, options] for rules that take options.");

export const RULE_ID_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export const limitsSchema = z
  .strictObject({
    partition_values: positiveWholeNumber("expected a whole number of values such as 100000")
      .describe("Most values (cells) a partition should hold before it is reported (default 100000).")
      .optional(),
    partition_bytes: byteSize.describe("Largest partition size before it is reported: bytes, or 100MB, 64MiB … (default 100MB).").optional(),
    partitions_per_query: positiveWholeNumber("expected a whole number of partitions such as 1")
      .describe("Most partitions one query may read before it is reported (default 1).")
      .optional(),
    rows_per_partition: positiveWholeNumber("expected a whole number of rows such as 100000")
      .describe("Most rows a partition should hold before it is reported (default 100000).")
      .optional(),
  })
  .describe("Thresholds of the partition-size and query rules.");

const COMMENTS_MESSAGE = "expected the most inline comments (a number such as 50), or { max, event }";
const commentMax = z
  .number(says("expected the most inline comments per review, a whole number such as 50"))
  .int(says("expected the most inline comments per review, a whole number such as 50"))
  .nonnegative(says("expected the most inline comments per review, a whole number such as 50"));
export const commentsSchema = z
  .union(
    [
      commentMax.describe("The most inline review comments per review (default 50); the rest go to the check run."),
      z.strictObject({
        max: commentMax.describe("The most inline review comments per review (default 50); the rest go to the check run.").optional(),
        event: z
          .enum(["COMMENT", "REQUEST_CHANGES"], says("expected COMMENT or REQUEST_CHANGES"))
          .describe("The review's event: COMMENT (default), or REQUEST_CHANGES to request changes while the gate (fail_on) fails; cql-review dismisses its change requests once a push passes the gate.")
          .optional(),
      }),
    ],
    says(COMMENTS_MESSAGE),
  )
  .describe("Inline review comments: the most per review, or { max, event }.");

export const CODE_LANGUAGES = ["java", "kotlin", "go", "python", "javascript", "typescript"] as const;
export const codeSchema = z
  .union(
    [
      z.boolean(says("expected true, false, or { files, exclude, languages }")).describe("false turns reading application code off (default true)."),
      z.strictObject({
        files: globList("Globs of the application code to read for CQL statements (default: Java, Kotlin, Go, Python, JavaScript and TypeScript files anywhere).", {
          allowEmpty: true,
        }).optional(),
        exclude: globList("Globs of code to leave out (default: tests, e.g. **/src/test/**, **/*_test.go, **/test_*.py).", { allowEmpty: true }).optional(),
        languages: z
          .array(z.enum(CODE_LANGUAGES, says(`expected one of ${CODE_LANGUAGES.join(", ")}`)), says("expected a list of languages"))
          .describe(`The host languages to read (default all: ${CODE_LANGUAGES.join(", ")}).`)
          .optional(),
      }),
    ],
    says("expected true, false, or { files, exclude, languages }"),
  )
  .describe("Reading CQL statements out of application code (model files): on by default; false, or which files and languages.");

export const configSchema = z
  .strictObject({
    schema: globList("Globs of the CQL schema files (default **/*.cql).", { allowEmpty: false }).optional(),
    manifest: globList("Globs of the access-patterns manifests (default **/access-patterns.y{,a}ml).", { allowEmpty: false }).optional(),
    cassandra: cassandraVersionSchema.optional(),
    stats: globList(
      "Globs of saved `nodetool tablestats` / `nodetool tablehistograms` output, measured figures set beside the estimates (default **/cassandra-stats/**/*.{txt,json,yaml,yml}; docs/production-stats.md).",
      { allowEmpty: true },
    ).optional(),
    fail_on: z
      .enum(["error", "warning", "never"], says("expected error, warning or never"))
      .describe("Which new findings fail the check run: error (default), warning (errors and warnings), or never.")
      .optional(),
    unreviewed: z
      .enum(["fail", "warn"], says("expected fail or warn"))
      .describe("What the gate does when part of the change could not be reviewed (a file too large or binary, the time budget spent, an internal error): fail (default) or warn, which leaves it to fail_on.")
      .optional(),
    limits: limitsSchema.optional(),
    rules: z
      .record(
        z.string(says("expected a rule id")).regex(RULE_ID_PATTERN, says("expected a rule id such as query-needs-allow-filtering")),
        ruleSettingSchema,
        says("expected a mapping of rule ids to off, info, warning or error"),
      )
      .describe("Rule severities by rule id: off | info | warning | error, or [level, options].")
      .optional(),
    comments: commentsSchema.optional(),
    code: codeSchema.optional(),
    models: z
      .array(
        z
          .string(says("expected a directory such as apps/shop"))
          .refine((directory) => directory.trim() !== "" && !directory.startsWith("/") && !/[*?{}[\]]/.test(directory) && !directory.split("/").includes(".."), says("expected a directory inside the repository such as apps/shop (no glob, no .., not absolute)")),
        says("expected a list of directories such as [apps/shop, apps/chat]"),
      )
      .min(1, says("list at least one directory"))
      .describe("Directories that each hold one application's model (schema, manifest, code), reviewed apart; default: every directory holding an access-patterns manifest (docs/configuration.md, several models).")
      .optional(),
    ignore: globList("Globs of paths to leave out of the review (default **/node_modules/**; setting it replaces the default, [] reviews everything).", {
      allowEmpty: true,
    }).optional(),
  })
  .describe("cql-review repository configuration (.github/cql-review.yml).");

export type ConfigDocument = z.output<typeof configSchema>;
export type ConfigDocumentInput = z.input<typeof configSchema>;
