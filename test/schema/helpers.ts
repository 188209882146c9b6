// Builds schema models from inline CQL for the schema tests.
import { expect } from "vitest";
import { parseCql } from "../../src/cql/index.js";
import type { Finding } from "../../src/findings.js";
import type { ParsedSchemaFile } from "../../src/rule-engine/model.js";
import { buildSchema, type BuildSchemaOptions } from "../../src/schema/builder.js";
import type { TableModel } from "../../src/schema/model.js";

/** Parses each file (path → CQL); test CQL must parse cleanly, so a parse error fails the test at once. */
export function parseFiles(files: Record<string, string>): ParsedSchemaFile[] {
  return Object.entries(files).map(([path, text]) => {
    const parse = parseCql(text);
    const errors = parse.diagnostics.filter((d) => d.severity === "error");
    if (errors.length > 0) {
      throw new Error(`test CQL in ${path} does not parse: ${errors.map((e) => `${e.range.start.line}:${e.range.start.column} ${e.message}`).join("; ")}`);
    }
    return { path, text, parse };
  });
}

export function build(files: string | Record<string, string>, options?: BuildSchemaOptions) {
  return buildSchema(parseFiles(typeof files === "string" ? { "schema.cql": files } : files), options);
}

export function table(schema: { tables: Map<string, TableModel> }, qualified: string): TableModel {
  const found = schema.tables.get(qualified);
  if (!found) throw new Error(`no table ${qualified}; have ${[...schema.tables.keys()].join(", ")}`);
  return found;
}

/** 1-based line and column of the `occurrence`-th `needle` in `text`. */
export function locate(text: string, needle: string, occurrence = 1): { line: number; column: number } {
  let index = -1;
  for (let i = 0; i < occurrence; i++) {
    index = text.indexOf(needle, index + 1);
    if (index < 0) throw new Error(`"${needle}" occurs fewer than ${occurrence} times`);
  }
  const before = text.slice(0, index);
  const line = before.split("\n").length;
  return { line, column: index - before.lastIndexOf("\n") };
}

/** The single finding, checked for rule, severity, message, start position and fingerprint. */
export function expectOneFinding(
  findings: Finding[],
  expected: { message: string | RegExp; at: { line: number; column: number }; fingerprint?: string; file?: string },
): Finding {
  expect(findings.map((f) => f.message)).toHaveLength(1);
  const [finding] = findings as [Finding];
  expect(finding.rule).toBe("schema-invalid");
  expect(finding.severity).toBe("error");
  if (typeof expected.message === "string") expect(finding.message).toBe(expected.message);
  else expect(finding.message).toMatch(expected.message);
  expect({ line: finding.location.range.start.line, column: finding.location.range.start.column }).toEqual(expected.at);
  if (expected.fingerprint) expect(finding.fingerprint).toBe(expected.fingerprint);
  if (expected.file) expect(finding.location.file).toBe(expected.file);
  return finding;
}

export function columnNames(columns: { name: string }[]): string[] {
  return columns.map((c) => c.name);
}
