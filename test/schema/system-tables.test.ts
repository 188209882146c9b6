// Cassandra's own tables are planned like any table, per release, and never count as the
// application's: no "add its CREATE TABLE", no scan error for a node-local table, nothing drafted.
import { describe, expect, it } from "vitest";
import { review } from "../../src/review.js";
import { draftManifest } from "../../src/cli/init.js";
import { systemTables } from "../../src/schema/system-tables.js";

const SCHEMA = `CREATE KEYSPACE shop WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3};
CREATE TABLE shop.users (user_id uuid PRIMARY KEY, email text);
`;

function manifest(queries: Record<string, string>, cassandra = "5.0"): string {
  const entries = Object.entries(queries).map(([id, cql]) => `  - id: ${id}\n    cql: ${JSON.stringify(cql)}\n    rate: 1/s\n`);
  return `version: 1\nkeyspace: shop\ncassandra: "${cassandra}"\nqueries:\n${entries.join("")}`;
}

function reviewOf(queries: Record<string, string>, cassandra?: string) {
  return review({ files: [{ path: "schema.cql", content: SCHEMA }, { path: "access-patterns.yaml", content: manifest(queries, cassandra) }] });
}

describe("Cassandra's own tables", () => {
  it("plans queries on them by their real keys", () => {
    const result = reviewOf({
      version: "SELECT release_version FROM system.local WHERE key = 'local'",
      columns: "SELECT column_name, type FROM system_schema.columns WHERE keyspace_name = 'shop' AND table_name = 'users'",
      peers: "SELECT peer, peer_port, data_center FROM system.peers_v2",
      clients: "SELECT address, port, driver_name FROM system_views.clients",
      roles: "SELECT role FROM system_auth.roles WHERE role = ?",
      trace: "SELECT activity FROM system_traces.events WHERE session_id = ?",
      user: "SELECT email FROM users WHERE user_id = ?",
    });
    const verdicts = Object.fromEntries(result.queries.map((query) => [query.id, [query.table, query.plan.verdict]]));
    expect(verdicts).toEqual({
      version: ["system.local", "single-partition"],
      columns: ["system_schema.columns", "single-partition"],
      peers: ["system.peers_v2", "scan"],
      clients: ["system_views.clients", "scan"],
      roles: ["system_auth.roles", "single-partition"],
      trace: ["system_traces.events", "single-partition"],
      user: ["shop.users", "single-partition"],
    });
    // reading every peer of a node-local table walks no ring: no scan finding, nothing invalid
    expect(result.findings.filter((finding) => finding.severity !== "info")).toEqual([]);
  });

  it("still applies Cassandra's rules to them: a filter on a non-key column needs ALLOW FILTERING", () => {
    const result = reviewOf({ filtered: "SELECT peer FROM system.peers WHERE data_center = 'dc1'" });
    expect(result.queries[0]!.plan.verdict).toBe("needs-allow-filtering");
  });

  it("knows which release has which table and column", () => {
    expect(systemTables("3.11").has("system.peers_v2")).toBe(false);
    expect(systemTables("3.11").has("system_views.clients")).toBe(false);
    expect(systemTables("4.0").has("system.peers_v2")).toBe(true);
    expect(systemTables("4.0").get("system.local")!.columns.map((c) => c.name)).toContain("broadcast_port");
    expect(systemTables("3.11").get("system.local")!.columns.map((c) => c.name)).not.toContain("broadcast_port");
    expect(systemTables("4.0").get("system_views.clients")!.columns.map((c) => c.name)).not.toContain("client_options");
    expect(systemTables("5.0").get("system_views.clients")!.columns.map((c) => c.name)).toContain("client_options");
    // names outside Cassandra's keyspaces, or not in the catalog, are none of its tables
    expect(systemTables("5.0").get("shop.local")).toBeUndefined();
    expect(systemTables("5.0").has("local")).toBe(false);
    expect(systemTables("5.0").has("system.no_such_table")).toBe(false);
    const on311 = reviewOf({ peers: "SELECT peer FROM system.peers_v2" }, "3.11");
    expect(on311.queries[0]!.plan.verdict).toBe("invalid");
  });

  it("is not drafted by init as a table of the application", () => {
    const result = reviewOf({ version: "SELECT release_version FROM system.local WHERE key = 'local'" });
    const draft = draftManifest(result.schema, { cassandra: "5.0", schemaReference: "x.json", sourceFiles: ["schema.cql"] })!;
    expect(draft).not.toContain("system");
    expect(result.schema.tables.has("system.local")).toBe(false);
  });
});
