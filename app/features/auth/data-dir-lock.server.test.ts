import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  acquireDataDirLock,
  DataDirLockedError,
  isProcessAlive,
  lockPathFor,
} from "./data-dir-lock.server";
import { deadPid } from "./test-processes";

describe("data directory lock", () => {
  let root: string;
  let dbDir: string;
  beforeEach(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), "lock-test-"));
    dbDir = path.join(root, "db");
  });
  afterEach(async () => {
    await fs.rm(root, { recursive: true, force: true });
  });

  it("is a file beside the data directory holding our PID, removed on release", async () => {
    const lock = await acquireDataDirLock(dbDir);
    expect(lock.path).toBe(path.join(root, "db.lock"));
    expect(lockPathFor(`${dbDir}/`)).toBe(lock.path);
    expect((await fs.readFile(lock.path, "utf8")).trim()).toBe(String(process.pid));
    await lock.release();
    await expect(fs.access(lock.path)).rejects.toThrow();
    // Free again.
    await (await acquireDataDirLock(dbDir)).release();
  });

  it("refuses a second holder while the first lives, naming it", async () => {
    const lock = await acquireDataDirLock(dbDir);
    try {
      const error = await acquireDataDirLock(dbDir).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DataDirLockedError);
      expect((error as DataDirLockedError).pid).toBe(process.pid);
      expect((error as Error).message).toContain(`process ${process.pid}`);
    } finally {
      await lock.release();
    }
  });

  it("takes over a stale lock left by a dead process, or an unreadable one", async () => {
    const pid = await deadPid();
    expect(isProcessAlive(pid)).toBe(false);
    await fs.writeFile(lockPathFor(dbDir), `${pid}\n`);
    const lock = await acquireDataDirLock(dbDir);
    expect((await fs.readFile(lock.path, "utf8")).trim()).toBe(String(process.pid));
    await lock.release();

    await fs.writeFile(lockPathFor(dbDir), "garbage");
    await (await acquireDataDirLock(dbDir)).release();
  });

  it("waits for a live holder when asked to", async () => {
    const first = await acquireDataDirLock(dbDir);
    setTimeout(() => void first.release(), 300);
    const started = Date.now();
    const second = await acquireDataDirLock(dbDir, { waitMs: 5000 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    await second.release();
  });

  it("does not remove a lock that another process took meanwhile", async () => {
    const lock = await acquireDataDirLock(dbDir);
    await fs.writeFile(lock.path, "12345\n");
    await lock.release();
    expect(await fs.readFile(lock.path, "utf8")).toBe("12345\n");
  });
});
