import { describe, expect, it } from "vitest";
import { APP, DAO } from "../code/app-fixtures.js";
import { findingsAt, reviewWithCode } from "../code/review-with-code.js";

const RULE = "manifest-query-not-in-code";

describe(RULE, () => {
  it("reports a code: reference to no statement, and an entry whose CQL no code runs", async () => {
    const manifest = `version: 1
keyspace: shop
queries:
  - id: videos-of-user
    code: ${DAO}#VideoDao.findByUserId
    rate: 300/s
  - id: all-videos
    cql: SELECT video_id FROM videos WHERE video_id = ?
`;
    const result = await reviewWithCode({ ...APP, "access-patterns.yaml": manifest });
    expect(findingsAt(result, RULE)).toEqual([`${RULE} access-patterns.yaml:5`, `${RULE} access-patterns.yaml:7`]);
    expect(result.findings.find((f) => f.rule === RULE)!.message).toContain("VideoDao.java#VideoDao.findByUserId");
  });

  it("says nothing when no code was read", async () => {
    const manifest = `version: 1
keyspace: shop
queries:
  - id: all-videos
    cql: SELECT video_id FROM videos WHERE video_id = ?
`;
    const result = await reviewWithCode({ "schema/videos.cql": APP["schema/videos.cql"], "access-patterns.yaml": manifest });
    expect(findingsAt(result, RULE)).toEqual([]);
  });
});
