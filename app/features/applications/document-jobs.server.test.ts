// The document worker starts whatever way the server was started (docs/decisions/0073).
import { expect, it } from "vitest";
import { workerExecArgv } from "./document-jobs.server";

it("drops the flags that name the server's entry, keeping the others", () => {
  expect(
    workerExecArgv(["--input-type=module", "-e", "import('x')", "--enable-source-maps"]),
  ).toEqual(["--enable-source-maps"]);
  expect(workerExecArgv(["--eval", "1", "--conditions", "node", "--print=2"])).toEqual([
    "--conditions",
    "node",
  ]);
  expect(workerExecArgv([])).toEqual([]);
});
