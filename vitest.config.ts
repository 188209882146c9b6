import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    setupFiles: ["test/setup.ts"],
    // Property tests and end-to-end tests with nock are CPU-bound; two workers match CI's two cores.
    maxWorkers: 2,
    testTimeout: 30_000,
  },
});
