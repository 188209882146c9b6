// A suggested table copies the rows of an existing table: the manifest's figures for that table
// (rows, growth, retention, worst partition) size it, and a bucket goes into its partition key
// when its worst partition would cross the limits. Nothing is claimed where the figures do not
// bound the new partitions.
import { describe, expect, it } from "vitest";
import rule from "../../rules/query-unserved.js";
import { parseCql } from "../../src/cql/index.js";
import { applyFixes, runRule } from "../rule-tester.js";

const comments = `CREATE TABLE shop.comments_by_video (
  video_id uuid,
  comment_id timeuuid,
  user_id uuid,
  added_date timestamp,
  comment text,
  PRIMARY KEY ((video_id), comment_id)
);
`;

function manifest(volume: string[], query: string[]): string {
  return ["version: 1", "keyspace: shop", "tables:", "  comments_by_video:", ...volume.map((l) => `    ${l}`), "queries:", ...query.map((l) => `  ${l}`), ""].join("\n");
}

const latestByVideo = ["- id: latest-comments", "  select: [comment_id, comment]", '  where: { video_id: "=" }', "  order_by: { added_date: desc }", "  limit: 20"];
const hugeVideos = ["rows_per_partition: { avg: 300, max: 2_000_000 }", "growth: 50/day", "retention: forever", "columns: { comment: 300 }"];

describe("query-unserved: suggestions sized with the copied table's figures", () => {
  it("puts a time bucket in the partition key when the inherited worst partition crosses the limits", () => {
    const { findings } = runRule(rule, { cql: comments, manifest: manifest(hugeVideos, latestByVideo) });
    expect(findings).toHaveLength(1);
    const [finding] = findings;
    expect(finding!.messageId).toBe("sizedWithFix");
    expect(finding!.data?.sizing).toContain("Sized with the manifest's figures for comments_by_video");
    expect(finding!.message).toContain("Sized with the manifest's figures for comments_by_video");
    expect(finding!.message).toMatch(/worst partition would hold 2,018,250 rows/);
    expect(finding!.message).toContain("one partition per bucket");
    // The pattern's own LIMIT bounds the width from below, as for any table.
    expect(finding!.message).toContain("latest-comments reads the newest 20 rows");
    const fix = finding!.fix!;
    expect(fix.replacement).toMatch(/PRIMARY KEY \(\(video_id, (\w+)\), added_date, comment_id\)/);
    const bucket = /PRIMARY KEY \(\(video_id, (\w+)\)/.exec(fix.replacement)![1]!;
    // The bucket is explained where it is declared, and sized from the worst key, not the average.
    expect(fix.replacement).toContain(`-- ${bucket} = `);
    expect(finding!.message).toContain("for the worst key");
    expect(finding!.data?.table).toContain(`(video_id, ${bucket})`);
    const fixed = applyFixes(comments, [fix]);
    expect(parseCql(fixed).diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  });

  it("says nothing of size when the figures keep the partition under the limits", () => {
    const small = ["rows_per_partition: { avg: 30, max: 200 }", "retention: 365d"];
    const { findings } = runRule(rule, { cql: comments, manifest: manifest(small, latestByVideo) });
    expect(findings).toHaveLength(1);
    expect(findings[0]!.messageId).toBe("unservedWithFix");
    expect(findings[0]!.message).not.toContain("Sized with");
    expect(findings[0]!.fix!.replacement).toContain("PRIMARY KEY ((video_id), added_date, comment_id)");
  });

  it("claims nothing when the new partition key does not hold the copied table's", () => {
    // A partition per user gathers rows of many videos: the figures per video do not bound it.
    const byUser = ["- id: comments-by-user", "  select: [comment_id, comment]", '  where: { user_id: "=" }', "  order_by: { added_date: desc }"];
    const { findings } = runRule(rule, { cql: comments, manifest: manifest(hugeVideos, byUser) });
    expect(findings).toHaveLength(1);
    expect(findings[0]!.messageId).toBe("unservedWithFix");
    expect(findings[0]!.message).not.toContain("Sized with");
    expect(findings[0]!.fix!.replacement).toContain("PRIMARY KEY ((user_id), added_date, video_id, comment_id)");
  });

  it("leaves the suggestion alone without figures for the copied table", () => {
    const noTables = ["version: 1", "keyspace: shop", "queries:", ...latestByVideo.map((l) => `  ${l}`), ""].join("\n");
    const { findings } = runRule(rule, { cql: comments, manifest: noTables });
    expect(findings[0]!.messageId).toBe("unservedWithFix");
    expect(findings[0]!.message).not.toContain("Sized with");
    expect(findings[0]!.fix!.replacement).toContain("PRIMARY KEY ((video_id), added_date, comment_id)");
  });
});
