// The Lambda worker's review thread (bundled as dist/lambda/review-thread.mjs): the same job
// handler as the server's piscina threads, served over the thread's port one job at a time.
import { parentPort } from "node:worker_threads";
import runReviewJob, { type ThreadJob } from "../github/worker/review-thread.js";

export type ThreadAnswer = { result: unknown } | { error: { name: string; message: string; stack?: string } };

parentPort?.on("message", async (job: ThreadJob) => {
  let answer: ThreadAnswer;
  try {
    answer = { result: await runReviewJob(job) };
  } catch (error) {
    answer = { error: error instanceof Error ? { name: error.name, message: error.message, ...(error.stack ? { stack: error.stack } : {}) } : { name: "Error", message: String(error) } };
  }
  parentPort?.postMessage(answer);
});
