import { describe, expect, it } from "vitest";
import rule from "../../rules/table-large-collection.js";
import { ruleTester, runRule } from "../rule-tester.js";

const inbox = `CREATE TABLE inbox (
  user_id uuid PRIMARY KEY,
  pending list<uuid>,
  labels set<text>,
  prefs map<text, text>,
  archive frozen<list<text>>
);
`;

function manifest(parts: { columns?: string; writes?: string[] }): string {
  const lines = ["version: 1", "keyspace: shop"];
  if (parts.columns) lines.push("tables:", "  inbox:", `    columns: ${parts.columns}`);
  if (parts.writes) {
    lines.push("writes:");
    parts.writes.forEach((cql, i) => lines.push(`  - id: W${i + 1}`, "    cql:", `      - ${cql}`));
  }
  return `${lines.join("\n")}\n`;
}

ruleTester.run("table-large-collection", rule, {
  valid: [
    { name: "small stated collections", cql: inbox, manifest: manifest({ columns: "{ labels: { items: 8, bytes: 12 }, prefs: { items: 20, bytes: 30 } }" }) },
    { name: "a frozen list is one value, whatever its size", cql: inbox, manifest: manifest({ columns: "{ archive: { items: 5000, bytes: 40 } }" }) },
    {
      name: "a set that is appended to and replaced",
      cql: inbox,
      manifest: manifest({ writes: ["UPDATE inbox SET labels = labels + {'x'} WHERE user_id = ?", "UPDATE inbox SET labels = ? WHERE user_id = ?"] }),
    },
    {
      name: "appends to a table whose rows expire",
      cql: inbox.replace(");\n", ") WITH default_time_to_live = 86400;\n"),
      manifest: manifest({ writes: ["UPDATE inbox SET labels = labels + ? WHERE user_id = ?"] }),
    },
    {
      name: "appends with a stated (small) size",
      cql: inbox,
      manifest: manifest({ columns: "{ labels: { items: 10, bytes: 12 } }", writes: ["UPDATE inbox SET labels = labels + ? WHERE user_id = ?"] }),
    },
    { name: "no writes, no figures", cql: inbox },
  ],
  invalid: [
    {
      name: "too many items",
      cql: inbox,
      manifest: manifest({ columns: "{ labels: { items: 5000, bytes: 10 } }" }),
      findings: [{ messageId: "tooLarge", line: 4, column: 3, data: { column: "labels", items: "5,000", limit: "1,000 items" } }],
    },
    {
      name: "few items on average, too many in the largest row",
      cql: inbox,
      manifest: manifest({ columns: "{ labels: { items: { avg: 10, max: 5_000 }, bytes: 10 } }" }),
      findings: [{ messageId: "tooLarge", line: 4, data: { column: "labels", items: "up to 5,000 (10 on average)", limit: "1,000 items" } }],
    },
    {
      name: "too many bytes in a map (keys and values)",
      cql: inbox,
      manifest: manifest({ columns: "{ prefs: { items: 500, bytes: 200 } }" }),
      findings: [{ messageId: "tooLarge", line: 5, data: { column: "prefs", limit: "64 KiB" } }],
    },
    {
      name: "a list pushed to and popped from",
      cql: inbox,
      manifest: manifest({
        writes: ["UPDATE inbox SET pending = pending + [?] WHERE user_id = ?", "DELETE pending[0] FROM inbox WHERE user_id = ?"],
      }),
      findings: [{ messageId: "queue", line: 3, data: { column: "pending", adders: "W1", removers: "W2" } }],
    },
    {
      name: "prepends and removals by value in one write path",
      cql: inbox,
      manifest: manifest({ writes: ["UPDATE inbox SET pending = [?] + pending, pending = pending - [?] WHERE user_id = ?"] }),
      findings: [{ messageId: "queue", line: 3, data: { adders: "W1", removers: "W1" } }],
    },
    {
      name: "a set only ever appended to, after its first INSERT",
      cql: inbox,
      manifest: manifest({ writes: ["INSERT INTO inbox (user_id, labels) VALUES (?, ?)", "UPDATE inbox SET labels = labels + ? WHERE user_id = ?"] }),
      findings: [{ messageId: "unbounded", line: 4, data: { column: "labels", adders: "W2", type: "set<text>" } }],
    },
  ],
});

describe("table-large-collection messages", () => {
  it("agree in number with the write paths they name", () => {
    const messages = (writes: string[]) => runRule(rule, { cql: inbox, manifest: manifest({ writes }) }).findings.map((f) => f.message);
    expect(messages(["UPDATE inbox SET pending = pending + [?] WHERE user_id = ?", "DELETE pending[0] FROM inbox WHERE user_id = ?"])[0]).toContain(
      "is a list used as a queue: W1 adds to it and W2 removes from it.",
    );
    expect(messages(["UPDATE inbox SET labels = labels + ? WHERE user_id = ?", "UPDATE inbox SET labels = labels + {'x'} WHERE user_id = ?"])[0]).toContain(
      "only ever grows: W1 and W2 add to it, and no write",
    );
  });
});
