import { describe, expect, it } from "vitest";
import { review } from "../../src/review.js";

const RULE = "manifest-placeholder";
const SCHEMA = "CREATE KEYSPACE shop WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3};\nCREATE TABLE shop.users (user_id uuid PRIMARY KEY, email text);\n";

function findings(manifests: Record<string, string>) {
  const files = [{ path: "schema.cql", content: SCHEMA }, ...Object.entries(manifests).map(([path, content]) => ({ path, content }))];
  return review({ files }).findings.filter((finding) => finding.rule === RULE);
}

const DRAFTED = `version: 1
keyspace: shop
tables:
  users:
    partitions: 1_000_000   # TODO: distinct partition keys
    columns: { email: 32 }   # TODO: average sizes in bytes
queries:
  - id: user-by-id
    cql: SELECT email FROM users WHERE user_id = ?
    rate: 10/s   # TODO: how often it runs
`;

describe(RULE, () => {
  it("reports the figures still marked TODO, once per manifest, at the first", () => {
    const [finding, ...more] = findings({ "access-patterns.yaml": DRAFTED });
    expect(more).toEqual([]);
    expect(finding).toMatchObject({ severity: "warning", location: { file: "access-patterns.yaml", range: { start: { line: 5, column: 5 } } } });
    expect(finding!.message).toContain("access-patterns.yaml still has 3 figures marked TODO (the first at line 5)");
  });

  it("says nothing once the figures are filled in, nor for TODO in a comment line or a description", () => {
    const filled = DRAFTED.replace(/ {3}# TODO[^\n]*/g, "").replace("version: 1", "# TODO: review the rates next quarter\nversion: 1").replace(
      "    rate: 10/s",
      '    description: "TODO later"\n    rate: 10/s',
    );
    expect(findings({ "access-patterns.yaml": filled })).toEqual([]);
  });

  it("counts each manifest apart", () => {
    const other = DRAFTED.replace("user-by-id", "user-email");
    expect(findings({ "a/access-patterns.yaml": DRAFTED, "b/access-patterns.yaml": other }).map((f) => f.location.file)).toEqual([
      "a/access-patterns.yaml",
      "b/access-patterns.yaml",
    ]);
  });
});
