// GitLab Code Quality JSON (`cql-review check --format codeclimate`): the subset of the Code
// Climate issue format GitLab reads, as documented in "Code Quality" of the GitLab docs
// (https://docs.gitlab.com/ci/testing/code_quality/#code-quality-report-format): an array of
// issues with `description`, `check_name`, `fingerprint`, `severity` and `location.path` +
// `location.lines.begin`. GitLab compares the fingerprints of the merge request's report with the
// target branch's to tell new issues from resolved ones, so they come from our fingerprints (rule +
// entity, never line numbers): a finding keeps its issue when unrelated lines move.
import { jsonWithoutControls } from "./controls.js";
import { createHash } from "node:crypto";
import { compareFindings, type Finding, type Severity } from "../findings.js";
import type { Review } from "../review.js";

/** GitLab's severities are info, minor, major, critical and blocker. */
const GITLAB_SEVERITY: Record<Severity, "major" | "minor" | "info"> = { error: "major", warning: "minor", info: "info" };

export interface CodeClimateIssue {
  description: string;
  check_name: string;
  fingerprint: string;
  severity: "major" | "minor" | "info";
  location: { path: string; lines: { begin: number; end: number } };
}

function md5(text: string): string {
  return createHash("md5").update(text).digest("hex");
}

export function codeClimateIssues(findings: readonly Finding[]): CodeClimateIssue[] {
  // GitLab shows only the first issue of a fingerprint: a second finding with the same one (two
  // locations of one problem) gets an ordinal so that it is not hidden.
  const seen = new Map<string, number>();
  return [...findings].sort(compareFindings).map((finding) => {
    const count = seen.get(finding.fingerprint) ?? 0;
    seen.set(finding.fingerprint, count + 1);
    const { start, end } = finding.location.range;
    const begin = Math.max(1, start.line);
    return {
      description: finding.message,
      check_name: finding.rule,
      fingerprint: md5(count === 0 ? finding.fingerprint : `${finding.fingerprint}#${count}`),
      severity: GITLAB_SEVERITY[finding.severity],
      location: { path: finding.location.file, lines: { begin, end: Math.max(begin, end.line) } },
    };
  });
}

export function renderCodeClimate(review: Review): string {
  return `${jsonWithoutControls(JSON.stringify(codeClimateIssues(review.findings), null, 2))}\n`;
}
