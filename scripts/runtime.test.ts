// The site runs on the Node.js that `npm install` brings (docs/decisions/0079-node-24-from-npm.md):
// every npm script puts node_modules/.bin first on PATH, so `npm start`, `npm test` and this
// suite run on it, whatever Node runs npm itself.
import fs from "node:fs";
import { expect, it } from "vitest";

const pkg = JSON.parse(fs.readFileSync("package.json", "utf8")) as {
  dependencies: Record<string, string>;
  allowScripts?: Record<string, boolean>;
};

it("runs on the Node 24 that package.json brings", () => {
  expect(pkg.dependencies.node).toMatch(/^24\.\d+\.\d+$/);
  expect(process.versions.node).toBe(pkg.dependencies.node);
  // Its preinstall puts this platform's binary in place; npm runs it only when allowed.
  expect(pkg.allowScripts?.node).toBe(true);
});
