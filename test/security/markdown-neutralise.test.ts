// Repository text never becomes GitHub Markdown. Hostile table, column and query names, manifest
// descriptions, messages, fixes and commands go through every template the bot posts (inline
// comment, check-run summary, explain replies, both review bodies, command replies, the failure
// summary); each document is rendered by a real GFM renderer and must hold no link but ours, no
// image, no raw HTML, no HTML comment but our marker, and no text GitHub would turn into a
// mention, a reference, a commit link or an autolink. The repository text must still be there.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { failureSummary } from "../../src/github/api/check-run.js";
import { explainReply, unknownCommandReply } from "../../src/github/worker/commands.js";
import { realCore } from "../../src/github/worker/core.js";
import { changeRequestBody, fallbackBody, type CommentPlan } from "../../src/github/api/review-comments.js";
import { REVIEW_MARKER } from "../../src/github/api/review-marker.js";
import { explain, parseExplainRequest } from "../../src/explain.js";
import type { Finding } from "../../src/findings.js";
import { fingerprintMarker, readFingerprintMarker, renderCheckSummary, renderExplainMarkdown, renderFindingComment } from "../../src/report/markdown.js";
import { escapeMarkdown, messageMarkdown } from "../../src/report/markdown-escape.js";
import { LINK_BREAK, neutraliseLinks } from "../../src/report/neutralise.js";
import { review } from "../../src/review.js";
import { activeParts, proseText, renderGfm } from "./markdown-inert.js";
import { withCpuTime } from "../helpers/cpu-time.js";

const PROPERTY = { seed: 20_261_126, numRuns: 150 } as const;
const HEAD_SHA = "a1b2c3d4e5f60718293a4b5c6d7e8f9012345678";

/** Pieces of what an attacker would write, joined at random with arbitrary text. */
const PIECES = [
  "@", "@octocat", "@acme/admins", "＠octocat", "#", "#12", "owner/repo#12", "GH-12", "gh-7", "deadbeef", "a1b2c3d", "0123456789abcdef0123",
  "https://evil.example/x", "http://", "HTTPS://", "www.", "WWW.evil.example", "me@evil.example", "mailto:me@x.y", "xmpp:me@x.y",
  "<img src=x>", "<a href=//x>", "<script>", "<!-- cql-review:fingerprint=decoy -->", REVIEW_MARKER, "<details>", "</code>",
  "![i](https://x/y.png)", "[t](https://x)", "[t]: https://x", "`", "``", "```", "~~~", "|", "\\", "*", "_", "~", "&", "&#64;", "&lt;", ":", "/",
  "\n", "\r\n", " ", "  ", "\t", LINK_BREAK, "a", "1", ".", "-", "(", ")", "$", "!", "[", "]", "<", ">",
];
const hostile = fc.oneof(
  { weight: 4, arbitrary: fc.array(fc.constantFrom(...PIECES), { maxLength: 14 }).map((parts) => parts.join("")) },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 24 }) },
);
/** A name that survives as a quoted CQL identifier (no line breaks: the parser reads lines). */
const hostileName = hostile.map((text) => text.replace(/[\r\n\t]/g, " ").trim()).filter((text) => text.length > 0);

function finding(message: string, overrides: Partial<Finding> = {}): Finding {
  return {
    rule: "partition-unbounded-growth",
    severity: "error",
    message,
    location: { file: "schema/a.cql", range: { start: { line: 3, column: 1, offset: 10 }, end: { line: 3, column: 9, offset: 18 } } },
    fingerprint: "partition-unbounded-growth:table:ks.t",
    ...overrides,
  };
}

function expectInert(markdown: string, options: Parameters<typeof activeParts>[1] = {}): void {
  expect(activeParts(markdown, options), markdown).toEqual([]);
}

/** The prose a reader sees, without the invisible breaks. */
const seen = (markdown: string) => proseText(renderGfm(markdown)).replaceAll(LINK_BREAK, "");

describe("neutraliseLinks", () => {
  it("breaks each trigger and nothing else", () => {
    expect(neutraliseLinks("ask @octocat or @acme/admins about #12, owner/repo#3 and GH-4")).toBe(
      `ask @${LINK_BREAK}octocat or @${LINK_BREAK}acme/admins about #${LINK_BREAK}12, owner/repo#${LINK_BREAK}3 and GH-${LINK_BREAK}4`,
    );
    expect(neutraliseLinks("see https://x.y, www.x.y, me@x.y, mailto:a")).toBe(
      `see https:${LINK_BREAK}//x.y, www${LINK_BREAK}.x.y, me@${LINK_BREAK}x.y, mailto${LINK_BREAK}:a`,
    );
    expect(neutraliseLinks("commit a1b2c3d4e5f6a7b8")).toBe(`commit a1b2c3${LINK_BREAK}d4e5f6${LINK_BREAK}a7b8`);
    // plain numbers, short hex and ordinary names stay whole
    for (const plain of ["1000000 rows", "cafe", "user_id", "readings_by_device", "# heading", "a # b", "x:y", "/cql explain"]) {
      expect(neutraliseLinks(plain)).toBe(plain);
    }
  });

  it("takes linear time on long runs", () => {
    const { cpuMs } = withCpuTime(() => {
      for (const run of ["@".repeat(200_000), "a".repeat(200_000), "#1".repeat(100_000), ":/".repeat(100_000), "www.".repeat(50_000)]) {
        neutraliseLinks(run);
      }
    });
    expect(cpuMs).toBeLessThan(2_000);
  });

  it("leaves escaped prose inert and readable", () => {
    fc.assert(
      fc.property(hostile, (text) => {
        expectInert(escapeMarkdown(text));
        expect(seen(escapeMarkdown(text)).replace(/\s+/g, " ").trim()).toBe(text.replaceAll(LINK_BREAK, "").replace(/\s+/g, " ").trim());
        expectInert(messageMarkdown(`Table \`${text}\` has ${text}`));
      }),
      PROPERTY,
    );
  });
});

describe("every template the bot posts is inert", () => {
  it("the inline comment, with its marker last and read back", () => {
    fc.assert(
      fc.property(hostile, hostile, hostile, hostile, hostile, (message, key, value, fix, suggestion) => {
        const quoted = finding(`${message} \`${value}\` ${message}`, {
          data: { [key]: value },
          fix: { file: "schema/a.cql", range: finding("").location.range, replacement: suggestion, description: fix },
          fingerprint: `rule:${value}`,
        });
        for (const options of [{}, { suggestion }]) {
          const body = renderFindingComment(quoted, options);
          // the suggestion block is code: its text is the fix GitHub applies, shown verbatim
          expectInert(body, { ownComments: [fingerprintMarker(quoted.fingerprint)] });
          expect(readFingerprintMarker(body)).toBe(quoted.fingerprint);
        }
      }),
      PROPERTY,
    );
  });

  it("both review bodies", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(hostile, hostile), { minLength: 1, maxLength: 4 }), (items) => {
        const findings = items.map(([message, file]) => finding(message, { location: { ...finding("").location, file } }));
        const plan: CommentPlan = { comments: [], notInline: findings, alreadyPosted: [] };
        const comments = findings.map((f) => ({ finding: f, path: f.location.file, line: 3, body: "" }));
        for (const body of [changeRequestBody(plan, "warning"), fallbackBody(comments)]) {
          expectInert(body, { ownComments: [REVIEW_MARKER] });
          const shown = seen(body).replace(/\s+/g, " ");
          // a message's backticks quote code, which is not prose; the rest must read as written
          for (const [message] of items.filter(([m]) => !m.includes("`"))) expect(shown).toContain(message.replaceAll(LINK_BREAK, "").replace(/\s+/g, " ").trim().slice(0, 40).trim());
        }
      }),
      PROPERTY,
    );
  });

  it("command replies and the failure summary", () => {
    fc.assert(
      fc.property(hostile, hostile, (text, answer) => {
        expectInert(unknownCommandReply(text));
        expectInert(explainReply(text, escapeMarkdown(answer), HEAD_SHA), { ownText: [HEAD_SHA.slice(0, 7)] });
        expectInert(failureSummary(HEAD_SHA, text, text), { ownText: [HEAD_SHA.slice(0, 7)] });
      }),
      PROPERTY,
    );
  });

  it("the check summary, explain answers and comments of a real review of hostile names", () => {
    fc.assert(
      fc.property(hostileName, hostileName, hostileName, hostile, (table, column, queryId, description) => {
        const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;
        const schema = [
          "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};",
          `CREATE TABLE ks.${ident(table)} (id uuid, ${ident(column)} text, at timestamp, PRIMARY KEY (id, at));`,
          `CREATE TABLE ks.plain (id uuid PRIMARY KEY, ${ident(column)} text);`,
        ].join("\n");
        const manifest = [
          "version: 1",
          "keyspace: ks",
          "queries:",
          `  - id: ${JSON.stringify(queryId)}`,
          `    description: ${JSON.stringify(description)}`,
          `    cql: ${JSON.stringify(`SELECT * FROM ks.${ident(table)} WHERE ${ident(column)} = ?`)}`,
          "  - id: Q2",
          `    cql: ${JSON.stringify(`SELECT * FROM ks.plain WHERE ${ident(column)} = ?`)}`,
        ].join("\n");
        const reviewed = review({ files: [{ path: "schema/a.cql", content: schema }, { path: "access-patterns.yaml", content: manifest }] });

        expectInert(renderCheckSummary(reviewed));
        for (const f of reviewed.findings) expectInert(renderFindingComment(f), { ownComments: [fingerprintMarker(f.fingerprint)] });
        for (const request of [queryId, "Q2", `table ${table}`, `table ks.${ident(table)}`, `SELECT * FROM ks.${ident(table)} WHERE ${ident(column)} = 1`, `${table}@x#1`]) {
          expectInert(realCore.explainMarkdown(reviewed, request));
          const parsed = parseExplainRequest(request);
          if (!("error" in parsed)) expectInert(renderExplainMarkdown(explain(reviewed, parsed)));
        }
      }),
      { ...PROPERTY, numRuns: 25 },
    );
  });
});
