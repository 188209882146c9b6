// The entry of a review thread (review-threads.ts starts it from the built dist/ file): runs the
// core on the files the main thread collected, and hands back plain data.
import { threadId } from "node:worker_threads";
import { skipGrammarValidation } from "../../cql/parser.js";
import { analyseInProcess, toPortable, type AnalysisRequest, type PortableAnalysis } from "./analysis.js";
import { explainInProcess } from "./commands.js";
import { realCore } from "./core.js";
import type { ExplainRequest } from "../port.js";

// The test suite validates the grammar; each new thread need not.
skipGrammarValidation();

export type ThreadJob = { kind: "review"; request: AnalysisRequest } | { kind: "explain"; request: ExplainRequest } | { kind: "warm" };

export default async function runReviewJob(job: ThreadJob): Promise<PortableAnalysis | string | number> {
  if (job.kind === "review") return toPortable(await analyseInProcess(realCore, job.request));
  if (job.kind === "warm") return warmUp();
  return explainInProcess(realCore, job.request);
}

/**
 * A review of a one-table model: the thread's first real review would otherwise pay for building
 * the CQL parser and compiling the core's hot paths (about half a second each thread). Answers
 * the thread's id, so the caller can tell that every thread took one.
 */
async function warmUp(): Promise<number> {
  const schema = { path: "schema/warm-up.cql", content: "CREATE TABLE warm_up.events (device uuid, at timestamp, kind text, PRIMARY KEY ((device), at));\n" };
  const analysis = await analyseInProcess(realCore, {
    files: [schema],
    baseFiles: [],
    collectionFindings: [],
    changedFiles: [{ path: schema.path, status: "added" }],
    postedComments: [],
  });
  if (toPortable(analysis).summaries.length === 0) throw new Error("the warm-up review rendered no summary");
  return threadId;
}
