// `npm run test:browser`: the reviews rendered as GitHub shows them, in headless Chromium. Kept out
// of `npm test` (whose files end in .test.ts) so the README's commands need no browser; this run
// fails, with how to install Chromium, when there is none.
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  root: fileURLToPath(new URL("../..", import.meta.url)),
  test: {
    include: ["test/browser/**/*.browser.ts"],
    // One browser, pages rendered one after another: Mermaid layout is CPU-bound.
    maxWorkers: 1,
    testTimeout: 180_000,
    hookTimeout: 60_000,
  },
});
