// One suggested table everywhere: when the copied table's worst partition is past the limits, the
// analysis adds a bucket to the suggestion once, and the rule's comment, the check summary,
// explain (Markdown, terminal, JSON) and the JSON report all show that same CREATE TABLE.
import { describe, expect, it } from "vitest";
import { explain, type QueryExplanation } from "../../src/explain.js";
import { renderExplainText } from "../../src/report/explain-text.js";
import { renderJson, renderExplainJson } from "../../src/report/json.js";
import { renderCheckSummary, renderExplainMarkdown, renderFindingComment } from "../../src/report/markdown.js";
import { review } from "../../src/review.js";
import { activeParts } from "../security/markdown-inert.js";

const SCHEMA = `CREATE TABLE chat.messages_by_room (
  room_id uuid,
  message_id timeuuid,
  sender_id uuid,
  sent_at timestamp,
  body text,
  PRIMARY KEY ((room_id), message_id)
);
`;

const MANIFEST = `version: 1
keyspace: chat
tables:
  messages_by_room:
    rows_per_partition: { avg: 2000, max: 3_000_000 }
    growth: 400/day
    retention: forever
    columns: { body: 200 }
queries:
  - id: room-messages-from-sender
    select: [message_id, body]
    where: { room_id: "=", sender_id: "=" }
    order_by: { sent_at: desc }
    limit: 50
`;

function reviewed() {
  return review({
    files: [
      { path: "schema/chat.cql", content: SCHEMA },
      { path: "access-patterns.yaml", content: MANIFEST },
    ],
  });
}

/** Every CREATE TABLE statement a text shows, from its comment lines (`--`) to its `;`, without the indent of its first line. */
function createTables(text: string): string[] {
  return [...text.matchAll(/(?:^[ \t]*--[^\n]*\n)*^[ \t]*CREATE TABLE[\s\S]*?\);/gm)].map((m) => {
    const indent = /^[ \t]*/.exec(m[0])![0];
    return m[0].split("\n").map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line)).join("\n");
  });
}

describe("the sized suggested table is the same in every output", () => {
  const result = reviewed();
  const [query] = result.queries;
  const statement = query!.suggestedTable!;
  const finding = result.findings.find((f) => f.rule === "query-unserved")!;
  const answer = explain(result, { kind: "query", id: "room-messages-from-sender" }) as QueryExplanation;

  it("is the analysis's suggestion, with a bucket in its partition key and the words that say why", () => {
    expect(query!.plan.verdict).toBe("unserved");
    expect(statement).toMatch(/PRIMARY KEY \(\(room_id, sender_id, \w+\), sent_at, message_id\)/);
    expect(query!.suggestedTableSizing).toMatch(/^Sized with the manifest's figures for messages_by_room/);
    expect(query!.suggestedTableSizing).toMatch(/past the limits/);
  });

  it("the comment, the summary, explain in Markdown, text and JSON, and the JSON report show it alone", () => {
    // The fix heads the appended table with the query it serves.
    const withoutServes = (text: string) => text.replace(/^-- Serves room-messages-from-sender\.\n/m, "");
    const outputs: Record<string, string> = {
      "finding data": String(finding.data?.table),
      "fix": withoutServes(finding.fix!.replacement),
      "inline comment": renderFindingComment(finding),
      "check summary": renderCheckSummary(result),
      "explain markdown": renderExplainMarkdown(answer),
      "explain text": renderExplainText(answer, { color: false }),
      "explain json": String((JSON.parse(renderExplainJson(answer)) as { answer: { suggestedTable: string } }).answer.suggestedTable),
      "json report": (JSON.parse(renderJson(result)) as { findings: { fix: { replacement: string } | null }[] }).findings.map((f) => withoutServes(f.fix?.replacement ?? "")).join("\n"),
    };
    for (const [where, text] of Object.entries(outputs)) expect(createTables(text), where).toEqual([statement]);
  });

  it("the comment and explain say in words why the bucket is there", () => {
    const sizing = query!.suggestedTableSizing!;
    expect(finding.data?.sizing).toBe(sizing);
    expect(finding.message).toContain(sizing);
    expect(answer.suggestedTableSizing).toBe(sizing);
    expect(renderExplainText(answer, { color: false })).toContain(`  ${sizing}`);
    expect((JSON.parse(renderExplainJson(answer)) as { answer: { suggestedTableSizing: string } }).answer.suggestedTableSizing).toBe(sizing);
    // In Markdown, right under the table, escaped like any message.
    const markdown = renderExplainMarkdown(answer);
    const after = markdown.slice(markdown.indexOf(statement) + statement.length);
    expect(after).toMatch(/^\n```\n\nSized with the manifest's figures for messages\\_by\\_room/);
  });
});

describe("a suggested table the figures keep under the limits", () => {
  const small = MANIFEST.replace("{ avg: 2000, max: 3_000_000 }", "{ avg: 200, max: 5_000 }").replace("    growth: 400/day\n    retention: forever\n", "");
  const result = review({
    files: [
      { path: "schema/chat.cql", content: SCHEMA },
      { path: "access-patterns.yaml", content: small },
    ],
  });
  const answer = explain(result, { kind: "query", id: "room-messages-from-sender" }) as QueryExplanation;

  it("has no bucket and no words on size, in the comment or in explain", () => {
    const finding = result.findings.find((f) => f.rule === "query-unserved")!;
    expect(answer.suggestedTable).toContain("PRIMARY KEY ((room_id, sender_id), sent_at, message_id)");
    expect(finding.data?.table).toBe(answer.suggestedTable);
    expect(finding.data?.sizing).toBeUndefined();
    expect(answer.suggestedTableSizing).toBeUndefined();
    expect(renderExplainText(answer, { color: false })).not.toContain("Sized with");
    expect(renderExplainMarkdown(answer)).not.toContain("Sized with");
    expect((JSON.parse(renderExplainJson(answer)) as { answer: Record<string, unknown> }).answer).toMatchObject({ suggestedTable: answer.suggestedTable, suggestedTableSizing: null });
  });
});

describe("a sized suggestion copying a table with a hostile name", () => {
  it("names it in the sizing sentence, and the sentence stays inert under the table in explain", () => {
    const name = "<img src=x onerror=alert(1)> @team [x](https://evil.example) #12";
    const quoted = `"${name}"`;
    const schema = SCHEMA.replace("chat.messages_by_room", `chat.${quoted}`);
    const manifest = MANIFEST.replace("  messages_by_room:", `  ${JSON.stringify(`chat.${quoted}`)}:`);
    const result = review({
      files: [
        { path: "schema/chat.cql", content: schema },
        { path: "access-patterns.yaml", content: manifest },
      ],
    });
    const [query] = result.queries;
    expect(query!.suggestedTableSizing).toContain(`Sized with the manifest's figures for ${name}`);
    const answer = explain(result, { kind: "query", id: "room-messages-from-sender" }) as QueryExplanation;
    expect(activeParts(renderExplainMarkdown(answer))).toEqual([]);
    expect(activeParts(renderCheckSummary(result))).toEqual([]);
  });
});
