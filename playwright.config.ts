// Browser tests (tests/e2e) with Playwright Test on Debian's Chromium; nothing is downloaded.
import { defineConfig } from "@playwright/test";
import { CHROMIUM, CHROMIUM_FLAGS } from "./scripts/shared/chromium";

export default defineConfig({
  testDir: "tests/e2e",
  testMatch: "**/*.test.ts",
  // One test server and one database for the whole run (global-setup.ts); the tests change
  // shared data (listings, admin grants), so they run one at a time.
  globalSetup: "./tests/e2e/global-setup.ts",
  workers: 1,
  fullyParallel: false,
  // A stray test.only would silently leave every other test out of `npm test`.
  forbidOnly: true,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 5_000 },
  reporter: [["list"]],
  outputDir: "test-results",
  use: {
    browserName: "chromium",
    launchOptions: { executablePath: CHROMIUM, args: CHROMIUM_FLAGS },
    // A step that cannot happen fails in seconds, not after the test's whole minute.
    actionTimeout: 10_000,
    navigationTimeout: 30_000,
    screenshot: "only-on-failure",
  },
});
