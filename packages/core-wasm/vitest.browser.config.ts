// Browser run of the same test files, in headless Chromium through Playwright. Playwright's own
// browser download cannot work on our machines, so this drives Debian's /usr/bin/chromium
// (scripts/ensure-chromium.sh installs it; EVALKERN_CHROMIUM overrides the path).
import { fileURLToPath } from "node:url";
import { playwright } from "@vitest/browser-playwright";
import { defineConfig } from "vitest/config";

// The golden files live in testdata/ at the workspace root (test/shared.ts reads them with vitest's
// `readFile` command, which only serves paths under `server.fs.allow`). The workspace root holds both
// them and node_modules/.pnpm, so it is the one allowed folder.
const workspaceRoot = fileURLToPath(new URL("../../", import.meta.url));

export default defineConfig({
  server: {
    fs: { allow: [workspaceRoot] },
  },
  define: {
    // There is no process.env in the page; test/runtime.ts reads this instead.
    "globalThis.__EVALKERN_TEST_RUNTIME__": JSON.stringify("browser"),
  },
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    browser: {
      enabled: true,
      headless: true,
      provider: playwright({
        launchOptions: {
          executablePath: process.env.EVALKERN_CHROMIUM ?? "/usr/bin/chromium",
          args: [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
          ],
        },
      }),
      instances: [{ browser: "chromium" }],
      screenshotFailures: false,
    },
  },
});
