import { describe, expect, it } from "vitest";
import { APP, DAO, QUERIES } from "../code/app-fixtures.js";
import { findingsAt, reviewWithCode } from "../code/review-with-code.js";

const RULE = "code-statement-not-in-manifest";

describe(RULE, () => {
  it("reports each statement of the code that no manifest entry describes, where its text is written", async () => {
    const result = await reviewWithCode({ ...APP, "access-patterns.yaml": "version: 1\nkeyspace: shop\n" });
    expect(findingsAt(result, RULE)).toEqual([`${RULE} ${QUERIES}:6`, `${RULE} ${DAO}:16`, `${RULE} ${DAO}:20`, `${RULE} ${DAO}:31`]);
    const first = result.findings.find((f) => f.rule === RULE)!;
    expect(first.severity).toBe("info");
    expect(first.message).toContain(`code: ${DAO}#VideoDao.findByUser`);
    expect(first.message).toContain("rate: 1/s");
    const truncate = result.findings.filter((f) => f.rule === RULE).at(-1)!;
    // TRUNCATE deletes data: a write, with a write entry to paste, not a schema change
    expect(truncate.message).toContain("runs this TRUNCATE");
    expect(truncate.message).toContain("a write that deletes every row");
    expect(truncate.message).not.toContain("schema change");
    expect(String(truncate.data!["entry"])).toMatch(/^writes: \[\{ id: W-code-\d+, code: .*#VideoDao\.\w+, rate: 1\/s \}\]$/);
  });

  it("claims no review for a statement on a table the schema lacks", async () => {
    const result = await reviewWithCode({ ...APP, "schema/videos.cql": "CREATE TABLE shop.videos (video_id uuid PRIMARY KEY, title text, tags set<text>);\n", "access-patterns.yaml": "version: 1\nkeyspace: shop\n" });
    const messages = result.findings.filter((f) => f.rule === RULE).map((f) => f.message);
    // videos_by_user is gone from the schema: its statements are not planned
    const onMissing = messages.filter((m) => m.includes("VideoDao.findByUser"));
    expect(onMissing).toHaveLength(1);
    expect(onMissing[0]).not.toContain("reviewed");
    expect(onMissing[0]).toContain("To give it a rate, add to the manifest");
    expect(messages.some((m) => m.includes("It is reviewed as it stands"))).toBe(true);
  });

  it("leaves statements that an entry names with code: or repeats with the same cql", async () => {
    const manifest = `version: 1
keyspace: shop
queries:
  - id: videos-of-user
    code: ${DAO}#VideoDao.findByUser
    rate: 300/s
  - id: by-title
    cql: SELECT   video_id FROM videos WHERE title = ?;
writes:
  - id: add-video
    code: ${DAO}#VideoDao.add
`;
    const result = await reviewWithCode({ ...APP, "access-patterns.yaml": manifest });
    expect(findingsAt(result, RULE)).toEqual([`${RULE} ${DAO}:31`]);
  });

  it("offers an entry that, pasted into the manifest, describes the statement", async () => {
    const first = (await reviewWithCode({ ...APP, "access-patterns.yaml": "version: 1\nkeyspace: shop\n" })).findings.find((f) => f.rule === RULE)!;
    const pasted = `version: 1\nkeyspace: shop\n${String(first.data!["entry"])}\n`;
    const again = await reviewWithCode({ ...APP, "access-patterns.yaml": pasted });
    expect(again.findings.filter((f) => f.rule === "manifest-invalid")).toEqual([]);
    expect(findingsAt(again, RULE)).not.toContain(`${RULE} ${QUERIES}:6`);
    expect(again.manifest!.queries.map((q) => [q.id, q.ratePerSecond])).toContainEqual(["Q-code-1", 1]);
  });

  it("takes a pasted write entry for a TRUNCATE", async () => {
    const truncate = (await reviewWithCode({ ...APP, "access-patterns.yaml": "version: 1\nkeyspace: shop\n" })).findings.filter((f) => f.rule === RULE).at(-1)!;
    const again = await reviewWithCode({ ...APP, "access-patterns.yaml": `version: 1\nkeyspace: shop\n${String(truncate.data!["entry"])}\n` });
    expect(again.findings.filter((f) => f.rule === "manifest-invalid" || f.rule === "manifest-code-unresolved")).toEqual([]);
    expect(findingsAt(again, RULE)).not.toContain(`${RULE} ${DAO}:31`);
  });

  it("says nothing when code reading is off", async () => {
    const result = await reviewWithCode({ ...APP, "access-patterns.yaml": "version: 1\nkeyspace: shop\n" }, "code: false\n");
    expect(findingsAt(result, RULE)).toEqual([]);
  });
});
