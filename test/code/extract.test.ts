// Statements read out of small applications, one per language and driver: constants from other
// classes and files, text blocks, multi-line concatenation, and what must not be reported.
import { describe, expect, it } from "vitest";
import { extractStatements } from "../../src/code/extract.js";
import { grammars } from "../../src/code/grammars.js";
import type { CodeFile } from "../../src/code/types.js";

const parserFor = (language: Parameters<typeof grammars.parser>[0]) => grammars.parser(language);

async function read(files: Record<string, string>) {
  const list: CodeFile[] = Object.entries(files).map(([path, content]) => ({ path, content }));
  const result = await extractStatements(list, parserFor);
  return {
    ...result,
    at: result.statements.map((s) => `${s.file}:${s.range.start.line} ${s.cql.replace(/\s+/g, " ")}`).sort(),
    dynamicAt: result.dynamic.map((d) => `${d.file}:${d.range.start.line} ${d.reason}`),
  };
}

describe("Java: DataStax driver 4 and 3", () => {
  const files = {
    "src/main/java/com/example/video/Cql.java": `package com.example.video;

public interface Cql {
    String VIDEOS = "videos_by_user";
    String SELECT_BY_USER = "SELECT video_id, title FROM " + VIDEOS
        + " WHERE user_id = ?";
}
`,
    "src/main/java/com/example/video/VideoDao.java": `package com.example.video;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import org.slf4j.Logger;

public class VideoDao implements Cql {
    private static final String INSERT = """
        INSERT INTO videos_by_user (user_id, video_id, title)
        VALUES (?, ?, ?)
        """;
    private final CqlSession session;
    private final Logger log;

    VideoDao(CqlSession session, Logger log) { this.session = session; this.log = log; }

    void findByUser(String user) {
        log.info("SELECT video_id FROM videos_by_user WHERE user_id = {}", user);
        session.execute(session.prepare(Cql.SELECT_BY_USER).bind(user));
    }

    void add(String user) {
        session.execute(SimpleStatement.newInstance(INSERT, user, "id", "title"));
    }

    void remove(String user) {
        session.execute(
            SimpleStatement.builder("DELETE FROM videos_by_user "
                    + "WHERE user_id = ?")
                .addPositionalValue(user)
                .build());
    }

    void byTitle(String title) {
        session.execute("SELECT * FROM videos_by_title WHERE title = '" + title + "'");
        session.execute(String.format("SELECT * FROM %s WHERE title = ?", VIDEOS), title);
    }
}
`,
  };

  it("finds constants of an interface, text blocks and concatenation across lines, at the line they are written", async () => {
    const result = await read(files);
    expect(result.at).toEqual([
      "src/main/java/com/example/video/Cql.java:5 SELECT video_id, title FROM videos_by_user WHERE user_id = ?",
      "src/main/java/com/example/video/VideoDao.java:28 DELETE FROM videos_by_user WHERE user_id = ?",
      "src/main/java/com/example/video/VideoDao.java:36 SELECT * FROM videos_by_user WHERE title = ?",
      "src/main/java/com/example/video/VideoDao.java:8 INSERT INTO videos_by_user (user_id, video_id, title) VALUES (?, ?, ?)",
    ]);
    expect(result.statements.map((s) => s.id)).toEqual([
      "src/main/java/com/example/video/VideoDao.java#VideoDao.findByUser",
      "src/main/java/com/example/video/VideoDao.java#VideoDao.add",
      "src/main/java/com/example/video/VideoDao.java#VideoDao.remove",
      "src/main/java/com/example/video/VideoDao.java#VideoDao.byTitle~2",
    ]);
    expect(result.statements[0]!.call).toEqual({ file: "src/main/java/com/example/video/VideoDao.java", line: 19 });
  });

  it("lists statements built at run time with the reason, and leaves log messages alone", async () => {
    const result = await read(files);
    expect(result.dynamicAt).toEqual([
      "src/main/java/com/example/video/VideoDao.java:35 title is not a constant of the code read",
    ]);
  });

  it("reads nothing from a file that does not import a Cassandra driver (JDBC SQL)", async () => {
    const result = await read({
      "src/main/java/Orders.java": `import java.sql.Connection;
class Orders {
    void load(Connection connection) throws Exception {
        connection.createStatement().execute("SELECT * FROM orders WHERE id = 1");
    }
}
`,
    });
    expect(result.statements).toEqual([]);
    expect(result.dynamic).toEqual([]);
  });
});

describe("Go: gocql", () => {
  it("lists a DSE Search query (WHERE solr_query = ?) as not analysed instead of planning a column that does not exist", async () => {
    const result = await read({
      "app/search.py": `from dse.cluster import Cluster

class Search:
    def __init__(self, session):
        self.by_text = session.prepare("SELECT videoid, name FROM videos WHERE solr_query = ?")
        self.by_id = session.prepare("SELECT name FROM videos WHERE videoid = ?")
`,
    });
    expect(result.at).toEqual(["app/search.py:6 SELECT name FROM videos WHERE videoid = ?"]);
    expect(result.dynamicAt).toEqual(["app/search.py:5 a DSE Search query on solr_query, answered by a search index that cql-review does not plan"]);
  });

  it("follows a Go struct field the package sets once to a constant, in a keyed literal or an assignment", async () => {
    const result = await read({
      "store/queries.go": `package store

const (
	insertUser = \`INSERT INTO users (id, name) VALUES (?, ?)\`
	selectUser = \`SELECT name FROM users WHERE id = ?\`
)
`,
      "store/store.go": `package store

import "github.com/gocql/gocql"

type Store struct {
	session    *gocql.Session
	InsertStmt string
	selectStmt string
	deleteStmt string
	listStmt   string
}

func New(s *gocql.Session, admin bool) *Store {
	st := &Store{session: s, InsertStmt: insertUser, selectStmt: selectUser}
	st.deleteStmt = "DELETE FROM users WHERE id = ?"
	if admin {
		st.listStmt = "SELECT * FROM users"
	} else {
		st.listStmt = "SELECT id FROM users LIMIT 10"
	}
	return st
}

func (s *Store) Add(id, name string) error { return s.session.Query(s.InsertStmt, id, name).Exec() }
func (s *Store) Get(id string) *gocql.Query   { return s.session.Query(s.selectStmt, id) }
func (s *Store) Remove(id string) error       { return s.session.Query(s.deleteStmt, id).Exec() }
func (s *Store) List() *gocql.Iter            { return s.session.Query(s.listStmt).Iter() }
`,
    });
    // A field set to different values in the package is not guessed at.
    expect(result.at).toEqual([
      "store/queries.go:4 INSERT INTO users (id, name) VALUES (?, ?)",
      "store/queries.go:5 SELECT name FROM users WHERE id = ?",
      "store/store.go:15 DELETE FROM users WHERE id = ?",
    ]);
  });

  it("follows constants of the package's other files, joined with + over several lines", async () => {
    const result = await read({
      "internal/store/queries.go": `package store

const (
	templateEventColumns = "user_id, at, payload"
	templateSelectEvents = "SELECT " + templateEventColumns + " FROM events " +
		"WHERE user_id = ? " +
		"LIMIT 100"
	templateInsertEvent = \`INSERT INTO events (user_id, at, payload)
VALUES (?, ?, ?)\`
	templateInsertEventIfNew = templateInsertEvent + " IF NOT EXISTS"
	templateCount = "SELECT count(*) FROM %v WHERE user_id = ?"
)
`,
      "internal/store/events.go": `package store

import (
	"fmt"

	"github.com/gocql/gocql"
)

type Store struct{ session *gocql.Session }

func (s *Store) Events(user string) *gocql.Iter {
	return s.session.Query(templateSelectEvents, user).Iter()
}

func (s *Store) Add(user string, fresh bool) error {
	if fresh {
		return s.session.Query(templateInsertEventIfNew, user).Exec()
	}
	return s.session.Query(templateInsertEvent, user).Exec()
}

func (s *Store) Count(table, user string) error {
	return s.session.Query(fmt.Sprintf(templateCount, table), user).Exec()
}
`,
    });
    expect(result.at).toEqual([
      "internal/store/queries.go:10 INSERT INTO events (user_id, at, payload) VALUES (?, ?, ?) IF NOT EXISTS",
      "internal/store/queries.go:5 SELECT user_id, at, payload FROM events WHERE user_id = ? LIMIT 100",
      "internal/store/queries.go:8 INSERT INTO events (user_id, at, payload) VALUES (?, ?, ?)",
    ]);
    expect(result.statements.map((s) => s.id)).toEqual(["internal/store/events.go#Store.Events", "internal/store/events.go#Store.Add", "internal/store/events.go#Store.Add~2"]);
    expect(result.dynamicAt).toEqual(["internal/store/queries.go:11 built with fmt.Sprintf"]);
  });
});

describe("Python: cassandra-driver", () => {
  it("reads class constants, implicit concatenation and keyword arguments; f-strings are dynamic", async () => {
    const result = await read({
      "app/repository.py": `from cassandra.cluster import Cluster
from cassandra.query import SimpleStatement
import sqlite3


class Repository:
    TABLE = "readings"
    LATEST = ("SELECT value FROM readings "
              "WHERE sensor_id = %s LIMIT 1")

    def __init__(self, session):
        self.session = session
        self.insert = session.prepare("INSERT INTO readings (sensor_id, at, value) VALUES (?, ?, ?)")
        self.cache = sqlite3.connect(":memory:")
        self.cache.execute("SELECT value FROM cache WHERE id = 1")

    def latest(self, sensor):
        return self.session.execute(SimpleStatement(query_string=Repository.LATEST), (sensor,))

    def drop(self, sensor):
        self.session.execute(f"DELETE FROM readings WHERE sensor_id = '{sensor}'")
`,
    });
    expect(result.at).toEqual([
      "app/repository.py:13 INSERT INTO readings (sensor_id, at, value) VALUES (?, ?, ?)",
      "app/repository.py:8 SELECT value FROM readings WHERE sensor_id = ? LIMIT 1",
    ]);
    expect(result.dynamicAt).toEqual(["app/repository.py:21 an f-string fills values in at run time"]);
  });
});

describe("Node: cassandra-driver", () => {
  it("reads JavaScript and TypeScript, template literals without substitutions, and non-ASCII text before", async () => {
    const result = await read({
      "src/users.js": `// Utilisateurs — « café »
const cassandra = require('cassandra-driver');
const client = new cassandra.Client({ contactPoints: ['h1'] });
const BY_EMAIL = \`SELECT user_id FROM users_by_email
  WHERE email = ?\`;

async function byEmail(email) {
  return client.execute(BY_EMAIL, [email], { prepare: true });
}

async function rename(id, name) {
  return client.execute(\`UPDATE users SET name = '\${name}' WHERE user_id = ?\`, [id]);
}
module.exports = { byEmail, rename };
`,
      "src/orders.ts": `import { Client } from "cassandra-driver";

export class Orders {
  static readonly TABLE = "orders";
  constructor(private readonly client: Client) {}

  async forUser(user: string) {
    return this.client.execute("SELECT * FROM orders WHERE user_id = ?" as string, [user], { prepare: true });
  }
}
`,
    });
    expect(result.at).toEqual([
      "src/orders.ts:8 SELECT * FROM orders WHERE user_id = ?",
      "src/users.js:4 SELECT user_id FROM users_by_email WHERE email = ?",
    ]);
    // Columns count UTF-16 code units, as the CQL parser's do, also after non-ASCII text.
    const columnIn = (file: string) => result.statements.find((s) => s.file === file)!.range.start.column;
    expect(columnIn("src/orders.ts")).toBe(32);
    expect(columnIn("src/users.js")).toBe(18);
    expect(result.dynamicAt).toEqual(["src/users.js:12 a template literal fills values in at run time"]);
  });
});

describe("a file handed its session by another module", () => {
  it("reads calls on a session-like receiver when another file of the language imports the driver", async () => {
    const result = await read({
      "src/db.js": `const cassandra = require("cassandra-driver");\nmodule.exports.session = new cassandra.Client({ contactPoints: ["db"] });\n`,
      "src/videos.js": `const { session } = require("./db");
const http = require("./http");

async function latest(user) {
  await http.execute("SELECT id FROM audit WHERE day = ?");
  return session.execute("SELECT video_id FROM videos_by_user WHERE user_id = ?", [user]);
}
`,
    });
    expect(result.at).toEqual(["src/videos.js:6 SELECT video_id FROM videos_by_user WHERE user_id = ?"]);
  });
});

describe("Java annotations", () => {
  it("reads Spring Data Cassandra's and the DataStax mapper's @Query, with named arguments and constants", async () => {
    const result = await read({
      "src/main/java/com/example/VideoRepository.java": `package com.example;

import org.springframework.data.cassandra.repository.CassandraRepository;
import org.springframework.data.cassandra.repository.Query;

public interface VideoRepository extends CassandraRepository<Video, VideoKey> {
    String BY_USER = "SELECT * FROM videos_by_user WHERE user_id = ?0";

    @Query(BY_USER)
    List<Video> findByUser(UUID user);

    @Query(value = "SELECT * FROM videos_by_user "
        + "WHERE user_id = ? AND added_date > ?", allowFiltering = false)
    List<Video> findRecent(UUID user, Instant since);

    @Query("SELECT * FROM videos_by_user WHERE tenant = :#{tenant()} AND user_id = ?0")
    List<Video> findOfTenant(UUID user);
}
`,
      "src/main/java/com/example/VideoDao.java": `package com.example;

import com.datastax.oss.driver.api.mapper.annotations.Dao;
import com.datastax.oss.driver.api.mapper.annotations.Query;

@Dao
public interface VideoDao {
    @Query("SELECT * FROM \${qualifiedTableId} WHERE user_id = :user")
    PagingIterable<Video> byUser(UUID user);

    @Query("DELETE FROM videos WHERE video_id = :id")
    void delete(UUID id);
}
`,
    });
    expect(result.at).toEqual([
      "src/main/java/com/example/VideoDao.java:11 DELETE FROM videos WHERE video_id = :id",
      "src/main/java/com/example/VideoRepository.java:12 SELECT * FROM videos_by_user WHERE user_id = ? AND added_date > ?",
      "src/main/java/com/example/VideoRepository.java:7 SELECT * FROM videos_by_user WHERE user_id = ?",
    ]);
    expect(result.statements.map((s) => `${s.api} ${s.id}`)).toContain("@Query src/main/java/com/example/VideoRepository.java#VideoRepository.findRecent");
    expect(result.dynamicAt).toEqual([
      "src/main/java/com/example/VideoRepository.java:16 a SpEL expression #{…} is filled in at run time",
      "src/main/java/com/example/VideoDao.java:8 the mapper fills ${…} in from the entity, and the method returns no entity of the code read",
    ]);
  });
});

describe("a statement chosen among constants", () => {
  it("reports each constant a variable may hold, and a variable that is also computed as dynamic", async () => {
    const result = await read({
      "store/requests.go": `package store

import "github.com/gocql/gocql"

const (
	templateInsertRequest = "INSERT INTO requests (id, body) VALUES (?, ?) IF NOT EXISTS"
	templateUpsertRequest = "INSERT INTO requests (id, body) VALUES (?, ?)"
)

func write(batch *gocql.Batch, upsert bool, id, body string) {
	var query string
	switch {
	case upsert:
		query = templateUpsertRequest
	default:
		query = templateInsertRequest
	}
	batch.Query(query, id, body)
}

func audit(batch *gocql.Batch, table, id string) {
	query := "INSERT INTO audit (id) VALUES (?)"
	if table != "" {
		query = "INSERT INTO " + table + " (id) VALUES (?)"
	}
	batch.Query(query, id)
}
`,
    });
    expect(result.at).toEqual([
      "store/requests.go:22 INSERT INTO audit (id) VALUES (?)",
      "store/requests.go:6 INSERT INTO requests (id, body) VALUES (?, ?) IF NOT EXISTS",
      "store/requests.go:7 INSERT INTO requests (id, body) VALUES (?, ?)",
    ]);
    expect(result.statements.map((s) => s.id)).toEqual(["store/requests.go#write", "store/requests.go#write~2", "store/requests.go#audit"]);
    expect(result.dynamicAt).toEqual(["store/requests.go:24 table is not a constant of the code read"]);
  });
});

describe("Go: gocqlx table models and qb chains", () => {
  it("writes out the statements of a table model's methods and of a fixed qb chain, at the call", async () => {
    const result = await read({
      "internal/videos/store.go": `package videos

import (
	"github.com/scylladb/gocqlx/v2"
	"github.com/scylladb/gocqlx/v2/qb"
	"github.com/scylladb/gocqlx/v2/table"
)

const videosTable = "videos_by_user"

var videoMetadata = table.Metadata{
	Name:    videosTable,
	Columns: []string{"user_id", "added_date", "video_id", "title"},
	PartKey: []string{"user_id"},
	SortKey: []string{"added_date", "video_id"},
}

func statements(title string) {
	videos := table.New(videoMetadata)
	insert, _ := videos.Insert()
	latest, _ := videos.Select("video_id", "title")
	recent, _ := qb.Select(videoMetadata.Name).
		Columns("video_id").
		Where(qb.Eq("user_id"), qb.Gt("added_date")).
		Limit(10).
		ToCql()
	custom, _ := qb.Select(videosTable).Where(qb.Eq(title)).ToCql()
	_, _, _, _ = insert, latest, recent, custom
}
`,
    });
    expect(result.at).toEqual([
      "internal/videos/store.go:20 INSERT INTO videos_by_user (user_id,added_date,video_id,title) VALUES (?,?,?,?)",
      "internal/videos/store.go:21 SELECT video_id,title FROM videos_by_user WHERE user_id=?",
      "internal/videos/store.go:22 SELECT video_id FROM videos_by_user WHERE user_id=? AND added_date>? LIMIT 10",
    ]);
    expect(result.statements.map((s) => s.api)).toEqual(["gocqlx table.Insert", "gocqlx table.Select", "gocqlx qb"]);
    expect(result.dynamicAt).toEqual(["internal/videos/store.go:27 title is not a constant of the code read"]);
  });
});

describe("DataStax Enterprise drivers", () => {
  it("reads the dse Python package and a promisified Node client handed over by another module", async () => {
    const result = await read({
      "killr/comments.py": `from dse.cqlengine.models import Model


class CommentsService:
    def __init__(self, session):
        self.latest = session.prepare('SELECT * FROM comments_by_video WHERE videoid = ?')
`,
      "src/common/cassandra.js": `const dse = require("dse-driver");\nmodule.exports.getClient = () => new dse.Client({});\n`,
      "src/videos/get-video.js": `import { getClient } from "../common/cassandra";

export function getVideo(id) {
  const client = getClient();
  return client.executeAsync("SELECT * FROM videos WHERE videoid = ?", [id]);
}
`,
    });
    expect(result.at).toEqual([
      "killr/comments.py:6 SELECT * FROM comments_by_video WHERE videoid = ?",
      "src/videos/get-video.js:5 SELECT * FROM videos WHERE videoid = ?",
    ]);
  });
});

describe("statements chosen by a condition or listed for a batch", () => {
  it("reads both sides of a conditional and each query of a Node batch", async () => {
    const result = await read({
      "src/comments.js": `const cassandra = require("cassandra-driver");
const client = new cassandra.Client({ contactPoints: ["db"] });

async function comment(video, user, text, from) {
  const queries = [
    { query: "INSERT INTO comments_by_video (videoid, userid, comment) VALUES (?, ?, ?)", params: [video, user, text] },
    { query: "INSERT INTO comments_by_user (userid, videoid, comment) VALUES (?, ?, ?)", params: [user, video, text] },
  ];
  await client.batch(queries, { prepare: true });
  const cql = from
    ? "SELECT * FROM comments_by_video WHERE videoid = ? AND commentid <= ?"
    : "SELECT * FROM comments_by_video WHERE videoid = ?";
  return client.execute(cql, from ? [video, from] : [video]);
}
`,
      "app/latest.py": `from cassandra.cluster import Cluster
session = Cluster().connect()

def latest(day, start=None):
    return session.execute("SELECT * FROM latest WHERE day = %s AND added < %s" if start else "SELECT * FROM latest WHERE day = %s", (day, start))
`,
    });
    expect(result.at).toEqual([
      "app/latest.py:5 SELECT * FROM latest WHERE day = ?",
      "app/latest.py:5 SELECT * FROM latest WHERE day = ? AND added < ?",
      "src/comments.js:11 SELECT * FROM comments_by_video WHERE videoid = ? AND commentid <= ?",
      "src/comments.js:12 SELECT * FROM comments_by_video WHERE videoid = ?",
      "src/comments.js:6 INSERT INTO comments_by_video (videoid, userid, comment) VALUES (?, ?, ?)",
      "src/comments.js:7 INSERT INTO comments_by_user (userid, videoid, comment) VALUES (?, ?, ?)",
      // the batch as a whole, at its call
      "src/comments.js:9 BEGIN BATCH INSERT INTO comments_by_video (videoid, userid, comment) VALUES (?, ?, ?); INSERT INTO comments_by_user (userid, videoid, comment) VALUES (?, ?, ?); APPLY BATCH",
    ]);
  });
});
