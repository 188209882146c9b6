// The values code binds to a statement's markers: read per call, classified as a constant, a value
// of the current time, or unknown, from the binding function's own body only.
import { describe, expect, it } from "vitest";
import { extractStatements } from "../../src/code/extract.js";
import { grammars } from "../../src/code/grammars.js";
import type { CodeFile } from "../../src/code/types.js";
import type { BindSite, BoundArgument } from "../../src/manifest/types.js";

const parserFor = (language: Parameters<typeof grammars.parser>[0]) => grammars.parser(language);

async function bindsOf(files: Record<string, string>, cqlStart: string): Promise<BindSite[] | undefined> {
  const list: CodeFile[] = Object.entries(files).map(([path, content]) => ({ path, content }));
  const result = await extractStatements(list, parserFor);
  const statement = result.statements.find((s) => s.cql.replace(/\s+/g, " ").startsWith(cqlStart));
  expect(statement, `no statement starting ${cqlStart}`).toBeDefined();
  return statement!.binds;
}

/** A site's values in short: `time`, `0`, `?` (unknown). */
const short = (value: BoundArgument | undefined) => (!value || value.kind === "unknown" ? "?" : value.kind === "time" ? "time" : value.value);
const shortSite = (site: BindSite) => ({ function: site.function, positional: site.positional.map(short), ...(site.named ? { named: Object.fromEntries(Object.entries(site.named).map(([k, v]) => [k, short(v)])) } : {}) });

describe("Java", () => {
  const dao = (body: string) => ({
    "src/main/java/app/EventDao.java": `package app;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import java.time.Instant;

public class EventDao {
    private static final long ONLY = 0L;
    private final CqlSession session;
    private final PreparedStatement insert;

    EventDao(CqlSession session) {
        this.session = session;
        this.insert = session.prepare("INSERT INTO events (source, shard, at, body) VALUES (?, ?, ?, ?)");
    }
${body}
}
`,
  });

  it("a prepared statement bound in a method: a local computed from the clock is time, a final constant is its value, a parameter is unknown", async () => {
    const binds = await bindsOf(
      dao(`
    void save(String source, String body) {
        long ts = System.currentTimeMillis();
        long shard = ts / 86_400_000;
        session.execute(insert.bind(source, shard, Instant.now(), body));
    }
    void archive(String source, String body) {
        session.execute(insert.bind(source, ONLY, Instant.now(), body));
    }`),
      "INSERT INTO events",
    );
    expect(binds?.map(shortSite)).toEqual([
      { function: "EventDao.save", positional: ["?", "time", "time", "?"] },
      { function: "EventDao.archive", positional: ["?", "0", "time", "?"] },
    ]);
    expect(binds?.[0]?.positional[1]).toMatchObject({ kind: "time", source: "shard" });
  });

  it("a helper called with the clock is time; a variable named like a bucket but set from a parameter is not", async () => {
    const binds = await bindsOf(
      dao(`
    void save(String source, long day, Request request) {
        long bucket = request.getBucket();
        session.execute(insert.bind(source, bucketOf(Instant.now()), day, bucket));
    }
    static long bucketOf(Instant at) { return at.getEpochSecond() / 3600; }`),
      "INSERT INTO events",
    );
    expect(binds?.map(shortSite)).toEqual([{ function: "EventDao.save", positional: ["?", "time", "?", "?"] }]);
  });

  it("a mix of the clock and a value from outside is unknown, and so is the clock's own field", async () => {
    const binds = await bindsOf(
      dao(`
    private final java.time.Clock clock = java.time.Clock.systemUTC();
    void save(String source, long offset) {
        session.execute(insert.bind(source, System.currentTimeMillis() + offset, clock.millis(), this.session));
    }`),
      "INSERT INTO events",
    );
    expect(binds?.map(shortSite)).toEqual([{ function: "EventDao.save", positional: ["?", "?", "?", "?"] }]);
  });

  it("setters chained on a bound statement, by index and by name", async () => {
    const binds = await bindsOf(
      dao(`
    void save(String source) {
        session.execute(insert.boundStatementBuilder().setString(0, source).setLong("shard", 7L).setInstant(2, Instant.now()).build());
    }`),
      "INSERT INTO events",
    );
    expect(binds?.map(shortSite)).toEqual([{ function: "EventDao.save", positional: ["?", "?", "time"], named: { shard: "7" } }]);
    expect(binds?.[0]?.partial).toBe(true);
  });

  it("a prepared statement used other than by binding it: that use's values are unknown", async () => {
    const binds = await bindsOf(
      dao(`
    void save(String source) {
        session.execute(insert.bind(source, ONLY, Instant.now(), "x"));
    }
    PreparedStatement statement() { return insert; }`),
      "INSERT INTO events",
    );
    expect(binds?.map(shortSite)).toEqual([
      { function: "EventDao.save", positional: ["?", "0", "time", "'x'"] },
      { function: "EventDao.statement", positional: [] },
    ]);
  });

  it("a statement handed to a helper of the same file: the helper's binding, unless overloads of that arity leave the helper unknown", async () => {
    const binds = await bindsOf(
      dao(`
    void save(String source, String body) { session.execute(bindEvent(insert, source, body)); }
    private BoundStatement bindEvent(PreparedStatement statement, String source, String body) {
        return statement.bind(source, ONLY, Instant.now(), body);
    }`),
      "INSERT INTO events",
    );
    expect(binds?.map(shortSite)).toEqual([{ function: "EventDao.bindEvent", positional: ["?", "0", "time", "?"] }]);
    const overloaded = await bindsOf(
      dao(`
    void save(String source, String body) { session.execute(bindEvent(insert, source, body)); }
    private BoundStatement bindEvent(PreparedStatement statement, String source, String body) { return statement.bind(source, ONLY, Instant.now(), body); }
    private BoundStatement bindEvent(PreparedStatement statement, String source, long shard) { return statement.bind(source, shard, Instant.now(), "x"); }`),
      "INSERT INTO events",
    );
    expect(overloaded?.map(shortSite)).toEqual([{ function: "EventDao.save", positional: [] }]);
  });

  it("a prepared statement whose name another file of the language mentions may be bound there: that is an unknown site", async () => {
    const binds = await bindsOf(
      {
        ...dao(`
    void save(String source) { session.execute(insert.bind(source, ONLY, Instant.now(), "x")); }`),
        "src/main/java/app/Replay.java": "package app;\nclass Replay { void run(EventDao dao) { dao.insert.bind(\"s\", 1, null, null); } }\n",
      },
      "INSERT INTO events",
    );
    expect(binds?.map(shortSite)).toEqual([
      { function: "EventDao.save", positional: ["?", "0", "time", "'x'"] },
      { function: "EventDao.EventDao", positional: [] },
    ]);
  });

  it("driver 3's execute(query, values…) and a text run by two calls: each call's values", async () => {
    const binds = await bindsOf(
      {
        "src/main/java/app/Legacy.java": `package app;

import com.datastax.driver.core.Session;
import java.util.Date;

class Legacy {
    static final String INSERT = "INSERT INTO events (source, shard, at, body) VALUES (?, ?, ?, ?)";
    void one(Session session, String s) { session.execute(INSERT, s, 0, new Date(), "a"); }
    void two(Session session, String s, int shard) { session.execute(INSERT, s, shard, new Date(), "b"); }
}
`,
      },
      "INSERT INTO events",
    );
    expect(binds?.map(shortSite)).toEqual([
      { function: "Legacy.one", positional: ["?", "0", "time", "'a'"] },
      { function: "Legacy.two", positional: ["?", "?", "time", "'b'"] },
    ]);
  });
});

describe("Python", () => {
  it("a tuple of values, a dict for named markers, and the clock through locals", async () => {
    const files = {
      "app/events.py": `from datetime import datetime, timezone
from cassandra.cluster import Cluster

session = Cluster().connect("app")
insert = session.prepare("INSERT INTO events (source, shard, at, body) VALUES (?, ?, ?, ?)")

def save(source, body):
    now = datetime.now(timezone.utc)
    shard = now.strftime("%Y%m%d")
    session.execute(insert, (source, shard, now, body))

def save_day(source, day):
    session.execute(insert, [source, day, datetime.utcnow(), "x"])

def log(source, body):
    session.execute(
        "INSERT INTO audit (source, day, body) VALUES (%(source)s, %(day)s, %(body)s)",
        {"source": source, "day": datetime.utcnow().date(), "body": body},
    )
`,
    };
    expect((await bindsOf(files, "INSERT INTO events"))?.map(shortSite)).toEqual([
      { function: "save", positional: ["?", "time", "time", "?"] },
      { function: "save_day", positional: ["?", "?", "time", "'x'"] },
    ]);
    expect((await bindsOf(files, "INSERT INTO audit"))?.map(shortSite)).toEqual([{ function: "log", positional: [], named: { source: "?", day: "time", body: "?" } }]);
  });
});

describe("Go", () => {
  it("values after the statement in Session.Query, a constant of the package, and a spread slice", async () => {
    const files = {
      "store/store.go": `package store

import (
	"time"

	"github.com/gocql/gocql"
)

const insertEvent = "INSERT INTO events (source, shard, at, body) VALUES (?, ?, ?, ?)"
const allShards = 0

type Store struct{ session *gocql.Session }

func (s *Store) Save(source string, body string) error {
	now := time.Now()
	shard := now.Unix() / int64(time.Hour/time.Second)
	return s.session.Query(insertEvent, source, shard, now, body).Exec()
}

func (s *Store) Backfill(source string, shard int64, at time.Time) error {
	return s.session.Query(insertEvent, source, allShards, at, "backfill").Exec()
}

func (s *Store) Any(args []interface{}) error {
	return s.session.Query(insertEvent, args...).Exec()
}
`,
    };
    expect((await bindsOf(files, "INSERT INTO events"))?.map(shortSite)).toEqual([
      { function: "Store.Save", positional: ["?", "time", "time", "?"] },
      { function: "Store.Backfill", positional: ["?", "0", "?", "'backfill'"] },
      { function: "Store.Any", positional: [] },
    ]);
  });
});

describe("JavaScript", () => {
  it("an array of values with prepare: true", async () => {
    const files = {
      "lib/events.js": `const cassandra = require("cassandra-driver");
const client = new cassandra.Client({ contactPoints: ["a"] });

async function save(source, body) {
  const day = Math.floor(Date.now() / 86400000);
  await client.execute("INSERT INTO events (source, shard, at, body) VALUES (?, ?, ?, ?)", [source, day, new Date(), body], { prepare: true });
}
module.exports = { save };
`,
    };
    expect((await bindsOf(files, "INSERT INTO events"))?.map(shortSite)).toEqual([{ function: "save", positional: ["?", "time", "time", "?"] }]);
  });
});
