// Browser tests (tests/e2e) with Playwright Test on Debian's Chromium; nothing is downloaded.
import { defineConfig } from "@playwright/test";
import { CHROMIUM_FLAGS, CHROMIUM_FOR_TESTS } from "./scripts/shared/chromium";

/**
 * Files that check only how pages render (axe, screenshots, design tokens, the CSP), whatever
 * the database: the PostgreSQL pass of `.ci/run` leaves them out (`E2E_RENDER_CHECKS=off`), as
 * the embedded-database pass of `npm test` has run them (docs/testing.md, "Browser tests").
 */
const RENDER_CHECKS = [
  "**/accessibility.test.ts",
  "**/admin-accessibility.test.ts",
  "**/design.test.ts",
  "**/visual.test.ts",
  "**/content-security-policy.test.ts",
];

export default defineConfig({
  testDir: "tests/e2e",
  testMatch: "**/*.test.ts",
  testIgnore: process.env.E2E_RENDER_CHECKS === "off" ? RENDER_CHECKS : undefined,
  // One test server and database per worker for the whole run (global-setup.ts); a worker's test
  // files run one at a time on its own server, since they change its data (listings, grants).
  // Two workers: the tests mostly wait (pages, timers, e-mail), so on a 2-core machine two at a
  // time nearly halve the run (docs/decisions/0070-tests-two-at-a-time.md).
  globalSetup: "./tests/e2e/global-setup.ts",
  workers: Number(process.env.E2E_WORKERS ?? 2),
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
    launchOptions: { executablePath: CHROMIUM_FOR_TESTS, args: CHROMIUM_FLAGS },
    // A step that cannot happen fails in seconds, not after the test's whole minute.
    actionTimeout: 10_000,
    navigationTimeout: 30_000,
    screenshot: "only-on-failure",
  },
});
