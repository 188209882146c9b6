// analyseQueries over a manifest: table resolution for `cql` queries (manifest keyspace, then the
// only keyspace holding the name), Cassandra's wording for unknown tables, unparsable queries,
// rates and limits, and abstract queries through the matcher.
import { describe, expect, it } from "vitest";
import { analyseQueries } from "../../src/analysis/queries.js";
import type { SelectStatement } from "../../src/cql/ast.js";
import { parseCql } from "../../src/cql/index.js";
import type { SourceLocation } from "../../src/findings.js";
import type { AbstractQuery, CqlQuery, Manifest } from "../../src/manifest/types.js";
import { buildSchema } from "../../src/schema/builder.js";

const AT: SourceLocation = { file: "access-patterns.yaml", range: { start: { line: 5, column: 3, offset: 60 }, end: { line: 5, column: 20, offset: 77 } } };

const SCHEMA = `
CREATE KEYSPACE shop WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3};
CREATE KEYSPACE audit WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3};
CREATE TABLE shop.orders_by_customer (customer_id uuid, placed_at timestamp, order_id uuid, total decimal,
  PRIMARY KEY ((customer_id), placed_at, order_id)) WITH CLUSTERING ORDER BY (placed_at DESC, order_id ASC);
CREATE TABLE shop.events (id uuid PRIMARY KEY, kind text);
CREATE TABLE audit.events (id uuid PRIMARY KEY, actor text);
CREATE TABLE audit.logins (user_id uuid, at timestamp, ip inet, PRIMARY KEY (user_id, at));
`;

const parse = parseCql(SCHEMA);
const { schema } = buildSchema([{ path: "schema.cql", text: SCHEMA, parse }]);

function cql(id: string, text: string, rate?: number): CqlQuery {
  const parsed = parseCql(text);
  const statement = parsed.diagnostics.length === 0 ? (parsed.statements[0] as SelectStatement | undefined) : undefined;
  return {
    form: "cql",
    id,
    cql: text,
    ...(statement ? { statement } : {}),
    cqlLocation: AT,
    ...(rate !== undefined ? { ratePerSecond: rate } : {}),
    ignore: [],
    location: AT,
  };
}

function manifest(queries: (CqlQuery | AbstractQuery)[], keyspace?: string): Manifest {
  return { file: "access-patterns.yaml", version: 1, ...(keyspace ? { keyspace } : {}), tables: [], queries, writes: [] };
}

describe("analyseQueries", () => {
  it("returns nothing without a manifest", () => {
    expect(analyseQueries(undefined, schema, { version: "5.0" })).toEqual([]);
  });

  it("plans a cql query against the table it names, with rate and limit", () => {
    const [q] = analyseQueries(
      manifest([cql("Q1", "SELECT order_id, total FROM orders_by_customer WHERE customer_id = ? LIMIT 20", 150)], "shop"),
      schema,
      { version: "5.0" },
    );
    expect(q).toMatchObject({ id: "Q1", form: "cql", table: "shop.orders_by_customer", ratePerSecond: 150, limit: 20 });
    expect(q!.plan).toMatchObject({ verdict: "single-partition", partitions: 1, rowsRead: 20 });
    expect(q!.candidates).toEqual([{ table: "shop.orders_by_customer", plan: q!.plan, because: "named by the query" }]);
    expect(q!.select?.kind).toBe("select");
  });

  it("resolves unqualified names through the manifest keyspace, then the only keyspace holding the name", () => {
    const result = analyseQueries(
      manifest([cql("Q2", "SELECT * FROM events WHERE id = ?"), cql("Q3", "SELECT * FROM logins WHERE user_id = ?")], "shop"),
      schema,
      { version: "5.0" },
    );
    expect(result.map((q) => q.table)).toEqual(["shop.events", "audit.logins"]);
    // Without a manifest keyspace, the options' keyspace is the default
    const viaOptions = analyseQueries(manifest([cql("Q2", "SELECT * FROM events WHERE id = ?")]), schema, { version: "5.0", keyspace: "audit" });
    expect(viaOptions[0]!.table).toBe("audit.events");
  });

  it("rejects an ambiguous or unknown table in Cassandra's words", () => {
    const [ambiguous, unknown, noKeyspace] = analyseQueries(
      manifest([
        cql("Q4", "SELECT * FROM events WHERE id = ?"),
        cql("Q5", "SELECT * FROM shop.carts WHERE id = ?"),
        cql("Q6", "SELECT * FROM billing.invoices WHERE id = ?"),
      ]),
      schema,
      { version: "5.0" },
    );
    expect(ambiguous!.plan).toMatchObject({ verdict: "invalid", errorGist: "unconfigured table events" });
    expect(ambiguous!.table).toBeNull();
    expect(unknown!.plan).toMatchObject({ verdict: "invalid", errorGist: "unconfigured table carts" });
    expect(noKeyspace!.plan).toMatchObject({ verdict: "invalid", errorGist: "Keyspace billing does not exist" });
  });

  it("marks a query whose CQL does not parse", () => {
    const [q] = analyseQueries(manifest([cql("Q7", "SELECT FROM WHERE")], "shop"), schema, { version: "5.0" });
    expect(q!.plan).toMatchObject({ verdict: "invalid", errorGist: "does not parse", partitions: null });
    expect(q!.table).toBeNull();
  });

  it("applies the version's rules", () => {
    const text = "SELECT * FROM orders_by_customer WHERE customer_id = ? AND total IN (1, 2) ALLOW FILTERING";
    const [old] = analyseQueries(manifest([cql("Q8", text)], "shop"), schema, { version: "4.0" });
    const [recent] = analyseQueries(manifest([cql("Q8", text)], "shop"), schema, { version: "4.1" });
    expect([old!.plan.verdict, recent!.plan.verdict]).toEqual(["invalid", "single-partition"]);
  });

  it("matches abstract queries and keeps their limit and rate", () => {
    const abstract: AbstractQuery = {
      form: "abstract",
      id: "Q9",
      description: "Recent orders of a customer",
      select: ["order_id", "total"],
      where: [{ column: "customer_id", operator: "=", location: AT }],
      orderBy: [{ column: "placed_at", direction: "desc" }],
      limit: 10,
      ratePerSecond: 40,
      ignore: [],
      location: AT,
    };
    const [q] = analyseQueries(manifest([abstract], "shop"), schema, { version: "5.0" });
    expect(q).toMatchObject({ id: "Q9", form: "abstract", table: "shop.orders_by_customer", limit: 10, ratePerSecond: 40, description: "Recent orders of a customer" });
    expect(q!.plan).toMatchObject({ verdict: "single-partition", direction: "forward", rowsRead: 10 });
    expect(q!.select?.text).toContain("ORDER BY placed_at DESC LIMIT 10");

    const unserved: AbstractQuery = { ...abstract, id: "Q10", where: [{ column: "total", operator: "=", location: AT }], orderBy: [] };
    const [u] = analyseQueries(manifest([unserved], "shop"), schema, { version: "5.0" });
    expect(u!.plan.verdict).toBe("unserved");
    expect(u!.suggestedTable).toContain("CREATE TABLE shop.orders_by_total");
  });
});
