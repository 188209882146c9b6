// `--stats FILE` for check and init: saved nodetool output read beside the schema and manifest.
import * as nodeFs from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { parse as parseYaml } from "yaml";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tablestatsText } from "../helpers/stats-text.js";
import { runCli } from "./run-cli.js";

const SCHEMA = `CREATE KEYSPACE chat WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3};
CREATE TABLE chat.messages_by_room (
  room_id uuid, day date, sent_at timeuuid, author text, body text,
  PRIMARY KEY ((room_id, day), sent_at)
) WITH CLUSTERING ORDER BY (sent_at DESC);
`;
const MANIFEST = `version: 1
keyspace: chat
tables:
  messages_by_room:
    rows_per_partition: { avg: 200, max: 2_000 }
    columns: { author: 20, body: 900 }
queries:
  - id: Q1
    description: The latest messages of a room today
    cql: SELECT sent_at, author, body FROM messages_by_room WHERE room_id = ? AND day = ? LIMIT 50
`;
const HISTOGRAMS = `chat/messages_by_room histograms
Percentile      Read Latency     Write Latency          SSTables    Partition Size        Cell Count
                    (micros)          (micros)                             (bytes)
50%                   105.78             20.50              1.00            182785               372
75%                   152.32             29.52              1.00            263210               535
95%                   315.85             51.01              2.00            654949              1331
98%                   379.02             61.21              2.00            943127              1916
99%                   454.83             73.46              3.00           1131752              2299
Min                    20.50              4.77              0.00               180                 3
Max                  1358.10            943.13              4.00           2346799              4768

`;

let project: string;
beforeEach(async () => {
  project = await nodeFs.mkdtemp(path.join(tmpdir(), "cql-review-stats-"));
  await nodeFs.mkdir(path.join(project, "db"));
  await nodeFs.mkdir(path.join(project, "ops"));
  await nodeFs.writeFile(path.join(project, "db/schema.cql"), SCHEMA);
});
afterEach(async () => {
  await nodeFs.rm(project, { recursive: true, force: true });
});

const stats = (maxBytes: number, meanBytes = 190_000) => tablestatsText({ keyspace: "chat", table: "messages_by_room", partitions: 81_000, maxBytes, meanBytes });

describe("cql-review check --stats", () => {
  it("reads each named file as one node's output and reports a partition far past the manifest's", async () => {
    await nodeFs.writeFile(path.join(project, "db/access-patterns.yaml"), MANIFEST);
    await nodeFs.writeFile(path.join(project, "ops/node1.txt"), stats(2_100_000));
    await nodeFs.writeFile(path.join(project, "ops/node2.txt"), stats(140_000_000));
    const result = await runCli(["check", "db", "--stats", "ops/node1.txt", "--stats", "ops/node2.txt", "--format", "json"], { cwd: project });
    expect(result.stderr).toBe("");
    const report = JSON.parse(result.stdout);
    const measured = report.findings.filter((finding: { rule: string }) => finding.rule === "table-measured-size");
    expect(measured.map((finding: { file: string; line: number; message: string }) => [finding.file, finding.line, finding.message.split(";")[0]])).toEqual([
      ["db/schema.cql", 2, "The manifest gives 1.9 MB per partition of messages_by_room, under the 100 MB limit"],
    ]);
    expect(measured[0].message).toContain("production's largest is 140 MB (ops/node2.txt, the worst of 2 nodes), past it");
    expect(report.tables[0].measured.files).toEqual(["ops/node1.txt", "ops/node2.txt"]);
  });

  it("a file that is not there is a usage error", async () => {
    const result = await runCli(["check", "db", "--stats", "ops/missing.txt"], { cwd: project });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--stats ops/missing.txt: no such file");
  });

  it("files under cassandra-stats/ are read without the flag; a garbled one is a finding, and the review goes on", async () => {
    await nodeFs.writeFile(path.join(project, "db/access-patterns.yaml"), MANIFEST);
    await nodeFs.mkdir(path.join(project, "cassandra-stats"));
    await nodeFs.writeFile(path.join(project, "cassandra-stats/node1.txt"), stats(2_100_000));
    await nodeFs.writeFile(path.join(project, "cassandra-stats/node2.txt"), "nodetool: Failed to connect to '127.0.0.1:7199'\n");
    const result = await runCli(["check", ".", "--format", "json"], { cwd: project });
    const report = JSON.parse(result.stdout);
    expect(report.findings.map((finding: { rule: string; file: string; line: number }) => `${finding.rule} ${finding.file}:${finding.line}`)).toEqual([
      "stats-invalid cassandra-stats/node2.txt:1",
    ]);
    expect(report.queries[0].verdict).toBe("single-partition");
    expect(result.code).toBe(0);
  });
});

describe("cql-review init --stats", () => {
  it("drafts volume figures from the measurements, marked measured, and the draft agrees with them", async () => {
    await nodeFs.writeFile(path.join(project, "ops/node1.txt"), stats(2_346_799, 190_000));
    await nodeFs.writeFile(path.join(project, "ops/histograms-node1.txt"), HISTOGRAMS);
    const result = await runCli(["init", "db", "--stats", "ops/node1.txt", "--stats", "ops/histograms-node1.txt"], { cwd: project });
    expect(result.stderr).toBe("");
    expect(result.stdout).toContain("The volume figures of 1 table come from production's measurements (marked measured).");
    const text = await nodeFs.readFile(path.join(project, "db/access-patterns.yaml"), "utf8");
    const lines = text.split("\n");
    expect(lines).toContain("    partitions: 81000   # measured: nodetool's estimate on one node (ops/node1.txt:17); the cluster holds at least as many");
    // 372 and 4,768 cells per partition over the 2 cells of a row (author, body).
    expect(lines.find((line) => line.startsWith("    rows_per_partition:"))).toBe(
      "    rows_per_partition: { avg: 186, max: 2384 }   # measured: median 372 cells (ops/histograms-node1.txt:4), most 4,768 cells (ops/histograms-node1.txt:10) per partition, ÷ 2 cells a row",
    );
    expect(lines.find((line) => line.startsWith("    columns:"))).toMatch(/^ {4}columns: \{ author: \d+, body: \d+ \} {3}# measured: mean partition 190 kB \(ops\/node1\.txt:37\) over 186 rows/);
    expect(parseYaml(text).tables.messages_by_room.partitions).toBe(81_000);

    const check = await runCli(["check", "db", "--stats", "ops/node1.txt", "--stats", "ops/histograms-node1.txt", "--format", "json"], { cwd: project });
    const report = JSON.parse(check.stdout);
    expect(report.findings.filter((finding: { rule: string }) => finding.rule === "table-measured-size")).toEqual([]);
    expect(report.findings.filter((finding: { severity: string }) => finding.severity === "error")).toEqual([]);
  });
});
