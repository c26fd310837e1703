// DATA_DIR and the folders the server creates in it are owner-only (issue 18): the database
// files hold users and session hashes.
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { readEnv } from "~/shared/env.server";
import { startServices } from "./services";

const parent = await fs.mkdtemp(path.join(os.tmpdir(), "private-data-"));
afterAll(() => fs.rm(parent, { recursive: true, force: true }));

it("creates a new DATA_DIR, its database and socket folders with mode 0700", async () => {
  const previous = process.umask(0o022); // the usual umask: new folders would be 0755
  const dataDir = path.join(parent, "nested", "data");
  try {
    const services = await startServices(
      readEnv({ NODE_ENV: "production", DATA_DIR: dataDir, SEED_DEMO: "false" }),
    );
    await services.close();
  } finally {
    process.umask(previous);
  }
  for (const dir of [path.join(parent, "nested"), dataDir, path.join(dataDir, "db")]) {
    expect({ dir, mode: (await fs.stat(dir)).mode & 0o777 }).toEqual({ dir, mode: 0o700 });
  }
}, 120_000);
