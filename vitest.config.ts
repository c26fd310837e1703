import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const alias = { "~": fileURLToPath(new URL("./app", import.meta.url)) };

// Unit and integration tests; the browser tests (tests/e2e) run with Playwright Test.
export default defineConfig({
  resolve: { alias },
  test: {
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
