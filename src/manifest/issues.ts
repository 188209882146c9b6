// zod issues → findings with positions and plain messages, for the manifest and the config.
// Messages are written for someone who has never seen the schema: where (the path), what is
// wrong, and what would be right. Field-specific wording lives on the schemas (`error`); the
// generic wording for every other issue is here.
import type * as z from "zod";
import type { Finding } from "../findings.js";
import { didYouMean } from "./did-you-mean.js";
import { formatPath, type PathSegment, type PositionedYaml } from "./yaml-positions.js";

type Issue = z.core.$ZodIssue;
type RawIssue = z.core.$ZodRawIssue;

export interface IssueContext {
  yaml: PositionedYaml;
  /** `manifest-invalid` or `config-invalid` */
  rule: string;
  /** the schema the data was parsed with, to list the keys a mapping accepts */
  schema: z.ZodType;
  /** the data as parsed from YAML, to tell a missing key from a wrong value */
  data: unknown;
  /** a stable name for a path in fingerprints (e.g. a query's id instead of its index) */
  entityOf?: (path: PathSegment[]) => string;
}

/** The parse-time error map: generic plain wording, used wherever a schema sets none itself. */
export function plainIssueMessage(issue: RawIssue): string | undefined {
  switch (issue.code) {
    case "invalid_type":
      return `expected ${describeExpected(issue.expected)}, got ${describeValue(issue.input)}`;
    case "too_small":
      if (issue.origin === "array") return issue.minimum === 1 ? "must not be an empty list" : `needs at least ${issue.minimum} items`;
      if (issue.origin === "string") return issue.minimum === 1 ? "must not be empty" : `must be at least ${issue.minimum} characters`;
      return issue.inclusive ? `must be at least ${issue.minimum}` : `must be more than ${issue.minimum}`;
    case "too_big":
      if (issue.origin === "array") return `has more than ${issue.maximum} items`;
      if (issue.origin === "string") return `must be at most ${issue.maximum} characters`;
      return issue.inclusive ? `must be at most ${issue.maximum}` : `must be less than ${issue.maximum}`;
    case "invalid_value":
      return `expected ${issue.values.map((v) => JSON.stringify(v)).join(" or ")}, got ${describeValue(issue.input)}`;
    case "invalid_format":
      return `${describeValue(issue.input)} is not in the expected format`;
    case "invalid_union":
      return `${describeValue(issue.input)} is not one of the accepted forms`;
    case "invalid_key":
      return "is not an accepted name";
    case "unrecognized_keys":
      return "unknown key";
    default:
      return undefined;
  }
}

/** One finding per problem, at the key or value it is about. */
export function issuesToFindings(issues: readonly Issue[], context: IssueContext): Finding[] {
  const findings: Finding[] = [];
  const seen = new Set<string>();
  const push = (path: PathSegment[], part: "key" | "value", message: string, detail: string): void => {
    const entity = context.entityOf ? context.entityOf(path) : formatPath(path);
    const fingerprint = `${context.rule}:${context.yaml.file}#${entity}:${detail}`;
    if (seen.has(fingerprint)) return; // the same problem found through two union branches
    seen.add(fingerprint);
    findings.push({
      rule: context.rule,
      severity: "error",
      location: { file: context.yaml.file, range: context.yaml.locate(path, part) },
      message,
      fingerprint,
    });
  };

  const visit = (issue: Issue, prefix: PathSegment[]): void => {
    const path = [...prefix, ...issue.path.map(toSegment)];
    if (issue.code === "unrecognized_keys") {
      const known = knownKeysAt(context.schema, path);
      for (const key of issue.keys) {
        const hint = didYouMean(key, known) || (known.length > 0 && known.length <= 12 ? ` (expected one of: ${known.join(", ")})` : "");
        push([...path, key], "key", `${formatPath([...path, key])}: unknown key${hint}`, "unknown-key");
      }
      return;
    }
    if (issue.code === "invalid_union" && issue.errors.length > 0) {
      // When the value has the type of exactly one accepted form, its problems are the useful ones
      // (`rows_per_partition: {avg: 3}` lacks `max`; it is not "neither a number nor a mapping").
      const plausible = issue.errors.filter((branch) => !branch.every((i) => i.code === "invalid_type" && i.path.length === 0));
      if (plausible.length === 1) {
        for (const inner of plausible[0]!) visit(inner, path);
        return;
      }
    }
    if (issue.code === "invalid_key") {
      push(path, "key", `${formatPath(path)}: ${issue.issues[0]?.message ?? issue.message}`, "invalid-key");
      return;
    }
    if (path.length > 0 && issue.code !== "custom" && isMissing(context.data, path)) {
      const parent = path.slice(0, -1);
      const key = String(path[path.length - 1]);
      const where = parent.length > 0 ? `${formatPath(parent)}: ` : "";
      push(path, "key", `${where}missing required key "${key}"`, `missing-${key}`);
      return;
    }
    push(path, "value", `${formatPath(path)}: ${issue.message}`, issue.code);
  };

  for (const issue of issues) visit(issue, []);
  return findings;
}

function toSegment(segment: PropertyKey): PathSegment {
  return typeof segment === "number" ? segment : String(segment);
}

function isMissing(data: unknown, path: PathSegment[]): boolean {
  let current: unknown = data;
  for (let i = 0; i < path.length - 1; i++) {
    if (current === null || typeof current !== "object") return false;
    current = (current as Record<string, unknown>)[path[i] as string];
  }
  if (current === null || typeof current !== "object" || Array.isArray(current)) return false;
  return !Object.prototype.hasOwnProperty.call(current, path[path.length - 1]!);
}

const EXPECTED: Record<string, string> = {
  string: "text",
  number: "a number",
  int: "a whole number",
  boolean: "true or false",
  object: "a mapping (key: value)",
  record: "a mapping (key: value)",
  array: "a list",
  tuple: "a list",
  null: "nothing",
};

function describeExpected(expected: string): string {
  return EXPECTED[expected] ?? expected;
}

/** How a YAML value reads to its author: `text "abc"`, `the number 5`, `a list`. */
export function describeValue(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "an empty value";
  if (typeof value === "string") return value.length > 40 ? `text "${value.slice(0, 37)}..."` : `text "${value}"`;
  if (typeof value === "number") return Number.isFinite(value) ? `the number ${value}` : `the number ${String(value)}`;
  if (typeof value === "boolean") return `${value}`;
  if (Array.isArray(value)) return "a list";
  if (value instanceof Uint8Array) return "binary data";
  if (typeof value === "object") return "a mapping";
  return typeof value;
}

interface SchemaDef {
  type: string;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  valueType?: z.ZodType;
  innerType?: z.ZodType;
  in?: z.ZodType;
  options?: z.ZodType[];
  getter?: () => z.ZodType;
}

function defOf(schema: z.ZodType): SchemaDef {
  return (schema as unknown as { _zod: { def: SchemaDef } })._zod.def;
}

/** The schemas that can describe the value at `path` (several through unions). */
function schemasAt(schema: z.ZodType, path: PathSegment[], depth = 0): z.ZodType[] {
  if (depth > 64) return [];
  const def = defOf(schema);
  switch (def.type) {
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
    case "readonly":
    case "catch":
    case "nonoptional":
      return def.innerType ? schemasAt(def.innerType, path, depth + 1) : [];
    case "pipe":
      return def.in ? schemasAt(def.in, path, depth + 1) : [];
    case "lazy":
      return def.getter ? schemasAt(def.getter(), path, depth + 1) : [];
    case "union":
      return (def.options ?? []).flatMap((option) => schemasAt(option, path, depth + 1));
    default:
      break;
  }
  if (path.length === 0) return [schema];
  const [head, ...rest] = path;
  if (def.type === "object" && def.shape && typeof head === "string" && Object.prototype.hasOwnProperty.call(def.shape, head)) {
    return schemasAt(def.shape[head]!, rest, depth + 1);
  }
  if (def.type === "array" && def.element) return schemasAt(def.element, rest, depth + 1);
  if (def.type === "record" && def.valueType) return schemasAt(def.valueType, rest, depth + 1);
  return [];
}

/** The keys the mapping at `path` accepts, in schema order. */
export function knownKeysAt(schema: z.ZodType, path: PathSegment[]): string[] {
  const keys = new Set<string>();
  for (const candidate of schemasAt(schema, path)) {
    const def = defOf(candidate);
    if (def.type === "object" && def.shape) for (const key of Object.keys(def.shape)) keys.add(key);
  }
  return [...keys];
}
