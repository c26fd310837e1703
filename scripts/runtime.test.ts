// The Node.js versions the site runs on (docs/decisions/0079-node-24-from-npm.md): CI runs
// `npm test` on Node 24 and its other suites on the machine's Node, and says which it asked for.
import fs from "node:fs";
import { expect, it } from "vitest";

const pkg = JSON.parse(fs.readFileSync("package.json", "utf8")) as {
  engines: { node: string };
  scripts: Record<string, string>;
};

it("runs on the Node.js CI asked for, one the site supports", () => {
  if (process.env.CI_NODE_VERSION) expect(process.version).toBe(process.env.CI_NODE_VERSION);
  expect(pkg.engines.node).toBe(">=20.19");
  const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
  expect(major > 20 || (major === 20 && minor >= 19)).toBe(true);
});

it("starts the server with one malloc arena wherever it is started", () => {
  // Without it, Node 24 on glibc held 5-10x more memory while streaming files (the decision's
  // figures); the resilience suites and the benchmark start the server the same way.
  expect(pkg.scripts.start).toMatch(/^MALLOC_ARENA_MAX=1 node /);
  expect(fs.readFileSync("deploy/leasing-site.service", "utf8")).toMatch(
    /^Environment=MALLOC_ARENA_MAX=1$/m,
  );
  for (const file of ["tests/support/server-process.ts", "scripts/bench/server.ts"]) {
    expect(fs.readFileSync(file, "utf8"), file).toContain('MALLOC_ARENA_MAX: "1"');
  }
});
