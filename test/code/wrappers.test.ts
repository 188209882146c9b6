// Helpers that run the statement they are given: the statements are the constants their callers
// pass, written where the constant is and named after the caller.
import { describe, expect, it } from "vitest";
import { extractFrom } from "./review-with-code.js";

describe("helpers that run the statement they are given", () => {
  it("Go: reads each constant passed to a helper around session.Query, and leaves computed ones dynamic", async () => {
    const result = await extractFrom({
      "store/versions.go": `package store

import (
	"fmt"

	"github.com/gocql/gocql"
)

const (
	createVersionTable = \`CREATE TABLE IF NOT EXISTS schema_version (keyspace_name text PRIMARY KEY, version text)\`
	writeVersion       = \`INSERT INTO schema_version (keyspace_name, version) VALUES (?, ?)\`
)

type Versions struct {
	session  *gocql.Session
	keyspace string
}

func (v *Versions) setUp() {
	v.runStatement(createVersionTable)
}

func (v *Versions) record(version string) {
	v.runStatement(writeVersion, v.keyspace, version)
	v.runStatement(fmt.Sprintf("DELETE FROM %s WHERE keyspace_name = ?", v.keyspace), v.keyspace)
}

func (v *Versions) runStatement(stmt string, args ...any) {
	if err := v.session.Query(stmt, args...).Exec(); err != nil {
		panic(err)
	}
}
`,
    });
    expect(result.statements.map((s) => [s.id, s.range.start.line, s.call?.line])).toEqual([
      ["store/versions.go#Versions.setUp", 10, 20],
      ["store/versions.go#Versions.record", 11, 24],
    ]);
    expect(result.dynamic.map((d) => [d.range.start.line, d.reason])).toEqual([[25, "built with fmt.Sprintf"]]);
  });

  it("Go: a package function helper is not reached through another package's function of the same name", async () => {
    const result = await extractFrom({
      "store/run.go": `package store

import "github.com/gocql/gocql"

var session *gocql.Session

const purge = \`DELETE FROM sessions WHERE user_id = ?\`

func runStatement(stmt string, args ...any) error {
	return session.Query(stmt, args...).Exec()
}

func Purge(user string) error { return runStatement(purge, user) }
`,
      "audit/log.go": `package audit

import "example.com/sqlstore"

const insertAudit = \`INSERT INTO audit (id, what) VALUES (?, ?)\`

func Record(id, what string) error { return sqlstore.runStatement(insertAudit, id, what) }
`,
    });
    expect(result.statements.map((s) => [s.file, s.range.start.line, s.cql])).toEqual([["store/run.go", 7, "DELETE FROM sessions WHERE user_id = ?"]]);
  });

  it("Java: follows a private helper around session.execute, not a helper reassigning its parameter or named like the driver", async () => {
    const result = await extractFrom({
      "src/main/java/jobs/JobStore.java": `package jobs;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.ResultSet;

public class JobStore {
    private static final String SELECT_JOBS = "SELECT id, state FROM jobs WHERE shard = ?";
    private final CqlSession session;

    JobStore(CqlSession session) { this.session = session; }

    ResultSet jobs(int shard) { return run(SELECT_JOBS, shard); }

    void clear(int shard) { run("DELETE FROM jobs WHERE shard = ?", shard); }

    void audit(String table) { runTrimmed("SELECT * FROM job_audit", table); }

    private ResultSet run(String cql, Object... values) {
        return session.execute(session.prepare(cql).bind(values));
    }

    private ResultSet runTrimmed(String cql, String table) {
        cql = cql + " WHERE name = '" + table + "'";
        return session.execute(cql);
    }
}
`,
    });
    expect(result.statements.map((s) => [s.id, s.range.start.line, s.cql])).toEqual([
      ["src/main/java/jobs/JobStore.java#JobStore.jobs", 7, "SELECT id, state FROM jobs WHERE shard = ?"],
      ["src/main/java/jobs/JobStore.java#JobStore.clear", 14, "DELETE FROM jobs WHERE shard = ?"],
    ]);
  });
});
