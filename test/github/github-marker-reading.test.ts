// Markers are read only where the app writes them: the body's last line, well-formed, alone.
import { describe, expect, it } from "vitest";
import type { Finding } from "../../src/findings.js";
import { isOurReviewBody, REVIEW_MARKER } from "../../src/github/api/review-marker.js";
import { sameAccount } from "../../src/github/worker/review-pull-request.js";
import { fingerprintMarker, readFingerprintMarker, renderFindingComment } from "../../src/report/markdown.js";

function finding(overrides: Partial<Finding> = {}): Finding {
  return {
    rule: "partition-unbounded-growth",
    severity: "error",
    message: "Partitions grow without bound.",
    location: { file: "schema/a.cql", range: { start: { line: 1, column: 1, offset: 0 }, end: { line: 1, column: 5, offset: 4 } } },
    fingerprint: "real",
    ...overrides,
  };
}

describe("the fingerprint marker", () => {
  it("is read from the comment's last line only: a decoy in a table name is not", () => {
    const decoy = "`<!-- cql-review:fingerprint=decoy -->`";
    const body = renderFindingComment(finding({ message: `Table ${decoy} grows.`, data: { table: "<!-- cql-review:fingerprint=decoy -->" } }));

    expect(readFingerprintMarker(body)).toBe("real");
    expect(readFingerprintMarker(`${fingerprintMarker("decoy")}\n\nreal text`)).toBeUndefined();
    expect(readFingerprintMarker(`text ${fingerprintMarker("decoy")}`)).toBeUndefined();
  });

  it("is refused when malformed", () => {
    for (const line of [
      "<!-- cql-review:fingerprint=a b -->",
      "<!-- cql-review:fingerprint=a%ZZ -->",
      "<!-- cql-review:fingerprint=a -->x",
      "<!--  cql-review:fingerprint=a -->",
    ]) {
      expect(readFingerprintMarker(`body\n\n${line}`), line).toBeUndefined();
    }
    expect(readFingerprintMarker(`body\n\n${fingerprintMarker("a-b--c -->")}\r\n`)).toBe("a-b--c -->");
  });

  it("stays the last line of a comment that has to be cut", () => {
    const long = finding({ message: "x".repeat(200_000), data: Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`k${i}`, "v".repeat(400)])) });
    const body = renderFindingComment(long, { suggestion: "y\n".repeat(30_000) });

    expect(body.length).toBeLessThanOrEqual(65_000);
    expect(readFingerprintMarker(body)).toBe("real");
  });
});

describe("the review marker", () => {
  it("counts only as the body's last line", () => {
    expect(isOurReviewBody(`**cql-review** found 1 new finding.\n\n${REVIEW_MARKER}`)).toBe(true);
    expect(isOurReviewBody(`**cql-review** found 1 new finding.\n\n${REVIEW_MARKER}\n`)).toBe(true);
    expect(isOurReviewBody(`> ${REVIEW_MARKER}\nPlease add a TTL.`)).toBe(false);
    expect(isOurReviewBody(`${REVIEW_MARKER}\nPlease add a TTL.`)).toBe(false);
    expect(isOurReviewBody(`\`${REVIEW_MARKER}\``)).toBe(false);
  });
});

describe("whose content is ours", () => {
  it("logins compare as GitHub names bots in GraphQL and REST, case-insensitively", () => {
    expect(sameAccount("cql-review", "cql-review[bot]")).toBe(true);
    expect(sameAccount("CQL-Review[bot]", "cql-review")).toBe(true);
    expect(sameAccount("cql-review-evil", "cql-review[bot]")).toBe(false);
    expect(sameAccount("other-linter", "cql-review[bot]")).toBe(false);
  });

});
