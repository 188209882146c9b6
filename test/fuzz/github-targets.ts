// Fuzz targets for what the GitHub layer posts: no mention, reference, autolink, image or raw HTML
// from repository or comment text (rendered by micromark's GFM); markers read only from our own
// last line; long comments and review bodies within GitHub's limits with the marker intact.
import assert from "node:assert/strict";
import fc from "fast-check";
import type { Finding } from "../../src/findings.js";
import { failureSummary } from "../../src/github/api/check-run.js";
import { explainReply, unknownCommandReply } from "../../src/github/worker/commands.js";
import { changeRequestBody, fallbackBody } from "../../src/github/api/review-comments.js";
import { isOurReviewBody, REVIEW_MARKER } from "../../src/github/api/review-marker.js";
import { COMMENT_MAX_LENGTH, fingerprintMarker, readFingerprintMarker, renderFindingComment } from "../../src/report/markdown.js";
import { escapeMarkdown, messageMarkdown } from "../../src/report/markdown-escape.js";
import { activeParts } from "../security/markdown-inert.js";
import { hostileText } from "./arbitraries.js";

const SHA = "a1b2c3d4e5f60718293a4b5c6d7e8f9012345678";

/** What an attacker puts in a name, a description or a comment to make GitHub act. */
const LINK_PIECES = [
  "@", "@octocat", "@acme/admins", "＠x", "#", "#12", "o/r#12", "GH-1", "deadbeef", "abc1234", "https://e.x", "HTTP://", "www.", "_www.e.x",
  "me@e.x", "mailto:", "xmpp:", "<img src=x>", "<a href=x>", "![i](u)", "[t](u)", "<!-- cql-review:fingerprint=decoy -->", REVIEW_MARKER,
  "`", "```", "|", "\\", "&", "&#64;", ":", "/", ".", "\n", " ", "a", "1", "_", "(", ")",
];
const linkText = fc.oneof(
  { weight: 3, arbitrary: fc.array(fc.constantFrom(...LINK_PIECES), { maxLength: 12 }).map((parts) => parts.join("")) },
  { weight: 1, arbitrary: hostileText },
);

function findingOf(message: string, file: string, fingerprint: string, extra: Partial<Finding> = {}): Finding {
  return {
    rule: "partition-unbounded-growth",
    severity: "error",
    message,
    location: { file, range: { start: { line: 2, column: 1, offset: 5 }, end: { line: 2, column: 4, offset: 8 } } },
    fingerprint,
    ...extra,
  };
}

function assertInert(markdown: string, where: string, options: Parameters<typeof activeParts>[1] = {}): void {
  const problems = activeParts(markdown, options);
  assert.deepEqual(problems, [], `${where} is not inert:\n${markdown}`);
}

export function mentionsProperty(): fc.IProperty<[string, string, string]> {
  return fc.property(linkText, linkText, linkText, (name, message, file) => {
    assertInert(escapeMarkdown(name), "escaped prose");
    assertInert(messageMarkdown(`${message} \`${name}\` ${name}`), "a message");
    const finding = findingOf(message, file, `r:${name}`, { data: { [name]: message }, fix: { file, range: findingOf("", "", "").location.range, replacement: name, description: name } });
    assertInert(renderFindingComment(finding), "an inline comment", { ownComments: [fingerprintMarker(finding.fingerprint)] });
    const plan = { comments: [], notInline: [finding], alreadyPosted: [] };
    assertInert(changeRequestBody(plan, "warning"), "the change-request body", { ownComments: [REVIEW_MARKER] });
    assertInert(fallbackBody([{ finding, path: file, line: 2, body: "" }]), "the fallback body", { ownComments: [REVIEW_MARKER] });
    assertInert(unknownCommandReply(name), "an unknown-command reply");
    assertInert(explainReply(name, escapeMarkdown(message), SHA), "an explain reply", { ownText: [SHA.slice(0, 7)] });
    assertInert(failureSummary(SHA, message, name), "a failure summary", { ownText: [SHA.slice(0, 7)] });
  });
}

export function markersProperty(): fc.IProperty<[string, string, string]> {
  return fc.property(linkText, linkText, fc.oneof(linkText, fc.string({ unit: "binary", maxLength: 30 })), (decoy, message, fingerprint) => {
    const planted = findingOf(`${message} \`${fingerprintMarker(decoy)}\` ${fingerprintMarker(decoy)}`, "a.cql", fingerprint, {
      data: { table: fingerprintMarker(decoy) },
      fix: { file: "a.cql", range: findingOf("", "", "").location.range, replacement: `${fingerprintMarker(decoy)}\n`, description: decoy },
    });
    for (const suggestion of [undefined, `${fingerprintMarker(decoy)}\n${message}`]) {
      const body = renderFindingComment(planted, suggestion === undefined ? {} : { suggestion });
      const read = readFingerprintMarker(body);
      assert.equal(read, readFingerprintMarker(fingerprintMarker(fingerprint)), "the comment's own fingerprint is read back");
    }
    // a marker anywhere but alone on the last line is not ours
    assert.equal(readFingerprintMarker(`${fingerprintMarker(decoy)}\n${message}x`), undefined);
    assert.equal(isOurReviewBody(`${REVIEW_MARKER}\n${message}x`), false);
    assert.equal(isOurReviewBody(`${message}\n\n${REVIEW_MARKER}`), true);
    // what a review body lists can never end it with a marker of its own
    const body = changeRequestBody({ comments: [], notInline: [findingOf(`${message}\n${REVIEW_MARKER}`, decoy, "x")], alreadyPosted: [] }, "warning");
    assert.ok(body.endsWith(`\n\n${REVIEW_MARKER}`) && !body.slice(0, -REVIEW_MARKER.length).includes(`\n${REVIEW_MARKER}\n`));
  });
}

export function longCommentsProperty(): fc.IProperty<[number, number, number, string]> {
  return fc.property(
    fc.integer({ min: 0, max: 120_000 }),
    fc.integer({ min: 0, max: 400 }),
    fc.integer({ min: 0, max: 30_000 }),
    linkText,
    (messageLength, dataCount, suggestionLines, piece) => {
      const unit = piece === "" ? "x" : piece;
      const message = unit.repeat(Math.ceil(messageLength / unit.length)).slice(0, messageLength);
      const data = Object.fromEntries(Array.from({ length: dataCount }, (_, i) => [`${unit}${i}`, unit.repeat(50)]));
      const finding = findingOf(message, "a.cql", `fp:${unit}`, { data });
      const body = renderFindingComment(finding, suggestionLines > 0 ? { suggestion: `${unit}\n`.repeat(suggestionLines) } : {});
      assert.ok(body.length <= COMMENT_MAX_LENGTH, `comment of ${body.length} characters`);
      assert.equal(readFingerprintMarker(body), finding.fingerprint);
      const many = Array.from({ length: 1 + (dataCount % 60) }, (_, i) => ({ finding: findingOf(message, `${unit}${i}`, `f${i}`), path: "a.cql", line: 2, body: "" }));
      for (const review of [fallbackBody(many), changeRequestBody({ comments: [], notInline: many.map((c) => c.finding), alreadyPosted: [] }, "warning")]) {
        assert.ok(review.length <= COMMENT_MAX_LENGTH, `review body of ${review.length} characters`);
        assert.ok(isOurReviewBody(review));
      }
    },
  );
}
