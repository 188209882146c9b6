// DataStax QueryBuilder chains whose statement is fixed in the source: written out at the chain's
// first call, run-time values as bind markers; chains with run-time names or fragments, unknown
// methods or later extensions listed as dynamic.
import { describe, expect, it } from "vitest";
import { extractFrom } from "./review-with-code.js";

async function read(files: Record<string, string>) {
  const result = await extractFrom(files);
  return {
    at: result.statements.map((s) => `${s.range.start.line} ${s.api} ${s.cql}`),
    dynamicAt: result.dynamic.map((d) => `${d.range.start.line} ${d.reason}`),
    ids: result.statements.map((s) => s.id),
  };
}

const TABLES = `package com.example.shop;

public interface Tables {
    String KEYSPACE = "shop";
    String ORDERS = "orders_by_customer";
    String CUSTOMER_ID = "customer_id";
}
`;

const DRIVER4 = `package com.example.shop;

import static com.datastax.oss.driver.api.querybuilder.QueryBuilder.*;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.metadata.schema.ClusteringOrder;
import com.datastax.oss.driver.api.querybuilder.QueryBuilder;
import com.datastax.oss.driver.api.querybuilder.relation.Relation;
import com.datastax.oss.driver.api.querybuilder.select.Select;

public class OrderDao implements Tables {
    private final CqlSession session;
    private final SimpleStatement byCustomer = selectFrom(KEYSPACE, ORDERS)
        .columns("order_id", "total")
        .whereColumn(Tables.CUSTOMER_ID).isEqualTo(bindMarker())
        .orderBy("order_id", ClusteringOrder.DESC)
        .limit(20)
        .build();

    OrderDao(CqlSession session) { this.session = session; }

    void place() {
        session.execute(session.prepare(
            QueryBuilder.insertInto(ORDERS)
                .value("customer_id", bindMarker())
                .value("order_id", bindMarker())
                .value("total", literal(0))
                .ifNotExists()
                .build()));
    }

    void cancel() {
        session.execute(deleteFrom(ORDERS)
            .where(Relation.column("customer_id").isEqualTo(bindMarker("c")), Relation.column("order_id").isEqualTo(bindMarker("o")))
            .ifExists()
            .build()
            .setIdempotent(true));
    }

    void total(java.math.BigDecimal total) {
        session.execute(update(ORDERS).setColumn("total", literal(total))
            .whereColumn("customer_id").isEqualTo(bindMarker()).build());
    }

    void bigOrders() {
        session.execute(selectFrom(ORDERS).all().whereColumn("total").isGreaterThan(literal(1000)).allowFiltering().asCql());
    }

    void tagged(boolean recent) {
        Select select = selectFrom(ORDERS).all();
        if (recent) select = select.whereColumn("day").isEqualTo(bindMarker());
        session.execute(select.build());
    }

    void stored() {
        Select recent = selectFrom(ORDERS).column("order_id").whereColumn("customer_id").isEqualTo(bindMarker());
        session.execute(recent.build());
    }

    void handed() {
        Select base = selectFrom(ORDERS).all();
        session.execute(Filters.addConditions(base).build());
    }

    void json() {
        session.execute(selectFrom(ORDERS).json().all().build());
    }
}
`;

const DRIVER3 = `package com.example.legacy;

import static com.datastax.driver.core.querybuilder.QueryBuilder.*;

import com.datastax.driver.core.Session;
import com.datastax.driver.core.querybuilder.Insert;
import com.datastax.driver.core.querybuilder.QueryBuilder;

public class UserDao {
    private static final String USERS = "users";
    private final Session session;

    UserDao(Session session) { this.session = session; }

    void byEmail() {
        session.execute(QueryBuilder.select("user_id", "name").from("ks", USERS)
            .where(eq("email", bindMarker()))
            .limit(1));
    }

    void rename(String name) {
        session.execute(QueryBuilder.update(USERS).with(QueryBuilder.set("name", bindMarker()))
            .where(eq("user_id", bindMarker())).and(eq("org", "acme")));
    }

    void remove(java.util.UUID id) {
        session.execute(QueryBuilder.delete().from(USERS).where(eq("user_id", id)));
    }

    void insert(java.util.Map<String, Object> row) {
        Insert insert = QueryBuilder.insertInto(USERS);
        for (var e : row.entrySet()) insert.value(e.getKey(), bindMarker());
        session.execute(insert);
    }

    void delete(String id) { }

    void purge() { delete("x"); }

    void reset() { session.execute(QueryBuilder.truncate(USERS)); }
}
`;

describe("DataStax QueryBuilder", () => {
  it("writes out driver 4 chains with constants from another class, at the chain's first call", async () => {
    const { at } = await read({ "src/main/java/com/example/shop/Tables.java": TABLES, "src/main/java/com/example/shop/OrderDao.java": DRIVER4 });
    expect(at).toEqual([
      "14 QueryBuilder SELECT order_id, total FROM shop.orders_by_customer WHERE customer_id = ? ORDER BY order_id DESC LIMIT 20",
      "25 QueryBuilder INSERT INTO orders_by_customer (customer_id, order_id, total) VALUES (?, ?, 0) IF NOT EXISTS",
      "34 QueryBuilder DELETE FROM orders_by_customer WHERE customer_id = :c AND order_id = :o IF EXISTS",
      "42 QueryBuilder UPDATE orders_by_customer SET total = ? WHERE customer_id = ?",
      "47 QueryBuilder SELECT * FROM orders_by_customer WHERE total > 1000 ALLOW FILTERING",
      "57 QueryBuilder SELECT order_id FROM orders_by_customer WHERE customer_id = ?",
    ]);
  });

  it("lists driver 4 chains with a later extension, finished elsewhere or with an unknown method", async () => {
    const { dynamicAt } = await read({ "src/main/java/com/example/shop/Tables.java": TABLES, "src/main/java/com/example/shop/OrderDao.java": DRIVER4 });
    expect(dynamicAt).toEqual([
      "51 built across statements: select is extended after the chain",
      "62 the chain does not end in build() or asCql(): the statement is finished elsewhere",
      "67 the builder method json() is not one this reader knows",
    ]);
  });

  it("writes out driver 3 chains, a run-time value as a bind marker, and lists those built in a loop", async () => {
    const { at, dynamicAt, ids } = await read({ "src/main/java/com/example/legacy/UserDao.java": DRIVER3 });
    expect(at).toEqual([
      "16 QueryBuilder SELECT user_id, name FROM ks.users WHERE email = ? LIMIT 1",
      "22 QueryBuilder UPDATE users SET name = ? WHERE user_id = ? AND org = 'acme'",
      "27 QueryBuilder DELETE FROM users WHERE user_id = ?",
      "40 QueryBuilder TRUNCATE users",
    ]);
    expect(ids).toEqual([
      "src/main/java/com/example/legacy/UserDao.java#UserDao.byEmail",
      "src/main/java/com/example/legacy/UserDao.java#UserDao.rename",
      "src/main/java/com/example/legacy/UserDao.java#UserDao.remove",
      "src/main/java/com/example/legacy/UserDao.java#UserDao.reset",
    ]);
    // the application's own delete(…) is not QueryBuilder's, though QueryBuilder.* is imported statically
    expect(dynamicAt).toEqual(["31 built across statements: insert is extended after the chain"]);
  });

  it("reads driver 3 chains whose text is taken with getQueryString() or toString(), and a keyspace fixed or not", async () => {
    const { at, dynamicAt, ids } = await read({
      "src/main/java/com/example/legacy/Keyspaces.java": `package com.example.legacy;

public final class Keyspaces {
    public static final String ACCOUNTS = "accounts";
}
`,
      "src/main/java/com/example/legacy/AccountDao.java": `package com.example.legacy;

import static com.datastax.driver.core.querybuilder.QueryBuilder.*;

import com.datastax.driver.core.PreparedStatement;
import com.datastax.driver.core.Session;
import com.datastax.driver.core.querybuilder.Select;

public class AccountDao {
    private final Session session;
    private final String keyspace;
    private final PreparedStatement byIdStmt;
    private final PreparedStatement insertStmt;

    AccountDao(Session session, String keyspace) {
        this.session = session;
        this.keyspace = keyspace;
        Select byId = select().all().from(Keyspaces.ACCOUNTS, "users").where(eq("id", bindMarker())).limit(1);
        byIdStmt = session.prepare(byId.toString());
        insertStmt = session.prepare(insertInto(Keyspaces.ACCOUNTS, "users").value("id", bindMarker()).value("name", bindMarker()).getQueryString());
    }

    String byName() {
        return select("id").from(keyspace, "users_by_name").where(eq("name", bindMarker())).getQueryString();
    }
}
`,
    });
    expect(at).toEqual([
      "18 QueryBuilder SELECT * FROM accounts.users WHERE id = ? LIMIT 1",
      "20 QueryBuilder INSERT INTO accounts.users (id, name) VALUES (?, ?)",
    ]);
    expect(ids).toEqual(["src/main/java/com/example/legacy/AccountDao.java#AccountDao.byId", "src/main/java/com/example/legacy/AccountDao.java#AccountDao.insertStmt"]);
    // a keyspace given to the constructor is chosen at run time
    expect(dynamicAt).toEqual(["24 the keyspace name `keyspace` is not a constant of the code read"]);
  });

  it("writes driver 3 run-time values as bind markers and keeps run-time names and fragments dynamic", async () => {
    const { at, dynamicAt } = await read({
      "src/main/java/com/example/videos/VideoDao.java": `package com.example.videos;

import static com.datastax.driver.core.querybuilder.QueryBuilder.*;

import com.datastax.driver.core.Session;
import com.datastax.driver.core.querybuilder.QueryBuilder;
import java.util.List;
import java.util.UUID;

public class VideoDao {
    private final Session session;
    private final String table;
    VideoDao(Session session, String table) { this.session = session; this.table = table; }

    void byId(UUID videoId, int pageSize) {
        session.execute(QueryBuilder.select().from("ks", "videos")
            .where(eq("videoid", videoId)).and(gte("added", this.since()))
            .limit(pageSize));
    }

    void byIds(List<UUID> ids, UUID a, UUID b) {
        session.execute(select("name").from("videos").where(in("videoid", ids)));
        session.execute(select("name").from("videos").where(in("videoid", a, b, "x")));
        session.execute(select("name").from("videos").where(like("name", a.toString() + "%")));
    }

    void save(Video video, int ttl) {
        session.execute(insertInto("videos").value("videoid", video.getId()).value("name", video.name)
            .using(ttl(ttl)).and(timestamp(video.writtenAt())));
        session.execute(insertInto("videos").values(new String[] {"videoid", "name"}, new Object[] {video.getId(), video.name}));
        session.execute(update("video_stats").with(incr("views")).and(decr("likes", video.unliked()))
            .and(add("tags", video.tag())).and(put("meta", "k", video.meta())).where(eq("videoid", video.getId())));
    }

    void computed(Video video, String column, String condition) {
        session.execute(select().from(table).where(eq("videoid", video.getId())));
        session.execute(select().from("ks", "videos").where(eq(column, video.getId())));
        session.execute(select().from("videos").where(eq("videoid", raw(condition))));
        session.execute(update("videos").with(set("added", now())).where(eq("videoid", video.getId())));
        session.execute(insertInto("videos").values(video.columns(), video.values()));
    }

    private long since() { return 0; }
}
`,
    });
    expect(at).toEqual([
      "16 QueryBuilder SELECT * FROM ks.videos WHERE videoid = ? AND added >= ? LIMIT ?",
      "22 QueryBuilder SELECT name FROM videos WHERE videoid IN ?",
      "23 QueryBuilder SELECT name FROM videos WHERE videoid IN (?, ?, 'x')",
      "24 QueryBuilder SELECT name FROM videos WHERE name LIKE ?",
      "28 QueryBuilder INSERT INTO videos (videoid, name) VALUES (?, ?) USING TTL ? AND TIMESTAMP ?",
      "30 QueryBuilder INSERT INTO videos (videoid, name) VALUES (?, ?)",
      "31 QueryBuilder UPDATE video_stats SET views = views + 1, likes = likes - ?, tags = tags + {?}, meta = meta + {'k': ?} WHERE videoid = ?",
    ]);
    expect(dynamicAt).toEqual([
      "36 the table name `table` is not a constant of the code read",
      "37 the column name `column` is not a constant of the code read",
      "38 the raw fragment `condition` is computed at run time",
      "39 a value is computed by now()",
      "40 the column names of values() are not listed in the code",
    ]);
  });

  it("writes driver 4 run-time values as bind markers and keeps run-time names and fragments dynamic", async () => {
    const { at, dynamicAt } = await read({
      "src/main/java/com/example/videos/VideoRepository.java": `package com.example.videos;

import static com.datastax.oss.driver.api.querybuilder.QueryBuilder.*;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.querybuilder.relation.Relation;
import com.datastax.oss.driver.api.querybuilder.term.Term;
import java.util.List;

public class VideoRepository {
    private final CqlSession session;
    VideoRepository(CqlSession session) { this.session = session; }

    void byId(java.util.UUID videoId, int pageSize, Term since) {
        session.execute(selectFrom("ks", "videos").all()
            .whereColumn("videoid").isEqualTo(literal(videoId))
            .whereColumn("added").isGreaterThanOrEqualTo(since)
            .limit(pageSize)
            .build());
    }

    void byIds(List<Term> ids, Term a, Term b) {
        session.execute(selectFrom("videos").column("name").where(Relation.column("videoid").in(ids)).build());
        session.execute(selectFrom("videos").column("name").whereColumn("videoid").in(a, b, literal(3)).build());
        session.execute(selectFrom("videos").column("name").whereColumn("name").like(literal(a + "%")).build());
    }

    void save(Video video) {
        session.execute(insertInto("videos").value("videoid", literal(video.getId())).value("name", literal(video.name))
            .usingTtl(video.ttl()).build());
        session.execute(update("videos").setColumn("name", literal(video.name)).whereColumn("videoid").isEqualTo(literal(video.getId())).build());
    }

    void computed(Video video, String keyspace, String column, String condition) {
        session.execute(selectFrom(keyspace, "videos").all().whereColumn("videoid").isEqualTo(bindMarker()).build());
        session.execute(selectFrom("videos").all().whereColumn(column).isEqualTo(literal(video.getId())).build());
        session.execute(selectFrom("videos").all().whereColumn("videoid").isEqualTo(raw(condition)).build());
        session.execute(selectFrom("videos").all().whereColumn("added").isLessThan(currentTimestamp()).build());
    }
}
`,
    });
    expect(at).toEqual([
      "15 QueryBuilder SELECT * FROM ks.videos WHERE videoid = ? AND added >= ? LIMIT ?",
      "23 QueryBuilder SELECT name FROM videos WHERE videoid IN ?",
      "24 QueryBuilder SELECT name FROM videos WHERE videoid IN (?, ?, 3)",
      "25 QueryBuilder SELECT name FROM videos WHERE name LIKE ?",
      "29 QueryBuilder INSERT INTO videos (videoid, name) VALUES (?, ?) USING TTL ?",
      "31 QueryBuilder UPDATE videos SET name = ? WHERE videoid = ?",
    ]);
    expect(dynamicAt).toEqual([
      "35 the keyspace name `keyspace` is not a constant of the code read",
      "36 the column name `column` is not a constant of the code read",
      "37 the raw fragment `condition` is computed at run time",
      "38 a value is computed by currentTimestamp()",
    ]);
  });

  it("takes a statically imported constant from its class when another class has the same name", async () => {
    const reading = (cls: string, value: string) => `package com.example.readings;
public abstract class ${cls} {
    public static final String COLUMN_SENSOR = "${value}";
}
`;
    const { at } = await read({
      "src/main/java/com/example/readings/Reading.java": reading("Reading", "sensor_id"),
      "src/main/java/com/example/readings/Catalog.java": reading("Catalog", "catalog_sensor"),
      "src/main/java/com/example/readings/Provider.java": `package com.example.readings;

import static com.example.readings.Reading.COLUMN_SENSOR;
import static com.datastax.oss.driver.api.querybuilder.QueryBuilder.bindMarker;
import static com.datastax.oss.driver.api.querybuilder.QueryBuilder.selectFrom;
import static com.datastax.oss.driver.api.querybuilder.relation.Relation.column;

import com.datastax.oss.driver.api.core.CqlSession;

class Provider {
    void prepare(CqlSession session) {
        session.prepare(selectFrom("readings").all()
            .where(column(COLUMN_SENSOR).isEqualTo(bindMarker(COLUMN_SENSOR)))
            .build());
    }
}
`,
    });
    expect(at).toEqual(["12 QueryBuilder SELECT * FROM readings WHERE sensor_id = :sensor_id"]);
  });

  it("reads driver 4 chains in Kotlin, template values as bind markers, and lists those extended later or with template names", async () => {
    const { at, dynamicAt } = await read({
      "src/main/kotlin/com/example/shop/OrderRepository.kt": `package com.example.shop

import com.datastax.oss.driver.api.core.CqlSession
import com.datastax.oss.driver.api.querybuilder.QueryBuilder.bindMarker
import com.datastax.oss.driver.api.querybuilder.QueryBuilder.deleteFrom
import com.datastax.oss.driver.api.querybuilder.QueryBuilder.literal
import com.datastax.oss.driver.api.querybuilder.QueryBuilder.selectFrom

const val ORDERS = "orders"

class OrderRepository(private val session: CqlSession) {
    private val byCustomer = session.prepare(
        selectFrom("shop", ORDERS).all()
            .whereColumn("customer_id").isEqualTo(bindMarker())
            .limit(10)
            .build()
    )

    fun remove(id: String) {
        val delete = deleteFrom(ORDERS).whereColumn("order_id").isEqualTo(literal(1))
        session.execute(delete.build())
    }

    fun search(tag: String, recent: Boolean) {
        var select = selectFrom(ORDERS).all()
        if (recent) select = select.whereColumn("day").isEqualTo(bindMarker())
        session.execute(select.build())
        session.execute(selectFrom("orders_\${tag}").all().build())
        session.execute(selectFrom(ORDERS).all().whereColumn("tag").isEqualTo(literal("#\${tag}")).limit(recent.hashCode()).build())
    }
}
`,
    });
    expect(at).toEqual([
      "13 QueryBuilder SELECT * FROM shop.orders WHERE customer_id = ? LIMIT 10",
      "20 QueryBuilder DELETE FROM orders WHERE order_id = 1",
      "29 QueryBuilder SELECT * FROM orders WHERE tag = ? LIMIT ?",
    ]);
    expect(dynamicAt).toEqual([
      "25 built across statements: select is extended after the chain",
      "28 the table name `\"orders_\${tag}\"` is not a constant of the code read",
    ]);
  });

  it("reads nothing from a file without the builder's import", async () => {
    const { at, dynamicAt } = await read({
      "src/main/java/com/example/Other.java": `package com.example;
import com.datastax.oss.driver.api.core.CqlSession;
class Other {
    void run(Builder b) { b.update("t").setColumn("a", 1).build(); selectFrom("t").all().build(); }
}
`,
    });
    expect([...at, ...dynamicAt]).toEqual([]);
  });
});
