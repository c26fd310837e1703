// DATA_DIR and everything the server creates in it are owner-only (docs/operations.md): the
// database files hold users and session hashes, the private store applicants' documents.
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { createPrivateBackend } from "~/features/applications/index.server";
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

it("keeps everything under DATA_DIR owner-only: what was there, the database, documents, photos", async () => {
  const previous = process.umask(0o022);
  const dataDir = path.join(parent, "existing");
  try {
    // As an older version under the usual umask left it.
    await fs.mkdir(path.join(dataDir, "private", "applications", "1"), { recursive: true });
    await fs.writeFile(path.join(dataDir, "private", "applications", "1", "old-doc"), "sealed");
    await fs.writeFile(path.join(dataDir, "loose-file"), "x", { mode: 0o666 });
    await fs.chmod(path.join(dataDir, "loose-file"), 0o666);
    const env = readEnv({ NODE_ENV: "production", DATA_DIR: dataDir, SEED_DEMO: "false" });
    const services = await startServices(env);
    try {
      await createPrivateBackend(env).put("applications/2/new-doc", Buffer.from("sealed"), {
        contentType: "application/octet-stream",
        cacheControl: "private, no-store",
      });
      await services.images.save("properties", "a-b", "image_1_0.jpg", Buffer.from("jpeg"));
      await services.db.query("CREATE TABLE mode_check (note text)");
      await services.db.query("INSERT INTO mode_check VALUES ('a row for the WAL')");
    } finally {
      await services.close();
    }
  } finally {
    process.umask(previous);
  }
  const loose: { entry: string; mode: string }[] = [];
  const entries = await fs.readdir(dataDir, { recursive: true, withFileTypes: true });
  expect(entries.some((e) => e.isFile() && e.parentPath.includes("pg_wal"))).toBe(true);
  expect(entries.some((e) => e.name === "new-doc")).toBe(true);
  for (const e of [{ parentPath: parent, name: "existing" }, ...entries]) {
    const entry = path.join(e.parentPath, e.name);
    const stat = await fs.lstat(entry);
    if (stat.isSymbolicLink()) continue;
    if ((stat.mode & 0o077) !== 0) {
      loose.push({ entry: path.relative(dataDir, entry), mode: (stat.mode & 0o777).toString(8) });
    }
  }
  expect(loose).toEqual([]);
}, 120_000);
