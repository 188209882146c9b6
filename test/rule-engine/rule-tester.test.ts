// The rule tester must be strict, or rule tests could pass without checking anything.
import { describe, expect, it } from "vitest";
import queryOrderAgainstClustering from "../../rules/query-order-against-clustering.js";
import queryFullScan from "../../rules/query-full-scan.js";
import { applyFixes, checkInvalid, checkValid, ruleTester } from "../rule-tester.js";
import { manifestWith } from "../rules/manifest-text.js";

const videos = "CREATE TABLE videos (\n  video_id uuid PRIMARY KEY,\n  title text\n);\n";
const scan = manifestWith([{ id: "Q1", cql: "SELECT title FROM videos" }]);

describe("ruleTester.run", () => {
  it("refuses duplicate cases, even under different names", () => {
    expect(() =>
      ruleTester.run("query-full-scan", queryFullScan, {
        valid: [{ name: "one", cql: videos }],
        invalid: [{ name: "two", cql: videos, findings: [{ messageId: "scan", line: 4 }] }],
      }),
    ).toThrow(/duplicate test case/);
  });

  it("refuses an id that is not the rule's", () => {
    expect(() => ruleTester.run("query-fullscan", queryFullScan, { valid: [], invalid: [] })).toThrow(/does not match/);
  });
});

describe("checking cases", () => {
  it("fails a valid case that reports", () => {
    expect(() => checkValid(queryFullScan, { cql: videos, manifest: scan })).toThrow();
  });

  it("fails an invalid case on a wrong line, a wrong message id, or a missing finding", () => {
    expect(() => checkInvalid(queryFullScan, { cql: videos, manifest: scan, findings: [{ messageId: "scan", line: 5 }] })).toThrow();
    expect(() => checkInvalid(queryFullScan, { cql: videos, manifest: scan, findings: [{ messageId: "tokenRange", line: 4 }] })).toThrow();
    expect(() =>
      checkInvalid(queryFullScan, { cql: videos, manifest: scan, findings: [{ messageId: "scan", line: 4 }, { messageId: "scan", line: 4 }] }),
    ).toThrow();
    expect(() => checkInvalid(queryFullScan, { cql: videos, manifest: scan, findings: [{ messageId: "scan", line: 4 }] })).not.toThrow();
  });

  it("fails a case whose own schema does not parse", () => {
    expect(() => checkValid(queryFullScan, { cql: "CREATE TABLE videos (video_id uuid PRIMARY KEY title text);" })).toThrow(/own schema/);
  });

  it("requires the output when the rule offers a fix, and checks it", () => {
    const table = "CREATE TABLE g (\n  k text,\n  c timeuuid,\n  PRIMARY KEY ((k), c)\n);\n";
    const reversed = manifestWith([{ id: "Q1", cql: "SELECT c FROM g WHERE k = ? ORDER BY c DESC" }]);
    const base = { cql: table, manifest: reversed, findings: [{ messageId: "allReverse", line: 4 }] };
    expect(() => checkInvalid(queryOrderAgainstClustering, base)).toThrow(/must give its output/);
    expect(() => checkInvalid(queryOrderAgainstClustering, { ...base, output: table })).toThrow();
    expect(() =>
      checkInvalid(queryOrderAgainstClustering, { ...base, output: table.replace(");", ") WITH CLUSTERING ORDER BY (c DESC);") }),
    ).not.toThrow();
  });
});

describe("applyFixes", () => {
  const at = (start: number, end: number, replacement: string) => ({
    description: "",
    file: "a.cql",
    range: { start: { line: 1, column: start + 1, offset: start }, end: { line: 1, column: end + 1, offset: end } },
    replacement,
  });

  it("applies fixes from the last to the first so offsets stay right", () => {
    expect(applyFixes("abcdef", [at(0, 1, "X"), at(4, 6, "YZW")])).toBe("XbcdYZW");
  });

  it("refuses overlapping fixes", () => {
    expect(() => applyFixes("abcdef", [at(0, 3, "X"), at(2, 4, "Y")])).toThrow(/overlapping/);
  });
});
