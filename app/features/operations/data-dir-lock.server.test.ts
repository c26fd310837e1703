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
import { deadPid, idleProcess, stop } from "./test-processes";

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
    expect(await ownerPid(lock.path)).toBe(process.pid);
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
    expect(await ownerPid(lock.path)).toBe(process.pid);
    await lock.release();

    await fs.writeFile(lockPathFor(dbDir), "garbage");
    await (await acquireDataDirLock(dbDir)).release();
  });

  it("takes over a lock holding our own PID that this process does not hold (restart as PID 1)", async () => {
    // In a container the restarted server has the same PID as the one that left the lock.
    await fs.writeFile(lockPathFor(dbDir), `${process.pid}\n`);
    const lock = await acquireDataDirLock(dbDir);
    expect(await ownerPid(lock.path)).toBe(process.pid);
    await lock.release();
  });

  it.runIf(process.platform === "linux")(
    "takes over a lock whose PID now belongs to another process (PID reused), not to its writer",
    async () => {
      const other = idleProcess();
      try {
        // What a server that had this PID before a restart left: same number, older process.
        await fs.writeFile(lockPathFor(dbDir), `${other.pid} 1\n`);
        const lock = await acquireDataDirLock(dbDir);
        expect(await ownerPid(lock.path)).toBe(process.pid);
        await lock.release();
      } finally {
        await stop(other);
      }
    },
  );

  it("still refuses a lock another live process took, recorded with its start", async () => {
    const other = idleProcess();
    try {
      const first = await acquireDataDirLock(dbDir);
      // The lock as that process would have written it (its PID and its own start).
      const mine = await fs.readFile(first.path, "utf8");
      await first.release();
      await fs.writeFile(lockPathFor(dbDir), await lockContentOf(other.pid, mine));
      const error = await acquireDataDirLock(dbDir).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DataDirLockedError);
      expect((error as DataDirLockedError).pid).toBe(other.pid);
    } finally {
      await stop(other);
    }
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

/** The lock text `pid` writes: its PID, and its start (when the platform tells) as we record ours. */
async function lockContentOf(pid: number, ours: string): Promise<string> {
  if (!/^\d+ \d+\n$/.test(ours)) return `${pid}\n`;
  const stat = await fs.readFile(`/proc/${pid}/stat`, "utf8");
  const start = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
  return `${pid} ${start}\n`;
}

/** The PID a lock file names (its first field; the owner's start time may follow). */
async function ownerPid(lockPath: string): Promise<number> {
  return Number((await fs.readFile(lockPath, "utf8")).split(/\s/)[0]);
}
