// Suites that need something of the machine (PostgreSQL, a network address, root) skip without
// it on a developer's machine, reported as skipped; under CI (CI=true, set by .ci/run) a missing
// prerequisite is an error instead, so CI can never pass by skipping (docs/testing.md).

/**
 * For `describe.skipIf(missing(...))`: pass a description of what is missing (or a falsy value
 * when nothing is). Returns true to skip outside CI; throws under CI.
 */
export function missing(what: string | false | null | undefined): boolean {
  if (!what) return false;
  if (process.env.CI) throw new Error(`CI cannot run this suite: ${what}. CI skips nothing.`);
  return true;
}
