// Code comments cite `docs/` sections, never "issue N" of a tracker that is not in the
// repository.
import { spawnSync } from "node:child_process";
import { expect, it } from "vitest";

it("no comment in app/ or server/ points to an issue number", () => {
  const grep = spawnSync(
    "git",
    ["grep", "-n", "-i", "-E", "issues? #?[0-9]", "--", "app", "server"],
    {
      encoding: "utf8",
    },
  );
  // git grep exits 1 when nothing matches, 0 with the lines it found.
  expect(grep.status === 0 ? grep.stdout.trim().split("\n") : []).toEqual([]);
  expect(grep.status).toBe(1);
});
