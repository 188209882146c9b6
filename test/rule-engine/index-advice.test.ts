// The advice every index rule gives for what should serve an index's lookups instead.
import { describe, expect, it } from "vitest";
import type { QueryAnalysis } from "../../src/analysis/types.js";
import { parseCql } from "../../src/cql/index.js";
import type { SelectStatement } from "../../src/cql/ast.js";
import { indexLookupAdvice, searchesText } from "../../src/rule-engine/index-advice.js";
import { build, table } from "../schema/helpers.js";

const spans = table(
  build(
    `CREATE TABLE spans (
  trace_id uuid, ts timestamp, service text, annotations text, duration bigint, embedding vector<float, 3>,
  PRIMARY KEY ((trace_id), ts)
);`,
    { defaultKeyspace: "tracing" },
  ).schema,
  "tracing.spans",
);

function query(cql: string): QueryAnalysis {
  const select = parseCql(cql).statements[0] as SelectStatement;
  return { select } as QueryAnalysis;
}

describe("indexLookupAdvice", () => {
  it("never keys a table by a column searched with LIKE", () => {
    const lookups = [query("SELECT trace_id FROM spans WHERE annotations LIKE ? ALLOW FILTERING")];
    expect(searchesText("annotations", lookups)).toBe(true);
    const advice = indexLookupAdvice(spans, "annotations", lookups);
    expect(advice).toMatch(/^A text search \(`LIKE`\) is served by no partition key/);
    expect(advice).not.toMatch(/partitioned by `annotations`/);
  });

  it("makes a ranged column a clustering column, not a partition key", () => {
    const advice = indexLookupAdvice(spans, "duration", [query("SELECT trace_id FROM spans WHERE duration > ? ALLOW FILTERING")]);
    expect(advice).toBe(
      "A range on `duration` makes it a clustering column, not a partition key: serve the lookup from a table partitioned by what the query binds with `=` and clustered by `duration`.",
    );
  });

  it("puts a time bucket beside a looked-up column when the lookup also reads a time range", () => {
    const lookups = [query("SELECT trace_id FROM spans WHERE service = ? AND ts >= ? AND ts <= ? AND annotations LIKE ? ALLOW FILTERING")];
    expect(indexLookupAdvice(spans, "service", lookups)).toBe(
      "Serve the lookup from a table partitioned by `service` and a time bucket, clustered by `ts`, so that one value's rows stay bounded. The text search on `annotations` still needs a table of terms or an external search index.",
    );
  });

  it("keys a table by a column looked up by equality alone", () => {
    expect(indexLookupAdvice(spans, "service", [query("SELECT trace_id FROM spans WHERE service = ?")])).toBe(
      "Serve the lookup from a table partitioned by `service`.",
    );
  });

  it("sends a vector search to a storage-attached index, and a time without queries to a clustering column", () => {
    expect(indexLookupAdvice(spans, "embedding", [])).toMatch(/storage-attached index .* never by a partition key/);
    expect(indexLookupAdvice(spans, "ts", [])).toMatch(/^A range on `ts` makes it a clustering column/);
  });
});
