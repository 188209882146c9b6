// Suppression comments in application code: above the statement a finding is about, with the
// same rules as in .cql files (a reason is needed, one that silences nothing is reported).
import { describe, expect, it } from "vitest";
import { APP, DAO, DAO_JAVA, QUERIES } from "./app-fixtures.js";
import { findingsAt, reviewWithCode } from "./review-with-code.js";

const RULE = "code-statement-not-in-manifest";
const MANIFEST = { "access-patterns.yaml": "version: 1\nkeyspace: shop\n" };

/** The DAO with a comment put on the line above the one that contains `marker`. */
function daoWith(marker: string, comment: string): string {
  const lines = DAO_JAVA.split("\n");
  const index = lines.findIndex((line) => line.includes(marker));
  const indent = /^\s*/.exec(lines[index]!)![0];
  lines.splice(index, 0, `${indent}${comment}`);
  return lines.join("\n");
}

describe("cql-review-disable-next-line in application code", () => {
  it("silences the statement run on the next line, and only that one", async () => {
    const before = findingsAt(await reviewWithCode({ ...APP, ...MANIFEST }), RULE);
    const dao = daoWith('"SELECT video_id FROM videos WHERE title', `// cql-review-disable-next-line ${RULE} -- run by the nightly export only`);
    const after = await reviewWithCode({ ...APP, ...MANIFEST, [DAO]: dao });
    expect(before).toContain(`${RULE} ${DAO}:16`);
    expect(findingsAt(after, RULE)).toEqual(before.filter((at) => at !== `${RULE} ${DAO}:16`).map((at) => at.replace(/:(\d+)$/, (_, line) => `:${Number(line) > 16 ? Number(line) + 1 : line}`)));
    expect(findingsAt(after, "suppression-unused")).toEqual([]);
    expect(findingsAt(after, "suppression-missing-reason")).toEqual([]);
  });

  it("follows a constant to the file it is written in", async () => {
    const dao = daoWith("Queries.FIND_BY_USER", `/* cql-review-disable-next-line ${RULE} -- described in the ops runbook */`);
    const result = await reviewWithCode({ ...APP, ...MANIFEST, [DAO]: dao });
    expect(findingsAt(result, RULE)).not.toContain(`${RULE} ${QUERIES}:6`);
    expect(findingsAt(result, "suppression-unused")).toEqual([]);
  });

  it("needs a reason, and reports one that silences nothing", async () => {
    const noReason = daoWith("TRUNCATE videos", `// cql-review-disable-next-line ${RULE}`);
    const result = await reviewWithCode({ ...APP, ...MANIFEST, [DAO]: noReason });
    expect(findingsAt(result, "suppression-missing-reason")).toEqual([`suppression-missing-reason ${DAO}:31`]);
    const nothingBelow = daoWith("public void reset()", `// cql-review-disable-next-line ${RULE} -- not a statement`);
    const unused = await reviewWithCode({ ...APP, ...MANIFEST, [DAO]: nothingBelow });
    expect(findingsAt(unused, "suppression-unused")).toEqual([`suppression-unused ${DAO}:30`]);
  });

  it("reads Python's # comments", async () => {
    const python = `from cassandra.cluster import Cluster

session = Cluster().connect("shop")


def titles():
    # cql-review-disable-next-line ${RULE} -- a one-off admin script
    return session.execute("SELECT title FROM videos")


def by_id(video_id):
    return session.execute("SELECT title FROM videos WHERE video_id = %s", [video_id])
`;
    const result = await reviewWithCode({ "schema/videos.cql": APP["schema/videos.cql"], ...MANIFEST, "admin/videos.py": python });
    expect(findingsAt(result, RULE)).toEqual([`${RULE} admin/videos.py:12`]);
  });
});
