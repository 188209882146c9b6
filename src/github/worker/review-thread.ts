// The entry of a review thread (review-threads.ts starts it from the built dist/ file): runs the
// core on the files the main thread collected, and hands back plain data.
import { skipGrammarValidation } from "../../cql/parser.js";
import { analyseInProcess, toPortable, type AnalysisRequest, type PortableAnalysis } from "./analysis.js";
import { explainInProcess } from "./commands.js";
import { realCore } from "./core.js";
import type { ExplainRequest } from "../port.js";

// The test suite validates the grammar; each new thread need not.
skipGrammarValidation();

export type ThreadJob = { kind: "review"; request: AnalysisRequest } | { kind: "explain"; request: ExplainRequest };

export default async function runReviewJob(job: ThreadJob): Promise<PortableAnalysis | string> {
  if (job.kind === "review") return toPortable(await analyseInProcess(realCore, job.request));
  return explainInProcess(realCore, job.request);
}
