// One statement written once in code and run by several entries (a generic DAO's method that each
// DAO inherits): a rule's findings there share their cause and show as one naming what it covers.
import { describe, expect, it } from "vitest";
import { findingsAt, reviewWithCode } from "./review-with-code.js";

const SCHEMA = `CREATE TABLE shop.carts (cart_id uuid PRIMARY KEY, owner text);
CREATE TABLE shop.orders (order_id uuid PRIMARY KEY, total int);
CREATE TABLE shop.refunds (refund_id uuid PRIMARY KEY, amount int);
`;

const entity = (name: string, table: string, key: string, column: string, type: string) => `package com.example.shop;

import com.datastax.oss.driver.api.mapper.annotations.*;

@Entity(defaultKeyspace = "shop")
@CqlName("${table}")
public class ${name} {
    @PartitionKey
    private java.util.UUID ${key};
    private ${type} ${column};
}
`;

const dao = (name: string, entityName: string) => `package com.example.shop;

import com.datastax.oss.driver.api.mapper.annotations.*;

@Dao
public interface ${name} extends CrudDao<${entityName}> {}
`;

const BASE = `package com.example.shop;

import com.datastax.oss.driver.api.mapper.annotations.*;

public interface CrudDao<T> {
    @Insert(ifNotExists = true)
    void create(T entity);
}
`;

const DIR = "src/main/java/com/example/shop";

describe("findings that share a cause and a line", () => {
  it("show once, naming every entry that runs the statement", async () => {
    const result = await reviewWithCode({
      "schema/shop.cql": SCHEMA,
      "access-patterns.yaml": "version: 1\nkeyspace: shop\n",
      [`${DIR}/CrudDao.java`]: BASE,
      [`${DIR}/Cart.java`]: entity("Cart", "carts", "cartId", "owner", "String"),
      [`${DIR}/Order.java`]: entity("Order", "orders", "orderId", "total", "int"),
      [`${DIR}/Refund.java`]: entity("Refund", "refunds", "refundId", "amount", "int"),
      [`${DIR}/CartDao.java`]: dao("CartDao", "Cart"),
      [`${DIR}/OrderDao.java`]: dao("OrderDao", "Order"),
      [`${DIR}/RefundDao.java`]: dao("RefundDao", "Refund"),
    });
    const lwt = result.findings.filter((f) => f.rule === "write-lightweight-transaction");
    expect(findingsAt(result, "write-lightweight-transaction")).toEqual([`write-lightweight-transaction ${DIR}/CrudDao.java:7`]);
    expect(lwt[0]!.message).toContain("The same applies to 2 more entries that run this statement:");
    expect(lwt[0]!.message).toContain(`${DIR}/OrderDao.java#OrderDao.create`);
    expect(lwt[0]!.message).toContain(`${DIR}/RefundDao.java#RefundDao.create`);
    expect(lwt[0]!.data?.["sameCauseCount"]).toBe(3);
    // the infos about entries the manifest does not describe are grouped the same way
    expect(findingsAt(result, "code-statement-not-in-manifest")).toHaveLength(1);
  });
});
