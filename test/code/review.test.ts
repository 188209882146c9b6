// The code's statements in the review: planned and checked like manifest entries, with findings
// on the code line, and a manifest entry that points at one lending it its id and rate.
import { describe, expect, it } from "vitest";
import { APP, DAO, QUERIES } from "./app-fixtures.js";
import { findingsAt, reviewWithCode } from "./review-with-code.js";

describe("review with application code", () => {
  it("plans each SELECT of the code and puts the query rules' findings on its line", async () => {
    const result = await reviewWithCode({ ...APP, "access-patterns.yaml": "version: 1\nkeyspace: shop\n" });
    const queries = result.queries.map((q) => [q.id, q.location.file, q.location.range.start.line, q.plan.verdict]);
    expect(queries).toEqual([
      [`${DAO}#VideoDao.findByUser`, QUERIES, 6, "single-partition"],
      [`${DAO}#VideoDao.findByTitle`, DAO, 16, "needs-allow-filtering"],
    ]);
    expect(findingsAt(result, "query-needs-allow-filtering")).toEqual([`query-needs-allow-filtering ${DAO}:16`]);
  });

  it("takes the statement of a code: entry from the code, with the entry's id and rate", async () => {
    const manifest = `version: 1
keyspace: shop
queries:
  - id: videos-of-user
    code: ${DAO}#VideoDao.findByUser
    rate: 300/s
`;
    const result = await reviewWithCode({ ...APP, "access-patterns.yaml": manifest });
    const entry = result.manifest!.queries.find((q) => q.id === "videos-of-user")!;
    expect(entry.ratePerSecond).toBe(300);
    expect(entry.form === "cql" && entry.cql).toBe("SELECT video_id, title FROM videos_by_user WHERE user_id = ?");
    expect(entry.location.file).toBe(QUERIES);
    expect(result.queries.map((q) => q.id)).not.toContain(`${DAO}#VideoDao.findByUser`);
  });

  it("reads no grammar and adds nothing when the change has no code that names a driver", async () => {
    const result = await reviewWithCode({ "schema/videos.cql": APP["schema/videos.cql"], "src/util.py": "print('SELECT 1')\n" });
    expect(result.model.code?.extraction.statements ?? []).toEqual([]);
    expect(result.manifest).toBeUndefined();
  });
});
