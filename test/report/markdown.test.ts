import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { QueryAnalysis } from "../../src/analysis/types.js";
import type { ExplainAnswer } from "../../src/explain.js";
import type { Finding } from "../../src/findings.js";
import {
  fingerprintMarker,
  readFingerprintMarker,
  renderCheckSummary,
  renderExplainMarkdown,
  renderFindingComment,
} from "../../src/report/markdown.js";
import { wellFormed } from "../../src/report/links.js";
import { estimate, finding, plan, range, reviewOf, tableModel, videoReview } from "../fixtures/report/hand-built-review.js";
import { readCodeSpan, readEscapedText, readFencedBlock, readInline, readMermaidLabel, splitTableRow } from "./gfm-model.js";
import { hasControls } from "../../src/report/controls.js";

const PROPERTY = { seed: 1_121, numRuns: 100 } as const;

const hostileText = fc.oneof(
  fc.string({ unit: fc.constantFrom(..."`|\\*_[]<>#-+.!&$:\"'()~=^\n\r\t a-->"), minLength: 1, maxLength: 30 }),
  fc.string({ unit: "grapheme", minLength: 1, maxLength: 20 }),
);

function manyQueries(count: number): QueryAnalysis[] {
  return Array.from({ length: count }, (_, index) => ({
    id: `Q${index}`,
    location: { file: "access-patterns.yaml", range: range(index + 1, 5) },
    form: "cql" as const,
    table: "shop.orders_by_customer",
    candidates: [],
    plan: plan("single-partition", 1, "B1: customer_id is bound by ="),
  }));
}

function manyFindings(count: number): Finding[] {
  return Array.from({ length: count }, (_, index) =>
    finding("query-full-scan", "warning", "access-patterns.yaml", range(index + 1, 5), `Q${index} reads every partition of shop.orders`),
  );
}

const orders = tableModel("shop", "orders_by_customer", "schema/shop.cql", 1, [
  { name: "customer_id", type: "uuid", kind: "partition" },
  { name: "ordered_at", type: "timestamp", kind: "clustering", order: "desc" },
  { name: "total", type: "decimal", kind: "regular" },
]);

describe("renderCheckSummary", () => {
  it("renders the verdict, the findings, and the queries, estimates and diagram collapsed", async () => {
    await expect(renderCheckSummary(videoReview())).toMatchFileSnapshot("__snapshots__/video-review.summary.md");
  });

  it("leaves out the findings posted inline and says so", () => {
    const review = videoReview();
    const inline = new Set([review.findings[0].fingerprint, review.findings[1].fingerprint]);
    const summary = renderCheckSummary(review, { shownInline: inline });
    expect(summary).toContain("2 findings are posted as inline comments on the changed lines and not repeated here.");
    expect(summary).not.toContain("partition\\-unbounded");
    expect(summary.split("\n").filter((line) => line.includes("table-no-queries.md"))).toHaveLength(1);
    expect(summary).not.toContain("query-needs-allow-filtering.md");
  });

  it("stays within maxLength and counts what it left out honestly", () => {
    const review = reviewOf({ tables: [orders], queries: manyQueries(3_000), estimates: [estimate("shop.orders_by_customer")], findings: manyFindings(3_000) });
    for (const maxLength of [65_000, 20_000, 4_000]) {
      const summary = renderCheckSummary(review, { maxLength });
      expect(summary.length).toBeLessThanOrEqual(maxLength);
      const queryRows = summary.split("\n").filter((line) => /^\| `Q\d+` \|/.test(line)).length;
      const findingRows = summary.split("\n").filter((line) => line.includes("query-full-scan.md")).length;
      expect(summary).toContain(`_${(3_000 - queryRows).toLocaleString("en-US")} more queries not shown._`);
      expect(summary).toContain(`_${(3_000 - findingRows).toLocaleString("en-US")} more findings not shown;`);
      // heads survive every cut, and the findings are served before the queries
      expect(summary).toContain("<summary>Partition estimates");
      expect(summary).toContain("```mermaid");
      expect(summary.match(/<details>/g)).toHaveLength(summary.match(/<\/details>/g)!.length);
      // strictly in order: no query row while a finding was left out
      if (findingRows < 3_000) expect(queryRows).toBe(0);
      expect(findingRows).toBeGreaterThan(0);
    }
  });

  it("reads in the order a reviewer needs: verdict, not reviewed, failing, new, existing, then the details", () => {
    const review = reviewOf({
      tables: [orders],
      queries: manyQueries(2),
      estimates: [estimate("shop.orders_by_customer")],
      findings: [
        finding("query-full-scan", "warning", "access-patterns.yaml", range(3, 5), "Q1 reads every partition"),
        finding("table-no-queries", "info", "schema/shop.cql", range(1, 1), "old table", { existing: true }),
        finding("query-needs-allow-filtering", "error", "access-patterns.yaml", range(9, 5), "Q0 needs ALLOW FILTERING"),
      ],
    });
    review.unreviewed = [{ file: "schema/big_*table*.cql", reason: "too large <b>" }];
    const summary = renderCheckSummary(review);
    const lines = summary.split("\n");
    expect(lines[0]).toBe("❌ **The gate fails** (`fail_on: error`): 1 new error in this change; 1 part of it not reviewed.");
    const order = [
      "**Not reviewed**",
      "- `schema/big_*table*.cql`: too large \\<b\\>",
      "### Fails the gate (1)",
      "query-needs-allow-filtering.md",
      "### Other new findings (1)",
      "query-full-scan.md",
      "<details><summary>1 finding already at the base commit (they do not fail the gate)</summary>",
      "table-no-queries.md",
      "<details><summary>Queries: 2 queries</summary>",
      "<details><summary>Partition estimates",
      "<details><summary>Model diagram",
    ].map((text) => lines.findIndex((line) => line.includes(text)));
    expect(order.every((index) => index >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(lines.at(-1)).toBe("</details>");
  });

  it("shows gate-failing findings whole and the others by their first sentence, saying so", () => {
    const reasoning = "Every read then asks every node of the cluster, and its cost grows with the data.";
    const review = reviewOf({
      tables: [orders],
      queries: manyQueries(2),
      estimates: [estimate("shop.orders_by_customer")],
      findings: [
        finding("query-needs-allow-filtering", "error", "access-patterns.yaml", range(9, 5), `Q0 needs ALLOW FILTERING. ${reasoning}`),
        finding("query-full-scan", "warning", "access-patterns.yaml", range(3, 5), `Q1 reads every partition. ${reasoning}`),
        finding("table-no-queries", "info", "schema/shop.cql", range(1, 1), `old_orders is read by no query. ${reasoning}`, { existing: true }),
      ],
    });
    const summary = renderCheckSummary(review);
    const row = (rule: string) => summary.split("\n").find((line) => line.includes(`${rule}.md`))!;
    expect(row("query-needs-allow-filtering")).toContain(reasoning.slice(0, 20));
    expect(row("query-full-scan")).toContain("Q1 reads every partition.");
    expect(row("query-full-scan")).not.toContain(reasoning.slice(0, 20));
    expect(row("table-no-queries")).not.toContain(reasoning.slice(0, 20));
    expect(summary.split("_Each message's first sentence; the whole finding is in its annotation on this check run._")).toHaveLength(3);
  });

  it("says the gate passes and why when nothing new fails it", () => {
    const review = reviewOf({ tables: [orders], queries: [], estimates: [], findings: [] });
    // No base: nothing was compared, so nothing is called new.
    expect(renderCheckSummary(review).split("\n")[0]).toBe("✅ **The gate passes** (`fail_on: error`): nothing found.");
  });

  it("keeps hostile names inside their table cells and diagram labels", () => {
    fc.assert(
      fc.property(hostileText, hostileText, (queryId, tableName) => {
        const table = tableModel("ks", tableName, "schema/x.cql", 1, [{ name: "id", type: "uuid", kind: "partition" }]);
        const review = reviewOf({
          tables: [table],
          queries: [{ ...manyQueries(1)[0], id: queryId, table: table.qualifiedName }],
          estimates: [estimate(table.qualifiedName)],
          findings: [],
        });
        const lines = renderCheckSummary(review).split("\n");
        const queryHeader = lines.indexOf("| Query | Table | Verdict | Partitions |");
        const cells = splitTableRow(lines[queryHeader + 2]);
        expect(cells).toHaveLength(4);
        for (const [cell, expected] of [[cells[0], queryId], [cells[1], table.qualifiedName]] as const) {
          const shown = readCodeSpan(cell) ?? readEscapedText(cell).text;
          expect(shown.trim()).toBe(expected.replace(/\r\n|[\r\n\u2028\u2029]/g, " ").trim());
        }
        const estimateHeader = lines.findIndex((line) => line.startsWith("| Table | Rows/partition"));
        expect(splitTableRow(lines[estimateHeader + 2])).toHaveLength(7);

        const start = lines.indexOf("```mermaid");
        const end = lines.indexOf("```", start + 1);
        expect(end).toBeGreaterThan(start);
        const diagram = lines.slice(start + 1, end);
        const tableNode = diagram.find((line) => line.startsWith("  t0[("))!;
        expect(readMermaidLabel(/^ {2}t0\[\((".*")\)\]$/.exec(tableNode)![1])).toBe(table.qualifiedName.replace(/\r\n|[\r\n\u2028\u2029]/g, " "));
        const edge = diagram.find((line) => line.startsWith("  q0(["))!;
        expect(edge).toMatch(/^ {2}q0\(\["[^"]*"\]\) -->\|1 partition\| t0$/);
      }),
      PROPERTY,
    );
  });
});

describe("renderFindingComment", () => {
  it("shows the badge, the rule, the message, the suggestion, the rule's doc and the marker, and no data dump", () => {
    const unbounded = videoReview().findings.find((entry) => entry.rule === "partition-unbounded")!;
    expect(renderFindingComment(unbounded, { suggestion: "  PRIMARY KEY ((userid, year), added_date, videoid)" })).toMatchInlineSnapshot(`
      "🔴 **error** · \`partition-unbounded\`

      Partitions of killrvideo.videos\\_by\\_user grow without bound (5 rows/day, kept forever).

      Suggested fix: Add a year bucket to the partition key

      \`\`\`suggestion
        PRIMARY KEY ((userid, year), added_date, videoid)
      \`\`\`

      [Why this matters and how to fix it: \`partition-unbounded\`](https://github.com/cql-review/cql-review/blob/main/rules/partition-unbounded.md)

      <!-- cql-review:fingerprint=partition-unbounded:table:killrvideo.videos_by_user -->"
    `);
  });

  it("marks a finding that already existed and describes a fix it cannot suggest inline", () => {
    const existing = finding("partition-unbounded", "warning", "a.cql", range(1, 1), "grows", {
      existing: true,
      fix: { description: "Add a bucket", file: "a.cql", range: range(1, 1), replacement: "x" },
    });
    const body = renderFindingComment(existing);
    expect(body).toContain("_Already present at the base commit: this does not fail the check._");
    expect(body).toContain("Fix: Add a bucket");
    expect(body).not.toContain("```");
  });

  it("offers the table an unserved query needs as CREATE TABLE in a collapsed block", () => {
    const createTable = "CREATE TABLE shop.orders_by_status (\n  status text,\n  id uuid,\n  PRIMARY KEY ((status), id)\n);";
    const unserved = finding("query-unserved", "error", "access-patterns.yaml", range(7, 5), "No table serves Q4.", {
      data: { query: "Q4", summary: "B1: nothing binds status", table: createTable, writtenBy: "" },
    });
    const body = renderFindingComment(unserved);
    const lines = body.split("\n");
    const open = lines.indexOf("<details><summary>The CREATE TABLE that would serve it</summary>");
    expect(open).toBeGreaterThan(lines.indexOf("No table serves Q4."));
    expect(readFencedBlock(lines.slice(open + 2, lines.indexOf("</details>") - 1).join("\n"))).toEqual({ info: "sql", content: createTable });
    expect(lines.at(-3)).toBe("[Why this matters and how to fix it: `query-unserved`](https://github.com/cql-review/cql-review/blob/main/rules/query-unserved.md)");
    // the data behind the message stays in the JSON report
    expect(body).not.toMatch(/writtenBy|summary:|B1:|^- query/m);
  });

  it("shows a suggested table headed by the comments that explain its bucket", () => {
    const sized = "-- day = the date of sent_at: a partition by (room_id) alone would outgrow the limits\nCREATE TABLE chat.messages_by_room_id (\n  room_id uuid,\n  day date,\n  id timeuuid,\n  PRIMARY KEY ((room_id, day), id)\n);";
    const unserved = finding("query-unserved", "error", "access-patterns.yaml", range(7, 5), "No table serves Q4.", { data: { query: "Q4", table: sized } });
    const body = renderFindingComment(unserved);
    const lines = body.split("\n");
    const open = lines.indexOf("<details><summary>The CREATE TABLE that would serve it</summary>");
    expect(open).toBeGreaterThan(0);
    expect(readFencedBlock(lines.slice(open + 2, lines.indexOf("</details>") - 1).join("\n"))).toEqual({ info: "sql", content: sized });
    // A comment alone, or one ahead of anything else, is not a table.
    for (const table of ["-- CREATE TABLE x (a int PRIMARY KEY);", "-- note\nks.t"]) {
      expect(renderFindingComment(finding("query-unserved", "error", "a.yaml", range(1, 1), "m", { data: { table } }))).not.toContain("<details>");
    }
  });

  it("shows a table name in data.table as nothing: only a CREATE TABLE is a suggested table", () => {
    const body = renderFindingComment(finding("table-no-queries", "info", "a.cql", range(1, 1), "unused", { data: { table: "ks.t" } }));
    expect(body).not.toContain("<details>");
    expect(body).not.toContain("ks.t");
  });

  it("keeps any message, figures and suggestion in their places, with the marker last", () => {
    fc.assert(
      fc.property(hostileText, hostileText, fc.dictionary(hostileText, hostileText, { maxKeys: 3 }), hostileText, (message, fingerprint, data, suggestion) => {
        const body = renderFindingComment(finding("rule-x", "warning", "a.cql", range(1, 1), message, { fingerprint, data }), { suggestion });
        const lines = body.split("\n");
        expect(readFingerprintMarker(lines.at(-1)!)).toBe(fingerprint);
        expect(lines.filter((line) => line.includes("<!--"))).toHaveLength(1);
        const open = lines.findIndex((line) => /^`{3,}suggestion$/.test(line));
        if (hasControls(suggestion)) {
          // Shown escaped, it would write other text when accepted: it is not offered at all.
          expect(open).toBe(-1);
          expect(body).toContain("not offered as a suggestion");
        } else {
          const fence = lines[open].replace("suggestion", "");
          const close = lines.indexOf(fence, open + 1);
          const block = readFencedBlock(lines.slice(open, close + 1).join("\n"));
          expect(block?.content).toBe(suggestion.replace(/\r\n?/g, "\n").replace(/\n$/, ""));
        }
        const read = readInline(lines[2]);
        expect(read.active).toBe(false);
        expect(read.text.replace(/`/g, "")).toBe(message.replace(/\r\n|[\r\n\u2028\u2029]/g, " ").trim().replace(/`/g, ""));
      }),
      PROPERTY,
    );
  });

  it("does not inline a suggestion too long for a comment", () => {
    const body = renderFindingComment(finding("rule-x", "info", "a.cql", range(1, 1), "m"), { suggestion: "x".repeat(50_000) });
    expect(body).toContain("_The suggested fix is 50,000 characters long, too long to show here._");
    expect(body.length).toBeLessThan(1_000);
  });
});

describe("fingerprint marker", () => {
  it("round-trips any fingerprint and never ends or breaks the HTML comment early", () => {
    fc.assert(
      fc.property(fc.oneof(hostileText, fc.string({ unit: "binary", maxLength: 40 })), (fingerprint) => {
        const marker = fingerprintMarker(fingerprint);
        // a lone surrogate cannot be percent-encoded; it comes back as U+FFFD
        expect(readFingerprintMarker(`some text\n\n${marker}\n`)).toBe(wellFormed(fingerprint));
        const inside = marker.slice("<!--".length, -"-->".length);
        expect(inside).not.toMatch(/--|[<>\r\n]/);
        expect(inside.endsWith("-")).toBe(false);
      }),
      PROPERTY,
    );
  });

  it("survives a fingerprint with a lone surrogate", () => {
    expect(readFingerprintMarker(fingerprintMarker("rule:table:\uD800x"))).toBe("rule:table:\uFFFDx");
  });

  it("reads nothing from a body without a marker or with a broken one", () => {
    expect(readFingerprintMarker("just a comment")).toBeUndefined();
    expect(readFingerprintMarker("<!-- cql-review:fingerprint=%E0%A4%A -->")).toBeUndefined();
  });
});

describe("renderExplainMarkdown", () => {
  const review = videoReview();
  const q1 = review.queries[0];

  it("explains a query answer first: verdict and why, findings, then the plan, the candidates and the estimate", () => {
    const answer: ExplainAnswer = {
      kind: "query",
      version: "5.0",
      id: q1.id,
      description: q1.description,
      location: q1.location,
      form: "cql",
      cql: "SELECT videoid, title FROM videos_by_user WHERE userid = ? LIMIT 20",
      table: q1.table,
      candidates: q1.candidates.map((candidate) => ({ table: candidate.table, verdict: candidate.plan.verdict, partitions: candidate.plan.partitions, because: candidate.because })),
      plan: q1.plan,
      estimate: review.estimates.get("killrvideo.videos_by_user"),
      findings: review.findings.filter((entry) => entry.rule === "query-needs-allow-filtering"),
    };
    expect(renderExplainMarkdown(answer)).toMatchInlineSnapshot(`
      "### \`Q1\` · Newest videos of a user

      ✅ single-partition: the partition key userid is bound by =

      Served by \`killrvideo.videos_by_user\` (Cassandra 5.0) · **partitions read:** 1 · **rows read:** 20 · **direction:** forward

      **Findings**
      - 🟡 [\`query-needs-allow-filtering\`](https://github.com/cql-review/cql-review/blob/main/rules/query-needs-allow-filtering.md) \`access-patterns.yaml:15:10\`: Q2 filters on title, which is not part of the primary key of killrvideo.videos.

      **Plan**

      \`\`\`sql
      SELECT videoid, title FROM videos_by_user WHERE userid = ? LIMIT 20
      \`\`\`

      1. **table**: killrvideo.videos\\_by\\_user
      2. **partition key**: userid = ? pins one partition
      3. **limit**: LIMIT 20 reads at most 20 rows

      **Candidates**

      | Table | Verdict | Partitions | Why |
      | --- | --- | --- | --- |
      | \`killrvideo.videos_by_user\` | ✅ single-partition | 1 | userid is its partition key |

      **Partition estimate** for \`killrvideo.videos_by_user\`: 5 rows/day kept forever

      |   | Rows | Values | Bytes | Engine bytes |
      | --- | ---: | ---: | ---: | ---: |
      | average | 300 | 600 | 28.5 kB | 31.0 kB |
      | worst | 50,000 | 100,000 | 4.8 MB | 5.1 MB |

      **Unbounded:** partitions grow without a bucket or TTL; limits crossed: values after 55 years.

      **Bucket suggestion:** bucket by year: about 1,825 rows per partition"
    `);
  });

  it("lists the known names, nearest first, for an unknown id", () => {
    const answer: ExplainAnswer = { kind: "not-found", version: "5.0", target: "query", name: "Q9", message: "No query Q9 in the access-patterns manifest.", known: ["Q1", "Q2"] };
    expect(renderExplainMarkdown(answer)).toBe("No query Q9 in the access-patterns manifest.\n\nKnown queries, nearest first:\n- `Q1`\n- `Q2`");
  });

  it("shows a statement that does not parse with its error positions", () => {
    const answer: ExplainAnswer = {
      kind: "invalid-select",
      version: "4.1",
      cql: "SELECT * FROM t WHERE",
      errors: [{ line: 1, column: 22, message: "expected a column name, found end of input" }],
    };
    expect(renderExplainMarkdown(answer)).toBe(
      "This statement cannot be explained:\n\n```sql\nSELECT * FROM t WHERE\n```\n\n- line 1, column 22: expected a column name, found end of input",
    );
  });

  it("explains a table: key layout, queries and findings, within a comment's length", () => {
    const answer: ExplainAnswer = {
      kind: "table",
      version: "5.0",
      table: "killrvideo.videos_by_user",
      tableKind: "table",
      location: { file: "schema/videos.cql", range: range(12, 1) },
      columns: [
        { name: "userid", type: "uuid", kind: "partition" },
        { name: "added_date", type: "timestamp", kind: "clustering", order: "desc" },
        { name: "title|`x`", type: "text", kind: "regular" },
      ],
      indexes: [],
      views: [],
      defaultTtlSeconds: 0,
      queries: Array.from({ length: 5_000 }, (_, index) => ({ id: `Q${index}`, verdict: "single-partition" as const, partitions: 1, role: "serves" as const })),
      findings: [],
    };
    const text = renderExplainMarkdown(answer);
    expect(text.length).toBeLessThanOrEqual(65_000);
    expect(text).toContain("| `added_date` | `timestamp` | clustering | desc |");
    expect(text).toContain("| `` title\\|`x` `` | `text` | regular |   |");
    expect(text).toMatch(/_\d[\d,]* more queries not shown\._/);
  });
});
