// The build the main-thread budget is compared with (docs/testing.md, "Benchmarks": Lighthouse's TBT is noisy on
// this machine, so a figure means something only beside the same figure for a known build,
// measured in the same run). The reference is checked out as a detached git worktree under
// bench-results/, installed and built once, and reused by later runs.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";

/**
 * The last build before the five issues that cost the public pages their TBT (487490a), or the
 * commit in BENCH_REFERENCE (to compare a change with the build just before it).
 */
export const REFERENCE_COMMIT = process.env.BENCH_REFERENCE || "487490a";

export type Reference = { commit: string; dir: string } | { commit: string; error: string };

/** Checks out, installs and builds `commit` (once); says why when it cannot. */
export function prepareReference(commit = REFERENCE_COMMIT): Reference {
  const dir = path.resolve("bench-results", `reference-${commit}`);
  try {
    if (!existsSync(path.join(dir, "build/server/index.js"))) {
      if (!existsSync(dir)) {
        execFileSync("git", ["worktree", "add", "--detach", "--force", dir, commit], {
          stdio: ["ignore", "ignore", "pipe"],
        });
      }
      execFileSync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], {
        cwd: dir,
        stdio: ["ignore", "ignore", "inherit"],
      });
      execFileSync("npx", ["react-router", "build"], {
        cwd: dir,
        stdio: ["ignore", "ignore", "inherit"],
        env: { ...process.env, NODE_ENV: "production" },
      });
    }
    return { commit, dir };
  } catch (error) {
    const reason =
      error instanceof Error && "stderr" in error && error.stderr
        ? String(error.stderr).trim().split("\n")[0]
        : String(error);
    return { commit, error: `could not build ${commit}: ${reason}` };
  }
}
