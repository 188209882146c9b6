// Python and Go batches filled at run time: one BATCH entry at the line that creates the batch
// when every statement added is known; listed as dynamic, with the reason, when one is not.
import { describe, expect, it } from "vitest";
import { mergeCodeIntoManifest } from "../../src/code/entries.js";
import { extractFrom, findingsAt, reviewWithCode } from "./review-with-code.js";

const flat = (cql: string | undefined) => cql?.replace(/\s+/g, " ");

describe("Python cassandra-driver batches filled at run time", () => {
  const STORE = `from cassandra.query import BatchStatement, BatchType, SimpleStatement

INSERT_BY_DAY = "INSERT INTO readings_by_day (sensor, day, at, value) VALUES (?, ?, ?, ?)"


class ReadingStore:
    def __init__(self, session):
        self.session = session
        self.insert_latest = session.prepare("INSERT INTO latest_reading (sensor, at, value) VALUES (?, ?, ?)")
        self.insert_by_day = session.prepare(INSERT_BY_DAY)

    def save_all(self, sensor, readings):
        batch = BatchStatement(batch_type=BatchType.UNLOGGED)
        for reading in readings:
            batch.add(self.insert_by_day, (sensor, reading.day, reading.at, reading.value))
        if readings:
            batch.add(self.insert_latest.bind((sensor, readings[-1].at, readings[-1].value)))
        self.session.execute(batch)

    def forget(self, sensor, day):
        batch = BatchStatement()
        batch.add(SimpleStatement("DELETE FROM readings_by_day WHERE sensor = %s AND day = %s"), (sensor, day))
        batch.add("DELETE FROM latest_reading WHERE sensor = %s", (sensor,))
        self.session.execute(batch)

    def replay(self, statements):
        batch = BatchStatement()
        for statement, params in statements:
            batch.add(statement, params)
        self.session.execute(batch)
`;

  it("writes one BATCH of the prepared and literal statements, at the line that creates it", async () => {
    const result = await extractFrom({ "app/store.py": STORE });
    const batches = result.statements.filter((s) => s.api === "BatchStatement" && s.cql.startsWith("BEGIN"));
    expect(batches.map((b) => [b.id, b.range.start.line, flat(b.cql)])).toEqual([
      [
        "app/store.py#ReadingStore.save_all",
        13,
        "BEGIN UNLOGGED BATCH INSERT INTO readings_by_day (sensor, day, at, value) VALUES (?, ?, ?, ?); INSERT INTO latest_reading (sensor, at, value) VALUES (?, ?, ?); APPLY BATCH",
      ],
      [
        // the two statements it adds are forget and forget~2
        "app/store.py#ReadingStore.forget~3",
        21,
        "BEGIN BATCH DELETE FROM readings_by_day WHERE sensor = ? AND day = ?; DELETE FROM latest_reading WHERE sensor = ?; APPLY BATCH",
      ],
    ]);
  });

  it("lists a batch of statements chosen at run time as dynamic, naming what it adds", async () => {
    const result = await extractFrom({ "app/store.py": STORE });
    const dynamic = result.dynamic.filter((d) => d.start === "BEGIN BATCH …");
    expect(dynamic.map((d) => [d.range.start.line, d.reason])).toEqual([[27, "the batch adds `statement`, which is not a statement of the code read"]]);
  });

  it("lists add_all as dynamic", async () => {
    const result = await extractFrom({
      "app/bulk.py": `from cassandra.query import BatchStatement

def load(session, statements, values):
    batch = BatchStatement()
    batch.add_all(statements, values)
    session.execute(batch)
`,
    });
    expect(result.dynamic.map((d) => d.reason)).toEqual(["batch.add_all(…) adds statements chosen at run time"]);
  });
});

describe("Go gocql batches filled at run time", () => {
  const QUERIES = `package store

const (
	insertEvent  = "INSERT INTO events_by_user (user_id, at, kind) VALUES (?, ?, ?)"
	insertLatest = "INSERT INTO latest_event (user_id, at, kind) VALUES (?, ?, ?)"
)
`;
  const STORE = `package store

import (
	"context"

	"github.com/gocql/gocql"
)

type Store struct{ session *gocql.Session }

func (s *Store) Record(ctx context.Context, user string, events []Event) error {
	b := s.session.NewBatch(gocql.LoggedBatch).WithContext(ctx)
	for _, e := range events {
		b.Query(insertEvent, user, e.At, e.Kind)
	}
	s.addLatest(b, user, events)
	return s.session.ExecuteBatch(b)
}

func (s *Store) addLatest(batch *gocql.Batch, user string, events []Event) {
	if len(events) > 0 {
		batch.Query(insertLatest, user, events[0].At, events[0].Kind)
	}
}

func (s *Store) Counts(ctx context.Context, user string) error {
	b := s.session.NewBatch(gocql.CounterBatch)
	b.Entries = append(b.Entries, gocql.BatchEntry{Stmt: "UPDATE event_counts SET n = n + 1 WHERE user_id = ?", Args: []interface{}{user}})
	return s.session.ExecuteBatch(b)
}

func (s *Store) Forward(ctx context.Context, user string, sink Sink) error {
	b := s.session.NewBatch(gocql.UnloggedBatch)
	b.Query(insertEvent, user, 0, "forward")
	sink.Fill(b)
	return s.session.ExecuteBatch(b)
}
`;

  it("writes one BATCH at NewBatch, following the batch into a function of the code read", async () => {
    const result = await extractFrom({ "store/queries.go": QUERIES, "store/store.go": STORE });
    const batches = result.statements.filter((s) => s.api === "Batch");
    expect(batches.map((b) => [b.range.start.line, flat(b.cql)])).toEqual([
      [
        12,
        "BEGIN BATCH INSERT INTO events_by_user (user_id, at, kind) VALUES (?, ?, ?); INSERT INTO latest_event (user_id, at, kind) VALUES (?, ?, ?); APPLY BATCH",
      ],
      [27, "BEGIN COUNTER BATCH UPDATE event_counts SET n = n + 1 WHERE user_id = ?; APPLY BATCH"],
    ]);
    // Each statement added stays an entry of its own too.
    expect(result.statements.filter((s) => s.api !== "Batch").map((s) => s.range.start.line)).toEqual(expect.arrayContaining([4, 5]));
  });

  it("marks a statement that only ever runs inside a batch read whole, and makes no write of it alone", async () => {
    const result = await extractFrom({ "store/queries.go": QUERIES, "store/store.go": STORE });
    const byLine = (line: number) => result.statements.find((s) => s.api !== "Batch" && s.range.start.line === line);
    // insertLatest is added only by addLatest, to the batch Record sends whole.
    expect(byLine(5)?.batchOnly).toBe(true);
    // insertEvent also goes into Forward's batch, which is handed to code not read: it may run there on its own terms.
    expect(byLine(4)?.batchOnly).toBeUndefined();
    const { manifest } = mergeCodeIntoManifest(result, undefined);
    const insideBatch = (cql: string) => manifest!.writes.find((w) => flat(w.statements[0]!.cql) === cql)?.insideBatch;
    expect(insideBatch("INSERT INTO latest_event (user_id, at, kind) VALUES (?, ?, ?)")).toBe(true);
    expect(insideBatch("INSERT INTO events_by_user (user_id, at, kind) VALUES (?, ?, ?)")).toBeUndefined();
  });

  it("does not call a conditional batch's own members plain writes of its table", async () => {
    const queries = `package store

const (
	claimName = "INSERT INTO names (name, owner) VALUES (?, ?) IF NOT EXISTS"
	saveOwner = "INSERT INTO names (name, owner) VALUES (?, ?)"
)
`;
    const store = `package store

import "github.com/gocql/gocql"

type Store struct{ session *gocql.Session }

func (s *Store) Claim(name, owner string, alias bool) error {
	b := s.session.NewBatch(gocql.LoggedBatch)
	b.Query(claimName, name, owner)
	if alias {
		b.Query(saveOwner, name+"-alias", owner)
	}
	_, _, err := s.session.MapExecuteBatchCAS(b, map[string]interface{}{})
	return err
}
`;
    const schema = "CREATE TABLE app.names (name text PRIMARY KEY, owner text);\n";
    const files = { "schema.cql": schema, "access-patterns.yaml": "version: 1\nkeyspace: app\n", "store/queries.go": queries, "store/store.go": store };
    const result = await reviewWithCode(files);
    expect(findingsAt(result, "write-mixed-lwt")).toEqual([]);
    // The same plain INSERT run on its own elsewhere is mixed with the conditional batch.
    const alone = `${store}
func (s *Store) Rename(name, owner string) error {
	return s.session.Query(saveOwner, name, owner).Exec()
}
`;
    expect(findingsAt(await reviewWithCode({ ...files, "store/store.go": alone }), "write-mixed-lwt")).not.toEqual([]);
  });

  it("lists a batch handed to code that is not read as dynamic", async () => {
    const result = await extractFrom({ "store/queries.go": QUERIES, "store/store.go": STORE });
    expect(result.dynamic.filter((d) => d.api === "Batch").map((d) => [d.range.start.line, d.reason])).toEqual([[33, "the batch is handed to Fill(…), which is not read"]]);
  });
});

describe("Node cassandra-driver batches", () => {
  const TAGS = `const cassandra = require("cassandra-driver");
const client = new cassandra.Client({ contactPoints: ["db"], localDataCenter: "dc1" });

async function tagVideo(video, tags, byUser) {
  const queries = [];
  tags.forEach((tag) => {
    queries.push({
      query: "INSERT INTO videos_by_tag (tag, videoid) VALUES (?, ?)",
      params: [tag, video],
    });
    queries.push({ query: "INSERT INTO tags_by_letter (first_letter, tag) VALUES (?, ?)", params: [tag[0], tag] });
  });
  const options = { prepare: true, logged: false };
  await client.batch(queries, options);
  const extra = [];
  for (const statement of byUser) extra.push(statement);
  return client.batch(extra, { prepare: true });
}
`;

  it("reads a list filled with push, and writes one BATCH at the call with the driver's batch kind", async () => {
    const result = await extractFrom({ "src/tags.js": TAGS });
    expect(result.statements.map((s) => [s.range.start.line, flat(s.cql)])).toEqual([
      [8, "INSERT INTO videos_by_tag (tag, videoid) VALUES (?, ?)"],
      [11, "INSERT INTO tags_by_letter (first_letter, tag) VALUES (?, ?)"],
      [14, "BEGIN UNLOGGED BATCH INSERT INTO videos_by_tag (tag, videoid) VALUES (?, ?); INSERT INTO tags_by_letter (first_letter, tag) VALUES (?, ?); APPLY BATCH"],
    ]);
    expect(result.dynamic.map((d) => [d.range.start.line, d.reason])).toEqual([[17, "the batch holds `statement`, which is not a statement of the code read"]]);
  });
});
