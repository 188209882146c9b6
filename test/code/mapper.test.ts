// The DataStax mapper's DAO methods: @Select, @Insert, @Update, @Delete written out from the
// entity they work on, @Query placeholders filled in, and driver 3's @Accessor queries.
import { describe, expect, it } from "vitest";
import { grammars } from "../../src/code/grammars.js";
import { extractFrom, reviewWithCode } from "./review-with-code.js";

async function read(files: Record<string, string>) {
  const result = await extractFrom(files);
  return {
    ...result,
    byId: Object.fromEntries(result.statements.map((s) => [s.id.slice(s.id.indexOf("#") + 1), `${s.range.start.line} ${s.api} ${s.cql}`])),
    dynamicById: Object.fromEntries(result.dynamic.map((d) => [d.id.slice(d.id.indexOf("#") + 1), `${d.range.start.line} ${d.reason}`])),
  };
}

const DIR = "src/main/java/com/example/sales";

const ENTITY = `package com.example.sales;

import com.datastax.oss.driver.api.mapper.annotations.ClusteringColumn;
import com.datastax.oss.driver.api.mapper.annotations.CqlName;
import com.datastax.oss.driver.api.mapper.annotations.Entity;
import com.datastax.oss.driver.api.mapper.annotations.PartitionKey;

@Entity(defaultKeyspace = Names.KEYSPACE)
@CqlName(Names.SALES)
public class ProductSale {
    @PartitionKey(0) private java.util.UUID productId;
    @PartitionKey(1) private java.time.LocalDate day;
    @ClusteringColumn(0) private java.util.UUID customerId;
    @ClusteringColumn(1) private long ts;
    private double price;
    private int count;
}
`;

const NAMES = `package com.example.sales;

public final class Names {
    public static final String KEYSPACE = "shop";
    public static final String SALES = "product_sales";
    public static final String BY_PRICE = "product_id = :productId AND day = :day AND price > :min";
}
`;

const DAO = `package com.example.sales;

import com.datastax.oss.driver.api.core.PagingIterable;
import com.datastax.oss.driver.api.core.cql.BoundStatementBuilder;
import com.datastax.oss.driver.api.mapper.annotations.*;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

@Dao
public interface ProductSaleDao {
    @Select
    ProductSale findOne(java.util.UUID productId, java.time.LocalDate day, java.util.UUID customerId, long ts);

    @Select
    PagingIterable<ProductSale> findByDay(java.util.UUID productId, java.time.LocalDate day,
                                          Function<BoundStatementBuilder, BoundStatementBuilder> options);

    @Select
    CompletionStage<MappedAsyncPagingIterable<ProductSale>> all();

    @Select(customWhereClause = Names.BY_PRICE, limit = ":max", allowFiltering = true)
    java.util.stream.Stream<ProductSale> expensive(java.util.UUID productId, java.time.LocalDate day, double min, int max);

    @Select(customWhereClause = "product_id = :id AND day = :day",
            orderBy = {"customer_id DESC", "ts DESC"})
    PagingIterable<ProductSale> latest(java.util.UUID id, java.time.LocalDate day);

    @Insert(ifNotExists = true, ttl = "86400")
    boolean save(ProductSale sale);

    @Update
    void update(ProductSale sale);

    @Delete
    void delete(ProductSale sale);

    @Delete(entityClass = ProductSale.class)
    void deleteDay(java.util.UUID productId, java.time.LocalDate day);

    @Delete(entityClass = ProductSale.class, customWhereClause = "product_id = :id AND day IN :days")
    void deleteDays(java.util.UUID id, java.util.List<java.time.LocalDate> days);

    @Query("SELECT * FROM \${qualifiedTableId} WHERE product_id = :id AND day = :day LIMIT 1")
    CompletionStage<java.util.Optional<ProductSale>> first(java.util.UUID id, java.time.LocalDate day);

    @Query("SELECT * FROM \${keyspaceId}.\${tableId} WHERE product_id = :id AND day = :day")
    PagingIterable<ProductSale> raw(java.util.UUID id, java.time.LocalDate day);

    @Query("SELECT count(*) FROM \${qualifiedTableId} WHERE product_id = :id AND day = :day")
    long count(java.util.UUID id, java.time.LocalDate day);

    @Select
    PagingIterable<Invoice> invoices(java.util.UUID id);
}
`;

const APP = { [`${DIR}/ProductSale.java`]: ENTITY, [`${DIR}/Names.java`]: NAMES, [`${DIR}/ProductSaleDao.java`]: DAO };
const COLUMNS = "product_id, day, customer_id, ts, price, count";

describe("DataStax mapper 4 DAO methods", () => {
  it("writes each method's statement out from its entity, at the method's line", async () => {
    const { byId } = await read(APP);
    expect(byId).toEqual({
      "ProductSaleDao.findOne": `12 @Select SELECT ${COLUMNS} FROM shop.product_sales WHERE product_id = :product_id AND day = :day AND customer_id = :customer_id AND ts = :ts`,
      "ProductSaleDao.findByDay": `15 @Select SELECT ${COLUMNS} FROM shop.product_sales WHERE product_id = :product_id AND day = :day`,
      "ProductSaleDao.all": `19 @Select SELECT ${COLUMNS} FROM shop.product_sales`,
      "ProductSaleDao.expensive": `22 @Select SELECT ${COLUMNS} FROM shop.product_sales WHERE product_id = :productId AND day = :day AND price > :min LIMIT :max ALLOW FILTERING`,
      "ProductSaleDao.latest": `26 @Select SELECT ${COLUMNS} FROM shop.product_sales WHERE product_id = :id AND day = :day ORDER BY customer_id DESC, ts DESC`,
      "ProductSaleDao.save": `29 @Insert INSERT INTO shop.product_sales (${COLUMNS}) VALUES (:product_id, :day, :customer_id, :ts, :price, :count) IF NOT EXISTS USING TTL 86400`,
      "ProductSaleDao.update": "32 @Update UPDATE shop.product_sales SET price = :price, count = :count WHERE product_id = :product_id AND day = :day AND customer_id = :customer_id AND ts = :ts",
      "ProductSaleDao.delete": "35 @Delete DELETE FROM shop.product_sales WHERE product_id = :product_id AND day = :day AND customer_id = :customer_id AND ts = :ts",
      "ProductSaleDao.deleteDay": "38 @Delete DELETE FROM shop.product_sales WHERE product_id = :product_id AND day = :day",
      "ProductSaleDao.deleteDays": "41 @Delete DELETE FROM shop.product_sales WHERE product_id = :id AND day IN :days",
      "ProductSaleDao.first": "43 @Query SELECT * FROM shop.product_sales WHERE product_id = :id AND day = :day LIMIT 1",
      "ProductSaleDao.raw": "46 @Query SELECT * FROM shop.product_sales WHERE product_id = :id AND day = :day",
    });
  });

  it("lists what the code read cannot fix: a placeholder without an entity, an entity not read", async () => {
    const { dynamicById } = await read(APP);
    expect(dynamicById).toEqual({
      "ProductSaleDao.count": "49 the mapper fills ${…} in from the entity, and the method returns no entity of the code read",
      "ProductSaleDao.invoices": "53 the mapper writes it from an entity that is not among the files read",
    });
  });

  it("gives nothing for a key prefix that does not cover the partition key (the mapper rejects it)", async () => {
    const dao = `package com.example.sales;
import com.datastax.oss.driver.api.mapper.annotations.*;
@Dao
public interface Partial {
    @Select
    PagingIterable<ProductSale> byProduct(java.util.UUID productId);
}
`;
    const { statements, dynamic } = await read({ ...APP, [`${DIR}/Partial.java`]: dao });
    expect(statements.filter((s) => s.file.endsWith("Partial.java"))).toEqual([]);
    expect(dynamic.filter((d) => d.file.endsWith("Partial.java"))).toEqual([]);
  });

  it("leaves Android Room's @Dao alone, though the names are the same", async () => {
    const room = `package com.example.sales;
import androidx.room.Dao;
import androidx.room.Insert;
import com.datastax.oss.driver.api.core.CqlSession;
@Dao
public interface LocalSales {
    @Insert
    void save(ProductSale sale);
}
`;
    const { statements, dynamic } = await read({ ...APP, [`${DIR}/LocalSales.java`]: room });
    expect([...statements, ...dynamic].filter((s) => s.file.endsWith("LocalSales.java"))).toEqual([]);
  });

  it("leaves the keyspace placeholder open when the entity names no keyspace", async () => {
    const entity = ENTITY.replace("@Entity(defaultKeyspace = Names.KEYSPACE)", "@Entity");
    const { byId, dynamicById } = await read({ ...APP, [`${DIR}/ProductSale.java`]: entity });
    expect(byId["ProductSaleDao.first"]).toBe("43 @Query SELECT * FROM product_sales WHERE product_id = :id AND day = :day LIMIT 1");
    expect(dynamicById["ProductSaleDao.raw"]).toBe("46 the keyspace is the one the DAO is built with at run time");
  });

  it("plans a DAO's select like any statement, its findings on the method's line", async () => {
    const schema = `CREATE TABLE shop.product_sales (
  product_id uuid, day date, customer_id uuid, ts bigint, price double, count int,
  PRIMARY KEY ((product_id, day), customer_id, ts)
);
`;
    const result = await reviewWithCode({ "schema/sales.cql": schema, ...APP, "access-patterns.yaml": "version: 1\nkeyspace: shop\n" });
    const plans = Object.fromEntries(result.queries.map((q) => [q.id.slice(q.id.indexOf("#") + 1), `${q.location.range.start.line} ${q.plan.verdict}`]));
    expect(plans).toMatchObject({
      "ProductSaleDao.findOne": "12 single-partition",
      "ProductSaleDao.findByDay": "15 single-partition",
      // a regular column filtered: the @Select asks for ALLOW FILTERING itself
      "ProductSaleDao.expensive": expect.stringMatching(/^22 /),
    });
    expect(plans["ProductSaleDao.all"]).toMatch(/^19 (?!single-partition)/);
    expect(result.manifest!.writes.map((w) => w.id.slice(w.id.indexOf("#") + 1))).toEqual(
      expect.arrayContaining(["ProductSaleDao.save", "ProductSaleDao.update", "ProductSaleDao.delete", "ProductSaleDao.deleteDay", "ProductSaleDao.deleteDays"]),
    );
  });
});

describe("DAO methods inherited from a generic interface", () => {
  it("writes the base's methods for each DAO's entity, at the base's line, with the DAO's id", async () => {
    const base = `package com.example.base;

import com.datastax.oss.driver.api.mapper.annotations.*;

public interface CrudDao<T> {
    @Insert(ifNotExists = true)
    void insert(T entity);

    @Delete(ifExists = true)
    void delete(T entity);
}
`;
    const dao = `package com.example.sales;

import com.datastax.oss.driver.api.mapper.annotations.*;
import com.example.base.CrudDao;

@Dao
public interface SaleDao extends CrudDao<ProductSale> {
    @Select
    PagingIterable<ProductSale> all();
}
`;
    const result = await extractFrom({ ...APP, "src/main/java/com/example/base/CrudDao.java": base, [`${DIR}/SaleDao.java`]: dao });
    const inherited = result.statements.filter((s) => s.id.startsWith(`${DIR}/SaleDao.java#`));
    expect(inherited.map((s) => [s.id.split("#")[1], s.file, s.range.start.line, s.call?.line, s.cql.split(" WHERE")[0]!.split(" VALUES")[0]])).toEqual([
      ["SaleDao.all", `${DIR}/SaleDao.java`, 9, undefined, `SELECT ${COLUMNS} FROM shop.product_sales`],
      ["SaleDao.insert", "src/main/java/com/example/base/CrudDao.java", 7, 7, `INSERT INTO shop.product_sales (${COLUMNS})`],
      ["SaleDao.delete", "src/main/java/com/example/base/CrudDao.java", 10, 7, "DELETE FROM shop.product_sales"],
    ]);
    // the base interface alone is no DAO: nothing is reported for it
    expect(result.statements.some((s) => s.id.includes("#CrudDao."))).toBe(false);
  });
});

describe("DataStax mapper 3 accessors", () => {
  it("reads an @Accessor's @Query with named markers", async () => {
    const { byId } = await read({
      "src/main/java/com/example/legacy/UserAccessor.java": `package com.example.legacy;

import com.datastax.driver.mapping.Result;
import com.datastax.driver.mapping.annotations.Accessor;
import com.datastax.driver.mapping.annotations.Param;
import com.datastax.driver.mapping.annotations.Query;

@Accessor
public interface UserAccessor {
    @Query("SELECT * FROM users WHERE email = :email")
    Result<User> byEmail(@Param("email") String email);

    @Query("UPDATE users SET name = ? WHERE email = ?")
    void rename(String name, String email);
}
`,
    });
    expect(byId).toEqual({
      "UserAccessor.byEmail": "10 @Query SELECT * FROM users WHERE email = :email",
      "UserAccessor.rename": "13 @Query UPDATE users SET name = ? WHERE email = ?",
    });
  });
});
