// Time buckets and constant key columns found by what the code binds, not by the column's name.
import { describe, expect, it } from "vitest";
import { reviewWithCode } from "../code/review-with-code.js";

const schema = `CREATE TABLE shop.events (
  tenant int,
  part int,
  at timestamp,
  body text,
  PRIMARY KEY ((tenant, part), at)
);
`;
const manifest = (figures: string) => `version: 1
keyspace: shop
tables:
  events:
${figures}`;
const bigPartitions = "    rows_per_partition: 20_000_000\n    growth: 50/s\n    retention: 1y\n";

const javaDao = (save: string) => `package app;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import java.time.Instant;

public class EventDao {
    private static final int ALL = 0;
    private final CqlSession session;
    private final PreparedStatement insert;

    EventDao(CqlSession session) {
        this.session = session;
        this.insert = session.prepare("INSERT INTO events (tenant, part, at, body) VALUES (?, ?, ?, ?)");
    }
${save}
}
`;
const clockSave = `
    void save(int tenant, String body) {
        long now = System.currentTimeMillis();
        int part = (int) (now / 3_600_000L);
        session.execute(insert.bind(tenant, part, Instant.ofEpochMilli(now), body));
    }`;

async function run(files: Record<string, string>, figures = bigPartitions) {
  const result = await reviewWithCode({ "schema/events.cql": schema, "access-patterns.yaml": manifest(figures), ...files });
  const estimate = result.model.estimates.get("shop.events")!;
  const sizeFindings = result.findings.filter((f) => f.rule === "table-partition-too-large");
  return { result, estimate, messages: sizeFindings.map((f) => f.message) };
}

describe("a partition-key column the writes compute from the current time", () => {
  it("is the table's time bucket (Java): the fix narrows it, named with the function that computes it, and adds no second bucket", async () => {
    const { estimate, messages } = await run({ "src/main/java/app/EventDao.java": javaDao(clockSave) });
    expect(estimate.timeKey).toEqual([{ column: "part", writes: ["src/main/java/app/EventDao.java#EventDao.insert"], computed: [{ function: "EventDao.save", source: "part" }] }]);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain("the existing bucket `part` (computed from the current time in EventDao.save)");
    expect(messages[0]).toContain("with no second bucket beside it");
    expect(messages[0]).not.toMatch(/partition by \(tenant, part, /);
  });

  it("without the code's values the same model gets a new bucket beside the columns: the figures cannot tell which column is time", async () => {
    const unknown = `
    void save(int tenant, int part, String body) {
        session.execute(insert.bind(tenant, part, Instant.now(), body));
    }`;
    const { estimate, messages } = await run({ "src/main/java/app/EventDao.java": javaDao(unknown) });
    expect(estimate.timeKey).toBeUndefined();
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/partition by \(tenant, part, \w+\)/);
  });

  it("is no bucket when one write binds it from the clock and another from a parameter", async () => {
    const mixed = `${clockSave}
    void backfill(int tenant, int part, String body) {
        session.execute(insert.bind(tenant, part, Instant.now(), body));
    }`;
    const { estimate } = await run({ "src/main/java/app/EventDao.java": javaDao(mixed) });
    expect(estimate.timeKey).toBeUndefined();
  });

  it("claims no size from growth × retention when its width is not known", async () => {
    const { estimate } = await run({ "src/main/java/app/EventDao.java": javaDao(clockSave) }, "    growth: 50/s\n    retention: 1y\n");
    expect(estimate.basis).toBe("type-default");
    expect(estimate.basisText).toContain("time bucket `part` (computed from the current time in EventDao.save) has no width");
  });

  it("is found in Python (a datetime bucket through locals) and Go (a division of time.Now())", async () => {
    const python = `from datetime import datetime
from cassandra.cluster import Cluster

session = Cluster().connect("shop")
insert = session.prepare("INSERT INTO events (tenant, part, at, body) VALUES (?, ?, ?, ?)")

def save(tenant, body):
    now = datetime.utcnow()
    part = int(now.timestamp()) // 3600
    session.execute(insert, (tenant, part, now, body))
`;
    const go = `package store

import (
	"time"

	"github.com/gocql/gocql"
)

func Save(session *gocql.Session, tenant int, body string) error {
	now := time.Now()
	return session.Query("INSERT INTO events (tenant, part, at, body) VALUES (?, ?, ?, ?)", tenant, now.Unix()/3600, now, body).Exec()
}
`;
    for (const [path, content, fn] of [["app/events.py", python, "save"], ["store/store.go", go, "Save"]] as const) {
      const { estimate, messages } = await run({ [path]: content });
      expect(estimate.timeKey?.map((k) => [k.column, k.computed[0]!.function])).toEqual([["part", fn]]);
      expect(messages[0]).toContain(`the existing bucket \`part\` (computed from the current time in ${fn})`);
    }
  });

  it("is not a bucket when a variable named like one comes from a request (Python)", async () => {
    const python = `from cassandra.cluster import Cluster

session = Cluster().connect("shop")
insert = session.prepare("INSERT INTO events (tenant, part, at, body) VALUES (?, ?, ?, ?)")

def save(request):
    day = request.args["day"]
    bucket = day
    session.execute(insert, (request.tenant, bucket, request.at, request.body))
`;
    const { estimate } = await run({ "app/events.py": python });
    expect(estimate.timeKey).toBeUndefined();
    expect(estimate.constantKey).toBeUndefined();
  });
});

describe("a partition-key column the writes bind from one constant", () => {
  it("is a constant key column like a literal in the CQL, named with the call that binds it (Java)", async () => {
    const constant = `
    void save(int tenant, String body) {
        session.execute(insert.bind(tenant, ALL, Instant.now(), body));
    }`;
    const { estimate, messages } = await run({ "src/main/java/app/EventDao.java": javaDao(constant) });
    expect(estimate.constantKey).toEqual([{ column: "part", value: "0", writes: ["src/main/java/app/EventDao.java#EventDao.insert"], bound: [{ function: "EventDao.save", source: "ALL" }] }]);
    expect(estimate.basisText).toContain("every write sets `part` = 0 (bound from `ALL` in EventDao.save)");
    expect(messages[0]).toContain("Compute the existing bucket `part` from time: every write sets it to 0 (bound from `ALL` in EventDao.save)");
  });

  it("is not constant when one write binds the constant and another a parameter (Go)", async () => {
    const go = `package store

import "github.com/gocql/gocql"

const insertEvent = "INSERT INTO events (tenant, part, at, body) VALUES (?, ?, ?, ?)"
const allParts = 0

func Save(session *gocql.Session, tenant int, at int64, body string) error {
	return session.Query(insertEvent, tenant, allParts, at, body).Exec()
}

func Move(session *gocql.Session, tenant int, part int, at int64, body string) error {
	return session.Query(insertEvent, tenant, part, at, body).Exec()
}
`;
    const { estimate } = await run({ "store/store.go": go });
    expect(estimate.constantKey).toBeUndefined();
    const single = go.slice(0, go.indexOf("func Move"));
    expect((await run({ "store/store.go": single })).estimate.constantKey?.map((k) => [k.column, k.value])).toEqual([["part", "0"]]);
  });

  it("is not constant when one write sets the literal in the CQL and another binds a marker from a parameter (Python)", async () => {
    const python = `from cassandra.cluster import Cluster

session = Cluster().connect("shop")

def save(tenant, at, body):
    session.execute("INSERT INTO events (tenant, part, at, body) VALUES (%s, 0, %s, %s)", (tenant, at, body))

def move(tenant, part, at, body):
    session.execute("INSERT INTO events (tenant, part, at, body) VALUES (%s, %s, %s, %s)", (tenant, part, at, body))
`;
    const { estimate } = await run({ "app/events.py": python });
    expect(estimate.constantKey).toBeUndefined();
  });

  it("makes a key of it alone one partition, reported with the call that binds it (Go)", async () => {
    const go = `package store

import "github.com/gocql/gocql"

const everything = 0

func Save(session *gocql.Session, at int64, body string) error {
	return session.Query("INSERT INTO feed (part, at, body) VALUES (?, ?, ?)", everything, at, body).Exec()
}
`;
    const result = await reviewWithCode({
      "schema/feed.cql": "CREATE TABLE shop.feed (part int, at timestamp, body text, PRIMARY KEY (part, at));\n",
      "access-patterns.yaml": "version: 1\nkeyspace: shop\ntables:\n  feed:\n" + bigPartitions,
      "store/store.go": go,
    });
    const hot = result.findings.filter((f) => f.rule === "table-hot-partition-key").map((f) => f.message);
    expect(hot).toHaveLength(1);
    expect(hot[0]).toContain("sets its partition key to one value (`part` = 0 (bound from `everything` in Save), in store/store.go#Save)");
  });
});
