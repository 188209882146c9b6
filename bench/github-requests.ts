// Benchmark section: GitHub requests per review for pull requests changing 1, 10 and 100 files,
// counted through nock by bench/github.ts (the real Probot app and the real core). The design asks
// for a constant number of calls, not one per file or per finding. The count grows only with
// findings: GitHub takes at most 50 check-run annotations a request, and cql-review posts one
// annotation a finding, so the last row shows a pull request with hundreds of findings.
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { benchGitHubReview, type ExtraTables } from "./github.js";
import type { BenchRow } from "./run.js";

export const CHANGED_FILE_COUNTS = [1, 10, 100] as const;

/** Files of the sample repository bench/github.ts starts from: the manifest and the schema files. */
function sampleFileCount(): number {
  const schema = fileURLToPath(new URL("../../examples/iot/schema/", import.meta.url));
  return 1 + readdirSync(schema).length;
}

async function requestRow(changed: number, extras: ExtraTables, sample: number): Promise<BenchRow> {
  const result = await benchGitHubReview(Math.max(0, changed - sample), changed, extras);
  const updates = result.requestLines.filter((line) => line.startsWith("PATCH ") && line.includes("/check-runs/")).length;
  const pullRequest = extras === "unread" ? ", every new table unbounded and unread" : "";
  return {
    section: "github",
    metric: `requests per review, ${changed} changed ${changed === 1 ? "file" : "files"}${pullRequest}`,
    value: String(result.requests),
    note: `${result.requests - updates} + ${updates} check-run update${updates === 1 ? "" : "s"} carrying ${result.annotations} annotation${result.annotations === 1 ? "" : "s"} (50 a request); ${result.files} files in the repository; handler ${result.ms} ms, no network latency; check ${result.conclusion ?? "not completed"}; the installation token (cached an hour) not counted`,
  };
}

export async function benchGitHubRequests(): Promise<BenchRow[]> {
  const sample = sampleFileCount();
  const rows: BenchRow[] = [];
  for (const changed of CHANGED_FILE_COUNTS) rows.push(await requestRow(changed, "modelled", sample));
  rows.push(await requestRow(CHANGED_FILE_COUNTS[CHANGED_FILE_COUNTS.length - 1], "unread", sample));
  return rows;
}
