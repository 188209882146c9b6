// Enum-typed entity columns: their constants are the column's distinct values, fed to
// table-index-cardinality and the index read estimate where the manifest states none.
import { describe, expect, it } from "vitest";
import { extractFrom, reviewWithCode } from "./review-with-code.js";

const ENTITY = "src/main/java/shop/Order.java";
const STATUS = "src/main/java/shop/OrderStatus.java";
const javaEntity = (statusType: string, extra = "") => `package shop;

import java.util.UUID;
import org.springframework.data.cassandra.core.cql.PrimaryKeyType;
import org.springframework.data.cassandra.core.mapping.PrimaryKeyColumn;
import org.springframework.data.cassandra.core.mapping.Table;

@Table("orders")
public class Order {
    @PrimaryKeyColumn(type = PrimaryKeyType.PARTITIONED)
    private UUID customerId;
    @PrimaryKeyColumn(type = PrimaryKeyType.CLUSTERED)
    private UUID id;
    private ${statusType} status;
    private String state;
${extra}}
`;
const javaEnum = `package shop;

public enum OrderStatus {
    NEW("n"),
    PAID("p") { @Override public boolean open() { return true; } },
    SHIPPED("s"),
    CANCELLED("c");

    private final String code;
    OrderStatus(String code) { this.code = code; }
    public boolean open() { return false; }
}
`;
const schema = `CREATE TABLE shop.orders (customer_id uuid, id timeuuid, status text, state text, PRIMARY KEY ((customer_id), id));
CREATE INDEX orders_status ON shop.orders (status);
CREATE INDEX orders_state ON shop.orders (state);
`;
const manifest = (figures = "") => `version: 1
keyspace: shop
tables:
  orders:
    partitions: 100_000
    rows_per_partition: 100
${figures}queries:
  - id: Q1
    cql: SELECT id FROM orders WHERE status = ?
`;

describe("enum-typed entity columns", () => {
  it("marks a Java column typed by an enum with its constants (constant bodies and members aside); a String column is not marked", async () => {
    const { tables } = await extractFrom({ [ENTITY]: javaEntity("OrderStatus"), [STATUS]: javaEnum });
    const columns = Object.fromEntries(tables[0]!.columns.map((c) => [c.name, c.enum]));
    expect(columns).toEqual({ customerid: undefined, id: undefined, status: { name: "OrderStatus", constants: 4, file: STATUS, line: 3 }, state: undefined });
  });

  it("marks a Kotlin property typed by an enum class (nullable too)", async () => {
    const { tables } = await extractFrom({
      "src/main/kotlin/shop/Order.kt": `package shop

import java.util.UUID
import org.springframework.data.cassandra.core.mapping.PrimaryKey
import org.springframework.data.cassandra.core.mapping.Table

enum class Channel { WEB, STORE, PHONE }

@Table("orders")
data class Order(@PrimaryKey val id: UUID, val channel: Channel?, val tags: List<Channel>, val note: String)
`,
    });
    expect(Object.fromEntries(tables[0]!.columns.map((c) => [c.name, c.enum?.constants]))).toEqual({ id: undefined, channel: 3, tags: undefined, note: undefined });
  });

  it("leaves a type name two enums share unmarked", async () => {
    const other = javaEnum.replace("package shop;", "package shop.legacy;");
    const { tables } = await extractFrom({ [ENTITY]: javaEntity("OrderStatus"), [STATUS]: javaEnum, "src/main/java/shop/legacy/OrderStatus.java": other });
    expect(tables[0]!.columns.find((c) => c.name === "status")?.enum).toBeUndefined();
  });

  it("tells a nested enum written with its owner (`Session.State`) from another enum of the same simple name", async () => {
    const { tables } = await extractFrom({
      [ENTITY]: javaEntity("Session.State", "    private State plain;\n"),
      "src/main/java/shop/Session.java": "package shop;\n\npublic class Session {\n    public enum State { OPEN, CLOSED }\n}\n",
      "src/main/java/shop/State.java": "package shop;\n\npublic enum State { A, B, C }\n",
    });
    const columns = Object.fromEntries(tables[0]!.columns.map((c) => [c.name, c.enum && `${c.enum.name}:${c.enum.constants}`]));
    expect(columns.status).toBe("Session.State:2");
    // `State` alone may be either (an import decides): no count.
    expect(columns.plain).toBeUndefined();
  });

  it("reports an index on the enum column as low-cardinality, saying where the figure comes from", async () => {
    const result = await reviewWithCode({ "schema/orders.cql": schema, "access-patterns.yaml": manifest(), [ENTITY]: javaEntity("OrderStatus"), [STATUS]: javaEnum });
    const found = result.findings.filter((f) => f.rule === "table-index-cardinality");
    expect(found).toHaveLength(1);
    expect(found[0]!.message).toContain("Index orders_status on `status` (text, the enum OrderStatus with 4 constants, src/main/java/shop/OrderStatus.java:3)");
    expect(found[0]!.message).toContain("with 4 values, each value stands for 1/4 of the table");
    const query = result.queries.find((q) => q.id === "Q1")!;
    expect(query.plan.rowsEstimate?.index?.basis).toContain("÷ 4 distinct values, from the enum OrderStatus with 4 constants");
    expect(result.findings.filter((f) => f.rule === "manifest-invalid")).toEqual([]);
  });

  it("takes the manifest's distinct_values over the enum's constants", async () => {
    const result = await reviewWithCode({
      "schema/orders.cql": schema,
      "access-patterns.yaml": manifest("    distinct_values: { status: 5_000 }\n"),
      [ENTITY]: javaEntity("OrderStatus"),
      [STATUS]: javaEnum,
    });
    expect(result.findings.filter((f) => f.rule === "table-index-cardinality")).toEqual([]);
    expect(result.queries.find((q) => q.id === "Q1")!.plan.rowsEstimate?.index?.basis).toContain("÷ 5,000 distinct values, from the manifest");
  });

  it("says nothing of a String column, or of an enum no entity maps to the column", async () => {
    const plain = await reviewWithCode({ "schema/orders.cql": schema, "access-patterns.yaml": manifest(), [ENTITY]: javaEntity("String"), [STATUS]: javaEnum });
    expect(plain.findings.filter((f) => f.rule === "table-index-cardinality")).toEqual([]);
    expect(plain.queries.find((q) => q.id === "Q1")!.plan.rowsEstimate?.index).toBeUndefined();
  });
});
