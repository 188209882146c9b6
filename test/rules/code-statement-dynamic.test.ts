import { describe, expect, it } from "vitest";
import { APP, DAO } from "../code/app-fixtures.js";
import { findingsAt, reviewWithCode } from "../code/review-with-code.js";

const RULE = "code-statement-dynamic";

describe(RULE, () => {
  it("lists a statement with a value concatenated in, with the reason, at its first literal", async () => {
    const result = await reviewWithCode(APP);
    expect(findingsAt(result, RULE)).toEqual([`${RULE} ${DAO}:27`]);
    const finding = result.findings.find((f) => f.rule === RULE)!;
    expect(finding.message).toContain("tag is not a constant of the code read");
    expect(finding.message).toContain("starting `SELECT video_id FROM videos WHERE tags");
  });

  it("says nothing about computed strings that do not start like a statement", async () => {
    const result = await reviewWithCode({
      "src/app.py": `from cassandra.cluster import Cluster
session = Cluster().connect()

def run(statement_text, name):
    session.execute(statement_text)
    session.execute(f"{name} is not CQL")
`,
    });
    expect(findingsAt(result, RULE)).toEqual([]);
  });

  it("says what answers a fixed DSE Search query instead of calling it built at run time", async () => {
    const result = await reviewWithCode({
      "app/search.py": `from dse.cluster import Cluster

class Search:
    def __init__(self, session):
        self.by_text = session.prepare("SELECT videoid, name FROM videos WHERE solr_query = ?")
`,
    });
    const finding = result.findings.find((f) => f.rule === RULE)!;
    expect(finding.message).toContain("that is not reviewed: a DSE Search query on solr_query");
    expect(finding.message).not.toContain("built at run time");
  });
});
