// Benchmark section: GitHub requests per review for pull requests changing 1, 10 and 100 files,
// counted through nock by bench/github.ts (the real Probot app and the real core). DESIGN §6 asks
// for a constant number of calls, not one per file or per finding.
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { benchGitHubReview } from "./github.js";
import type { BenchRow } from "./run.js";

export const CHANGED_FILE_COUNTS = [1, 10, 100] as const;

/** Files of the sample repository bench/github.ts starts from: the manifest and the schema files. */
function sampleFileCount(): number {
  const schema = fileURLToPath(new URL("../../examples/iot/schema/", import.meta.url));
  return 1 + readdirSync(schema).length;
}

export async function benchGitHubRequests(): Promise<BenchRow[]> {
  const sample = sampleFileCount();
  const rows: BenchRow[] = [];
  for (const changed of CHANGED_FILE_COUNTS) {
    const result = await benchGitHubReview(Math.max(0, changed - sample), changed);
    // GitHub takes at most 50 annotations per request: each further 50 findings cost one more check-run update.
    const updates = result.requestLines.filter((line) => line.startsWith("PATCH ") && line.includes("/check-runs/")).length;
    rows.push({
      section: "github",
      metric: `requests per review, ${changed} changed ${changed === 1 ? "file" : "files"}`,
      value: String(result.requests),
      note: `${result.requests - updates} + ${updates} check-run update${updates === 1 ? "" : "s"} (annotations, 50 a request); ${result.files} files in the repository; handler ${result.ms} ms, no network latency; check ${result.conclusion ?? "not completed"}; the installation token (cached an hour) not counted`,
    });
  }
  return rows;
}
