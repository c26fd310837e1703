// The site runs on the Node.js that `npm install` brings (docs/decisions/0079-node-24-from-npm.md):
// every npm script puts node_modules/.bin first on PATH, so `npm start`, `npm test` and this
// suite run on it, whatever Node runs npm itself.
import fs from "node:fs";
import { expect, it } from "vitest";

const pkg = JSON.parse(fs.readFileSync("package.json", "utf8")) as {
  dependencies: Record<string, string>;
  scripts: Record<string, string>;
  allowScripts?: Record<string, boolean>;
};

it("runs on the Node 24 that package.json brings", () => {
  expect(pkg.dependencies.node).toMatch(/^24\.\d+\.\d+$/);
  expect(process.versions.node).toBe(pkg.dependencies.node);
  // Its preinstall puts this platform's binary in place; npm runs it only when allowed.
  expect(pkg.allowScripts?.node).toBe(true);
});

it("starts the server with one malloc arena wherever it is started", () => {
  // Without it, Node 24 on glibc held 5-10x more memory while streaming files (the decision's
  // figures); the resilience suites start the server the same way (tests/support/server-process.ts).
  expect(pkg.scripts.start).toMatch(/^MALLOC_ARENA_MAX=1 node /);
  expect(fs.readFileSync("deploy/leasing-site.service", "utf8")).toMatch(
    /^Environment=MALLOC_ARENA_MAX=1$/m,
  );
  expect(fs.readFileSync("tests/support/server-process.ts", "utf8")).toContain(
    'MALLOC_ARENA_MAX: "1"',
  );
});
