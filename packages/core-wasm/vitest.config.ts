// Node and Deno runs of the test suite (Deno runs vitest itself, see scripts/test-all.mjs). The browser run is
// vitest.browser.config.ts; scripts/test-all.mjs runs all three.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Golden suites read multi-MB files and loop over thousands of rows.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // 2-core machines: one worker per core at most.
    maxWorkers: 2,
  },
});
