// Batches filled with prepared statements kept in fields, through the wrappers DAOs put around
// them: options on the prepared or simple statement, a method that returns a built statement, and
// a field of another class.
import { describe, expect, it } from "vitest";
import { extractFrom } from "./review-with-code.js";

const flat = (cql: string | undefined) => cql?.replace(/\s+/g, " ");

describe("batches of prepared-statement fields", () => {
  it("peels prepare(SimpleStatement.builder(…).set…().build()) and options set on the prepared statement", async () => {
    const result = await extractFrom({
      "src/main/java/locks/LockStore.java": `package locks;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.*;
import java.util.Set;
import java.util.UUID;

public class LockStore {
    private final CqlSession session;
    private PreparedStatement takeLockStmt;
    private PreparedStatement auditStmt;

    LockStore(CqlSession session) {
        this.session = session;
        prepareStatements();
    }

    private void prepareStatements() {
        takeLockStmt =
            session.prepare(
                SimpleStatement.builder("UPDATE node_locks USING TTL ? SET owner = ? WHERE job = ? AND node = ? IF owner = ?")
                    .setConsistencyLevel(ConsistencyLevel.QUORUM)
                    .setIdempotence(false)
                    .build());
        auditStmt = session.prepare("INSERT INTO lock_audit (job, at, node) VALUES (?, ?, ?)")
            .setConsistencyLevel(ConsistencyLevel.ONE);
    }

    boolean lockAll(UUID job, Set<String> nodes) {
        BatchStatementBuilder batch = BatchStatement.builder(BatchType.LOGGED);
        for (String node : nodes) {
            batch.addStatement(takeLockStmt.bind(60, "me", job, node, null));
        }
        return session.execute(batch.build()).wasApplied();
    }

    void audit(UUID job, Set<String> nodes) {
        BatchStatement batch = BatchStatement.newInstance(BatchType.UNLOGGED);
        for (String node : nodes) batch = batch.add(auditStmt.bind(job, null, node));
        session.execute(batch);
    }
}
`,
    });
    const batches = result.statements.filter((s) => s.api === "BatchStatement");
    expect(batches.map((s) => [s.range.start.line, flat(s.cql)])).toEqual([
      [31, "BEGIN BATCH UPDATE node_locks USING TTL ? SET owner = ? WHERE job = ? AND node = ? IF owner = ?; APPLY BATCH"],
      [39, "BEGIN UNLOGGED BATCH INSERT INTO lock_audit (job, at, node) VALUES (?, ?, ?); APPLY BATCH"],
    ]);
    expect(result.dynamic.filter((d) => d.api === "BatchStatement")).toEqual([]);
  });

  it("follows prepare(statements.getX()) to the query builder chain that method returns", async () => {
    const result = await extractFrom({
      "src/main/java/flows/Statements.java": `package flows;

import com.datastax.driver.core.querybuilder.QueryBuilder;
import static com.datastax.driver.core.querybuilder.QueryBuilder.bindMarker;
import static com.datastax.driver.core.querybuilder.QueryBuilder.eq;
import static com.datastax.driver.core.querybuilder.QueryBuilder.set;

public class Statements {
    public String getInsertStepStatement() {
        return QueryBuilder.insertInto("flow_steps")
                .value("flow_id", bindMarker())
                .value("step_id", bindMarker())
                .value("payload", bindMarker())
                .getQueryString();
    }

    public String getUpdateStepCountStatement() {
        return QueryBuilder.update("flow_steps")
                .with(set("step_count", bindMarker()))
                .where(eq("flow_id", bindMarker()))
                .getQueryString();
    }
}
`,
      "src/main/java/flows/FlowDao.java": `package flows;

import com.datastax.driver.core.*;
import java.util.List;
import java.util.UUID;

public class FlowDao {
    private final Session session;
    private final PreparedStatement insertStep;
    private final PreparedStatement updateStepCount;

    FlowDao(Session session, Statements statements) {
        this.session = session;
        this.insertStep = session.prepare(statements.getInsertStepStatement()).setConsistencyLevel(ConsistencyLevel.QUORUM);
        this.updateStepCount = session.prepare(statements.getUpdateStepCountStatement());
    }

    void addSteps(UUID flow, List<String> payloads) {
        BatchStatement batch = new BatchStatement();
        int i = 0;
        for (String payload : payloads) batch.add(insertStep.bind(flow, String.valueOf(i++), payload));
        batch.add(updateStepCount.bind(payloads.size(), flow));
        session.execute(batch);
    }
}
`,
    });
    const batch = result.statements.find((s) => s.api === "BatchStatement");
    expect(batch?.file).toBe("src/main/java/flows/FlowDao.java");
    expect(batch?.range.start.line).toBe(19);
    expect(flat(batch?.cql)).toBe(
      "BEGIN BATCH INSERT INTO flow_steps (flow_id, step_id, payload) VALUES (?, ?, ?); UPDATE flow_steps SET step_count = ? WHERE flow_id = ?; APPLY BATCH",
    );
  });

  it("finds a field of another class read, and stays dynamic when that name holds two statements", async () => {
    const segmentDao = (insert: string) => `package runs;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.*;

public class SegmentDao {
    final PreparedStatement insertSegmentStmt;

    SegmentDao(CqlSession session) {
        insertSegmentStmt = session.prepare("${insert}");
    }
}
`;
    const runDao = `package runs;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.*;
import java.util.List;
import java.util.UUID;

public class RunDao {
    private final CqlSession session;
    private final SegmentDao segmentDao;
    private final PreparedStatement insertRunStmt;

    RunDao(CqlSession session, SegmentDao segmentDao) {
        this.session = session;
        this.segmentDao = segmentDao;
        insertRunStmt = session.prepare("INSERT INTO runs (id, segment_id, owner) VALUES (?, ?, ?)");
    }

    void addRun(UUID id, List<Integer> segments) {
        BatchStatementBuilder batch = BatchStatement.builder(BatchType.UNLOGGED);
        batch.addStatement(insertRunStmt.bind(id, 0, "me"));
        for (Integer segment : segments) batch.addStatement(segmentDao.insertSegmentStmt.bind(id, segment));
        session.execute(batch.build());
    }
}
`;
    const one = await extractFrom({
      "src/main/java/runs/SegmentDao.java": segmentDao("INSERT INTO runs (id, segment_id) VALUES (?, ?)"),
      "src/main/java/runs/RunDao.java": runDao,
    });
    expect(flat(one.statements.find((s) => s.api === "BatchStatement")?.cql)).toBe(
      "BEGIN UNLOGGED BATCH INSERT INTO runs (id, segment_id, owner) VALUES (?, ?, ?); INSERT INTO runs (id, segment_id) VALUES (?, ?); APPLY BATCH",
    );

    // Another class keeps a different statement in a field of the same name: which one runs is not known.
    const two = await extractFrom({
      "src/main/java/runs/SegmentDao.java": segmentDao("INSERT INTO runs (id, segment_id) VALUES (?, ?)"),
      "src/main/java/runs/ArchiveDao.java": segmentDao("INSERT INTO archived_runs (id, segment_id) VALUES (?, ?)").replace(/SegmentDao/g, "ArchiveDao"),
      "src/main/java/runs/RunDao.java": runDao,
    });
    expect(two.statements.filter((s) => s.api === "BatchStatement")).toEqual([]);
    expect(two.dynamic.find((d) => d.api === "BatchStatement")?.reason).toMatch(/segmentDao\.insertSegmentStmt/);
  });
});
