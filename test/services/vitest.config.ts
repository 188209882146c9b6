// `npm run test:services`: the tests that need a real server installed on the machine (today
// Debian's redis-server, started by each test on a free loopback port). Kept out of `npm test`,
// whose files end in .test.ts, so the README's two commands pass on a machine with only Node;
// .ci/run installs the services (.ci/install-services) and runs this after them.
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  root: fileURLToPath(new URL("../..", import.meta.url)),
  test: {
    include: ["test/services/**/*.service.ts"],
    setupFiles: ["test/setup.ts"],
    maxWorkers: 2,
    testTimeout: 30_000,
  },
});
