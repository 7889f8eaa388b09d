import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // every e2e test spawns the CLI, which starts its own worker threads: keep to the machine's 2 cores
    maxWorkers: 2,
  },
});
