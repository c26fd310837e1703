import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const alias = { "~": fileURLToPath(new URL("./app", import.meta.url)) };

// The long resilience suites (fuzz, crash, load): `npm run test:resilience`, after `npm test`
// (they need the production build). Not part of the normal `vitest run`, whose config does not
// include tests/. One file at a time: each measures the machine it runs on.
export default defineConfig({
  resolve: { alias },
  test: {
    name: "resilience",
    include: ["tests/resilience/*.test.ts"],
    environment: "node",
    // New embedded databases start from one initdb template (docs/testing.md).
    globalSetup: ["tests/support/pglite-template.ts"],
    fileParallelism: false,
    testTimeout: 300_000,
    hookTimeout: 120_000,
  },
});
