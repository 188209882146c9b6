// The test repository's files (test/fixtures/github) and a stand-in rule over them: a time-series
// table whose partition key is a bare id grows without bound; the fix adds a day bucket.
import { readFileSync } from "node:fs";
import type { Finding } from "../../../src/findings.js";
import type { SourceFile } from "../../../src/review.js";

export function fixture(name: string): string {
  return readFileSync(new URL(`../../fixtures/github/${name}`, import.meta.url), "utf8");
}

/** The test repository at the base commit: keyspace, devices table and the access-patterns manifest. */
export const baseRepository: Readonly<Record<string, string>> = {
  "schema/000_keyspace.cql": fixture("keyspace.cql"),
  "schema/010_devices.cql": fixture("devices.cql"),
  "access-patterns.yaml": fixture("access-patterns.yaml"),
};

/** A pull request that adds an unbucketed readings table beside the keyspace: the server tests' review. */
const keyspaceOnly = { "schema/000_keyspace.cql": fixture("keyspace.cql") };
export const addsUnbucketedReadings = { base: keyspaceOnly, head: { ...keyspaceOnly, "schema/020_readings.cql": fixture("readings-unbucketed.cql") } };

const UNBUCKETED_KEY = /PRIMARY KEY \(\((\w+)\), (\w+)\)/;

export function unbucketedTimeSeries(files: SourceFile[]): Finding[] {
  const findings: Finding[] = [];
  for (const file of files) {
    if (!file.path.endsWith(".cql")) continue;
    let offset = 0;
    let table = "?";
    for (const [index, line] of file.content.split("\n").entries()) {
      table = /CREATE TABLE (?:IF NOT EXISTS )?(\w+)/.exec(line)?.[1] ?? table;
      const match = UNBUCKETED_KEY.exec(line);
      if (match && match[2] !== undefined && /time|date/.test(match[2])) {
        const start = { line: index + 1, column: match.index + 1, offset: offset + match.index };
        const end = { line: index + 1, column: match.index + 1 + match[0].length, offset: offset + match.index + match[0].length };
        findings.push({
          rule: "partition-unbounded-growth",
          severity: "error",
          location: { file: file.path, range: { start, end } },
          message: `Partitions of ${table} grow without bound: ${match[1]} alone never closes a partition.`,
          data: { rowsPerPartitionAfterOneYear: 3_153_600, suggestedBucket: "1 day" },
          fix: {
            description: "Add a day bucket to the partition key",
            file: file.path,
            range: { start, end },
            replacement: `PRIMARY KEY ((${match[1]}, day), ${match[2]})`,
          },
          fingerprint: `partition-unbounded-growth:table:telemetry.${table}`,
        });
      }
      offset += line.length + 1;
    }
  }
  return findings;
}
