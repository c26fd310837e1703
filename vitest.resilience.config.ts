import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const alias = { "~": fileURLToPath(new URL("./app", import.meta.url)) };

// One seed for the whole run, picked here so that every suite's process inherits the same one
// (tests/support/seeded-random.ts; docs/decisions/0036-resilience-suites.md).
process.env.RESILIENCE_SEED ??= String(Date.now() % 2 ** 31);
console.log(`resilience: RESILIENCE_SEED=${process.env.RESILIENCE_SEED} replays this run`);

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
