// Findings are listed by file, line, column, severity and rule, in an order that is the same on
// every machine: strings compare by their code units, never by the host's locale.
import { describe, expect, it } from "vitest";
import { compareCodeUnits } from "../../src/arrays.js";
import { compareFindings, type Finding } from "../../src/findings.js";

function at(file: string, line: number, rule = "table-x"): Finding {
  const position = { line, column: 1, offset: 0 };
  return { rule, severity: "warning", location: { file, range: { start: position, end: position } }, message: "m", fingerprint: `${rule}:${file}` };
}

describe("the order of findings", () => {
  it("compares names by code units: upper case before lower, digits before the underscore", () => {
    expect(["b", "B", "a_1", "a1", "a-1", "ä"].sort(compareCodeUnits)).toEqual(["B", "a-1", "a1", "a_1", "b", "ä"]);
    expect(compareCodeUnits("same", "same")).toBe(0);
  });

  it("is by file first, in code-unit order, then by line", () => {
    const findings = [at("schema/b.cql", 1), at("schema/a_b.cql", 9), at("Schema/z.cql", 5), at("schema/a-b.cql", 2), at("schema/a_b.cql", 3)];
    expect(findings.sort(compareFindings).map((f) => `${f.location.file}:${f.location.range.start.line}`)).toEqual([
      "Schema/z.cql:5",
      "schema/a-b.cql:2",
      "schema/a_b.cql:3",
      "schema/a_b.cql:9",
      "schema/b.cql:1",
    ]);
  });
});
