// A renamed rule keeps its former id working where teams wrote it: config, comments, the manifest.
import { describe, expect, it } from "vitest";
import { review } from "../../src/review.js";
import { canonicalRuleId, RULE_ALIASES } from "../../src/rule-engine/rule-aliases.js";
import { rules } from "../../rules/index.js";

const RULE = "table-time-series-retention";
const FORMER = "table-time-series-without-ttl";

// A time series with no TTL: the rule reports it.
const events = (before = "") => `CREATE KEYSPACE ops WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3};
${before}CREATE TABLE ops.events_by_host (
  host text,
  day date,
  at timestamp,
  message text,
  PRIMARY KEY ((host, day), at)
);
`;

function findingsOf(files: Record<string, string>, config?: string): string[] {
  const reviewed = review({
    files: Object.entries(files).map(([path, content]) => ({ path, content })),
    ...(config ? { configFile: { path: ".github/cql-review.yml", content: config } } : {}),
  });
  return reviewed.findings.map((finding) => finding.rule);
}

describe("rule aliases", () => {
  it("name rules that exist, under ids that no rule uses any more", () => {
    const ids = new Set(rules.map((rule) => rule.meta.id));
    for (const [former, current] of RULE_ALIASES) {
      expect(ids.has(current)).toBe(true);
      expect(ids.has(former)).toBe(false);
    }
    expect(canonicalRuleId(FORMER)).toBe(RULE);
    expect(canonicalRuleId("query-full-scan")).toBe("query-full-scan");
  });

  it("the rule reports the table under its current id", () => {
    expect(findingsOf({ "schema/events.cql": events() })).toContain(RULE);
  });

  it("a suppression comment with the former id silences the finding, and is not reported unused", () => {
    const found = findingsOf({ "schema/events.cql": events(`-- cql-review-disable-next-line ${FORMER} -- kept by the archive job\n`) });
    expect(found).not.toContain(RULE);
    expect(found).not.toContain("suppression-unused");
  });

  it("the config's rules map turns the rule off by its former id, without calling the id unknown", () => {
    const found = findingsOf({ "schema/events.cql": events() }, `rules:\n  ${FORMER}: off\n`);
    expect(found).not.toContain(RULE);
    expect(found).not.toContain("config-invalid");
  });

  it("the current id wins when the config names the rule both ways", () => {
    const found = findingsOf({ "schema/events.cql": events() }, `rules:\n  ${FORMER}: off\n  ${RULE}: error\n`);
    expect(found).toContain(RULE);
  });
});
