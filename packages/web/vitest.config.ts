import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 180_000,
    hookTimeout: 180_000,
    // the e2e test drives one Chromium whose workers take the machine's cores
    maxWorkers: 1,
    fileParallelism: false,
  },
});
