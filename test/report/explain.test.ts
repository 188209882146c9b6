// explain() and parseExplainRequest(), on a review of the shop fixture made by the real core.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { editDistance, explain, nearestFirst, parseExplainRequest, type ExplainAnswer } from "../../src/explain.js";
import type { Finding } from "../../src/findings.js";
import { renderExplainText } from "../../src/report/explain-text.js";
import { renderExplainJson } from "../../src/report/json.js";
import { renderExplainMarkdown } from "../../src/report/markdown.js";
import { review, type Review } from "../../src/review.js";

function fixture(relative: string): string {
  return readFileSync(new URL(`../fixtures/report/shop/${relative}`, import.meta.url), "utf8");
}

function shopReview(): Review {
  return review({
    files: [
      { path: "schema/shop.cql", content: fixture("schema/shop.cql") },
      { path: "access-patterns.yaml", content: fixture("access-patterns.yaml") },
    ],
  });
}

function expectKind<K extends ExplainAnswer["kind"]>(answer: ExplainAnswer, kind: K): Extract<ExplainAnswer, { kind: K }> {
  expect(answer.kind).toBe(kind);
  return answer as Extract<ExplainAnswer, { kind: K }>;
}

describe("parseExplainRequest", () => {
  it.each([
    ["Q1", { kind: "query", id: "Q1" }],
    ["  recent-orders  ", { kind: "query", id: "recent-orders" }],
    ["/cql explain Q2", { kind: "query", id: "Q2" }],
    ["explain `Q3`", { kind: "query", id: "Q3" }],
    ["SELECT * FROM t WHERE k = 1", { kind: "select", cql: "SELECT * FROM t WHERE k = 1" }],
    ["select a\nfrom t", { kind: "select", cql: "select a\nfrom t" }],
    ["```sql\nSELECT * FROM t\n```", { kind: "select", cql: "SELECT * FROM t" }],
    ["`SELECT * FROM t`", { kind: "select", cql: "SELECT * FROM t" }],
    ["table videos_by_user", { kind: "table", name: "videos_by_user" }],
    ["TABLE killrvideo.videos", { kind: "table", name: "killrvideo.videos" }],
    ['table "MixedCase"', { kind: "table", name: '"MixedCase"' }],
    ["table `videos`", { kind: "table", name: "videos" }],
  ])("reads %j", (text, expected) => {
    expect(parseExplainRequest(text)).toEqual(expected);
  });

  it.each([
    ["", /Nothing to explain/],
    ["/cql explain", /Nothing to explain/],
    ["table", /Which table\?/],
    ["table a b", /not a table name/],
    ["Q1 and Q2", /Cannot tell what to explain/],
  ])("refuses %j", (text, message) => {
    expect((parseExplainRequest(text) as { error: string }).error).toMatch(message);
  });

  it("never repeats the request in its errors, so they are safe to post as Markdown", () => {
    for (const text of ["Q1 <img src=x onerror=alert(1)>", "table <script>x</script>", "[link](javascript:x) @team"]) {
      const error = (parseExplainRequest(text) as { error: string }).error;
      expect(error).toBeDefined();
      expect(error).not.toMatch(/<img|<script|javascript:|@team/);
    }
  });
});

describe("explain a query id", () => {
  const reviewed = shopReview();

  it("gives the plan the review made, the table's estimate and no unrelated findings", () => {
    const answer = expectKind(explain(reviewed, { kind: "query", id: "recent-orders" }), "query");
    const analysis = reviewed.queries.find((query) => query.id === "recent-orders")!;
    expect(answer.plan).toBe(analysis.plan);
    expect(answer.table).toBe("shop.orders_by_customer");
    expect(answer.cql).toBe("SELECT order_id, total FROM orders_by_customer WHERE customer_id = ? LIMIT 20");
    expect(answer.plan.steps.length).toBeGreaterThan(0);
    expect(answer.estimate).toBe(reviewed.estimates.get("shop.orders_by_customer"));
    // the other query's findings are not this one's
    expect(answer.findings.filter((finding) => finding.fingerprint.includes("orders-by-status"))).toEqual([]);
  });

  it("collects the findings that fire for the query", () => {
    const answer = expectKind(explain(reviewed, { kind: "query", id: "orders-by-status" }), "query");
    expect(answer.plan.verdict).toBe("needs-allow-filtering");
    expect(answer.findings.map((finding) => finding.rule)).toContain("query-needs-allow-filtering");
    for (const finding of answer.findings) expect(finding.fingerprint.includes("recent-orders")).toBe(false);
  });

  it("matches a query's findings by whole id: Q1 does not take Q10's", () => {
    const base = shopReview();
    const q1 = { ...base.queries[0], id: "Q1", location: { ...base.queries[0].location, file: "other.yaml" } };
    const q10 = { ...base.queries[1], id: "Q10" };
    const onQ10: Finding = { ...base.findings[0], fingerprint: "query-needs-allow-filtering:query:Q10" };
    const answer = expectKind(explain({ ...base, queries: [q1, q10], findings: [onQ10] }, { kind: "query", id: "Q1" }), "query");
    expect(answer.findings).toEqual([]);
    const answer10 = expectKind(explain({ ...base, queries: [q1, q10], findings: [onQ10] }, { kind: "query", id: "Q10" }), "query");
    expect(answer10.findings).toEqual([onQ10]);
  });

  it("lists the known ids, nearest first, for an unknown one", () => {
    const answer = expectKind(explain(reviewed, { kind: "query", id: "orders-by-stat" }), "not-found");
    expect(answer).toMatchObject({ target: "query", name: "orders-by-stat", known: ["orders-by-status", "recent-orders"] });
  });

  it("says there is no manifest when there is none", () => {
    const schemaOnly = review({ files: [{ path: "schema/shop.cql", content: fixture("schema/shop.cql") }] });
    const answer = expectKind(explain(schemaOnly, { kind: "query", id: "Q1" }), "not-found");
    expect(answer.message).toBe("No query Q1: no access-patterns manifest was found.");
    expect(answer.known).toEqual([]);
  });
});

describe("explain a SELECT", () => {
  const reviewed = shopReview();

  it("plans it against the table the manifest's keyspace names", () => {
    const answer = expectKind(explain(reviewed, { kind: "select", cql: "SELECT total FROM orders_by_customer WHERE customer_id = ? AND ordered_at < ?" }), "select");
    expect(answer.table).toBe("shop.orders_by_customer");
    expect(answer.plan.verdict).toBe("single-partition");
    expect(answer.version).toBe("5.0");
  });

  it("plans with the review's Cassandra version", () => {
    const old = review({
      files: [
        { path: "schema/shop.cql", content: fixture("schema/shop.cql") },
        { path: "access-patterns.yaml", content: fixture("access-patterns.yaml") },
      ],
      cassandra: "3.11",
    });
    expect(expectKind(explain(old, { kind: "select", cql: "SELECT * FROM shop.orders_by_customer WHERE status = ?" }), "select").plan.verdict).toBe("needs-allow-filtering");
    expect(old.version).toBe("3.11");
  });

  it("gives the syntax errors with their positions", () => {
    const answer = expectKind(explain(reviewed, { kind: "select", cql: "SELECT * FROM orders_by_customer WHERE" }), "invalid-select");
    expect(answer.errors.length).toBeGreaterThan(0);
    expect(answer.errors[0]).toMatchObject({ line: 1 });
    expect(answer.errors[0].column).toBeGreaterThan(30);
  });

  it("takes exactly one SELECT", () => {
    const answer = expectKind(explain(reviewed, { kind: "select", cql: "SELECT * FROM orders_by_customer; SELECT * FROM orders_by_customer" }), "invalid-select");
    expect(answer.errors.map((error) => error.message)).toEqual(["explain takes exactly one SELECT statement"]);
  });

  it("answers an unknown table as Cassandra would, with the known tables", () => {
    const answer = expectKind(explain(reviewed, { kind: "select", cql: "SELECT * FROM shop.orders WHERE id = ?" }), "not-found");
    expect(answer).toMatchObject({ target: "table", message: "unconfigured table shop.orders", known: ["shop.orders_by_customer"] });
  });
});

describe("explain a table", () => {
  const reviewed = shopReview();

  it("lays out the key, the columns and the queries that hit it", () => {
    const answer = expectKind(explain(reviewed, { kind: "table", name: "orders_by_customer" }), "table");
    expect(answer.columns).toEqual([
      { name: "customer_id", type: "uuid", kind: "partition" },
      { name: "ordered_at", type: "timestamp", kind: "clustering", order: "desc" },
      { name: "order_id", type: "uuid", kind: "clustering", order: "asc" },
      { name: "total", type: "decimal", kind: "regular" },
      { name: "status", type: "text", kind: "regular" },
    ]);
    expect(answer.queries).toEqual([
      { id: "recent-orders", verdict: "single-partition", partitions: 1, role: "serves" },
      { id: "orders-by-status", verdict: "needs-allow-filtering", partitions: "all", role: "serves" },
    ]);
    expect(answer.estimate?.basis).toBe("manifest");
    expect(answer.location).toMatchObject({ file: "schema/shop.cql" });
  });

  it("finds it by qualified or quoted name", () => {
    expect(explain(reviewed, { kind: "table", name: "shop.orders_by_customer" }).kind).toBe("table");
    expect(explain(reviewed, { kind: "table", name: '"orders_by_customer"' }).kind).toBe("table");
  });

  it("suggests the nearest tables for a misspelt name", () => {
    const answer = expectKind(explain(reviewed, { kind: "table", name: "order_by_customer" }), "not-found");
    expect(answer.known).toEqual(["shop.orders_by_customer"]);
    expect(answer.message).toBe("No table order_by_customer in the schema.");
  });

  it("renders as JSON with findings in the §4.2 shape", () => {
    const json = JSON.parse(renderExplainJson(explain(reviewed, { kind: "query", id: "orders-by-status" })));
    expect(json.version).toBe(1);
    expect(json.answer.findings[0]).toMatchObject({ rule: "query-needs-allow-filtering", file: "access-patterns.yaml", line: 14, column: 5 });
    expect(Object.keys(json.answer.findings[0])).toEqual(["rule", "severity", "file", "line", "column", "endLine", "endColumn", "message", "fix"]);
  });
});

describe("nearest names", () => {
  it("measures edits", () => {
    expect(editDistance("kitten", "sitting")).toBe(3);
    expect(editDistance("", "abc")).toBe(3);
    expect(editDistance("same", "same")).toBe(0);
  });

  it("orders by distance, ignoring case, then naturally", () => {
    expect(nearestFirst("q9", ["Q10", "Q2", "Q9", "users"])).toEqual(["Q9", "Q2", "Q10", "users"]);
  });
});

describe("explain speaks in words", () => {
  it("shows no planner rule codes (B1:, N1:, E10:) where people read, and keeps them in the JSON's ruleIds", () => {
    const shop = shopReview();
    const requests = [
      { kind: "query", id: "recent-orders" },
      { kind: "query", id: "orders-by-status" },
      { kind: "select", cql: "SELECT * FROM orders_by_customer" },
      { kind: "select", cql: "SELECT * FROM orders_by_customer WHERE status = 'x' ALLOW FILTERING" },
    ] as const;
    for (const request of requests) {
      const answer = explain(shop, request);
      const text = renderExplainText(answer, { color: false });
      expect(text, JSON.stringify(request)).not.toMatch(/(^|[\s(])[A-Z]\d{1,2}: /m);
      const json = JSON.parse(renderExplainJson(answer)) as { answer: { plan: { ruleIds: string[] } } };
      expect(json.answer.plan.ruleIds.length, JSON.stringify(request)).toBeGreaterThan(0);
    }
  });
});

describe("explain: read-cost figures", () => {
  it("shows the rows a call scans and the tombstones it walks", () => {
    const reviewed = review({
      files: [
        { path: "schema/jobs.cql", content: "CREATE KEYSPACE shop WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3};\nCREATE TABLE shop.jobs_by_queue (queue text, job_id timeuuid, worker text, PRIMARY KEY ((queue), job_id));\n" },
        {
          path: "access-patterns.yaml",
          content: [
            "version: 1",
            "keyspace: shop",
            "tables:",
            "  jobs_by_queue: { partitions: 10, rows_per_partition: { avg: 100, max: 500 } }",
            "queries:",
            "  - id: next-jobs",
            "    cql: SELECT job_id FROM jobs_by_queue WHERE queue = ? LIMIT 50",
            "    rate: 20/s",
            "  - id: jobs-of-worker",
            "    cql: SELECT job_id FROM jobs_by_queue WHERE queue = ? AND worker = ? LIMIT 10 ALLOW FILTERING",
            "    rate: 1/s",
            "writes:",
            "  - id: ack",
            "    cql: DELETE FROM jobs_by_queue WHERE queue = ? AND job_id = ?",
            "    rate: 0.01/s",
            "",
          ].join("\n"),
        },
      ],
    });
    const queue = renderExplainText(expectKind(explain(reviewed, { kind: "query", id: "next-jobs" }), "query"), { color: false });
    expect(queue).toMatch(/tombstones a read +864 \(worst 4,320; from the start, past deleted rows; gc_grace_seconds 864,000\)/);
    const filtering = renderExplainText(expectKind(explain(reviewed, { kind: "query", id: "jobs-of-worker" }), "query"), { color: false });
    expect(filtering).toMatch(/rows per call +100 \(worst 500\), returns at most 10/);
  });
});

describe("explain: index reads", () => {
  it("shows the entries one value's lookup scans, where, and what it filters after", () => {
    const reviewed = review({
      files: [
        {
          path: "schema/orders.cql",
          content:
            "CREATE KEYSPACE shop WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3};\nCREATE TABLE shop.orders (customer_id uuid, order_id timeuuid, status text, region text, PRIMARY KEY ((customer_id), order_id));\nCREATE INDEX orders_status_idx ON shop.orders (status);\n",
        },
        {
          path: "access-patterns.yaml",
          content: [
            "version: 1",
            "keyspace: shop",
            "tables:",
            "  orders: { partitions: 1_000_000, rows_per_partition: 40, distinct_values: { status: { count: 5, max_rows: 30_000_000 } } }",
            "queries:",
            "  - id: pending-in-region",
            "    cql: SELECT order_id FROM orders WHERE status = 'pending' AND region = ? LIMIT 50 ALLOW FILTERING",
            "",
          ].join("\n"),
        },
      ],
    });
    const text = renderExplainText(expectKind(explain(reviewed, { kind: "query", id: "pending-in-region" }), "query"), { color: false });
    expect(text).toMatch(/index entries +8,000,000 for one status value \(most common value 30,000,000\), across every node; then filters region/);
    expect(text).toMatch(/rows per call +8,000,000 \(worst 30,000,000\), returns at most 50/);
  });
});

describe("explain: cell sizes", () => {
  it("shows the largest cell of a table, sized from the manifest", () => {
    const reviewed = review({
      files: [
        { path: "schema/docs.cql", content: "CREATE KEYSPACE shop WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3};\nCREATE TABLE shop.documents (doc_id uuid PRIMARY KEY, labels frozen<map<text, text>>);\n" },
        { path: "access-patterns.yaml", content: "version: 1\nkeyspace: shop\ntables:\n  documents:\n    partitions: 1_000\n    columns: { labels: { items: 20_000, key_bytes: 20, value_bytes: 80 } }\n" },
      ],
    });
    const text = renderExplainText(expectKind(explain(reviewed, { kind: "table", name: "documents" }), "table"), { color: false });
    expect(text).toMatch(/largest cell: labels, 2\.2 MB \(frozen: rewritten whole by every change\)/);
    expect(JSON.parse(renderExplainJson(explain(reviewed, { kind: "table", name: "documents" })))).toBeTruthy();
  });

  it("shows the largest value a row holds beside the average, in text and in the Markdown reply", () => {
    const reviewed = review({
      files: [
        { path: "schema/docs.cql", content: "CREATE KEYSPACE shop WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3};\nCREATE TABLE shop.documents (doc_id uuid PRIMARY KEY, title text, body text);\n" },
        { path: "access-patterns.yaml", content: "version: 1\nkeyspace: shop\ntables:\n  documents:\n    partitions: 1_000\n    columns: { title: 2_000, body: { avg: 1_000, max: 3_000_000 } }\n" },
      ],
    });
    const answer = explain(reviewed, { kind: "table", name: "documents" });
    // The body is the largest cell by its largest value, though the title is larger on average.
    expect(renderExplainText(expectKind(answer, "table"), { color: false })).toMatch(/largest cell: body, 1\.0 kB on average, up to 3\.0 MB\n/);
    expect(renderExplainMarkdown(answer)).toContain("**Largest cell:** `body`, 1.0 kB on average, up to 3.0 MB");
  });
});
