import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const alias = { "~": fileURLToPath(new URL("./app", import.meta.url)) };

// Unit and integration tests; the browser tests (tests/e2e) run with Playwright Test.
export default defineConfig({
  resolve: { alias },
  test: {
    // One file more than the cores (Vitest's default is one fewer): most suites wait on
    // PostgreSQL, servers and child processes, and each uses its own schema, data directory and
    // ports (docs/decisions/0070-tests-two-at-a-time.md: 3 files on 2 cores, 14% faster than 2).
    maxWorkers: availableParallelism() + 1,
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          include: [
            "app/**/*.test.{ts,tsx}",
            "server/**/*.test.ts",
            "scripts/**/*.test.ts",
            "tests/deploy/**/*.test.ts",
          ],
          environment: "node",
          // New embedded databases start from one initdb template (docs/testing.md).
          globalSetup: ["tests/support/pglite-template.ts"],
          // The app's JSON logs (app/shared/logger.server.ts): warnings and errors only, so test
          // output stays readable; tests that read logs capture them (tests/support/logs.ts).
          env: { LOG_LEVEL: "warn" },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
