// One process at a time may open an embedded PGlite data directory (it is not multi-process
// safe). The lock is a file next to the directory holding the owner's PID; a lock whose process
// is gone (crash, SIGKILL) is taken over.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";

export class DataDirLockedError extends Error {
  constructor(
    readonly lockPath: string,
    readonly pid: number,
  ) {
    super(`The database directory is in use by process ${pid} (lock file ${lockPath}).`);
    this.name = "DataDirLockedError";
  }
}

export interface DataDirLock {
  readonly path: string;
  /** Removes the lock file if it is still ours. */
  release(): Promise<void>;
}

/** `DATA_DIR/db` → `DATA_DIR/db.lock` (outside: PGlite wants its directory to itself). */
export function lockPathFor(dbDir: string): string {
  return `${path.resolve(dbDir).replace(/[\\/]+$/, "")}.lock`;
}

/**
 * Takes the lock of a PGlite data directory or throws DataDirLockedError naming the holder.
 * `waitMs`: keep trying that long while a live process holds it (e.g. a CLI run finishing).
 */
export async function acquireDataDirLock(
  dbDir: string,
  options: { waitMs?: number } = {},
): Promise<DataDirLock> {
  const lockPath = lockPathFor(dbDir);
  await fsp.mkdir(path.dirname(lockPath), { recursive: true });
  const deadline = Date.now() + (options.waitMs ?? 0);
  for (let attempt = 0; ; attempt++) {
    if (await tryCreate(lockPath)) break;
    const holder = await readLockPid(lockPath);
    if (holder === undefined) continue; // vanished meanwhile: try again
    if (holder === null || !isProcessAlive(holder)) {
      // Stale (dead owner or unreadable content): take it over.
      await fsp.rm(lockPath, { force: true });
      continue;
    }
    if (Date.now() >= deadline || attempt > 10_000) throw new DataDirLockedError(lockPath, holder);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  // Best effort on a normal exit; after a crash the next owner takes the stale lock over.
  const releaseSync = () => {
    try {
      if (fs.readFileSync(lockPath, "utf8").trim() === String(process.pid)) fs.rmSync(lockPath);
    } catch {
      // already gone
    }
  };
  process.once("exit", releaseSync);
  return {
    path: lockPath,
    async release() {
      process.removeListener("exit", releaseSync);
      releaseSync();
    },
  };
}

/** Atomic create-with-content: write a private temp file, then hard-link it into place. */
async function tryCreate(lockPath: string): Promise<boolean> {
  const temp = `${lockPath}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  await fsp.writeFile(temp, `${process.pid}\n`, { mode: 0o600 });
  try {
    await fsp.link(temp, lockPath);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EEXIST") return false;
    if (code !== "EPERM" && code !== "ENOTSUP" && code !== "ENOSYS") throw error;
    // A file system without hard links: exclusive create (content follows a moment later).
    return fsp.writeFile(lockPath, `${process.pid}\n`, { flag: "wx", mode: 0o600 }).then(
      () => true,
      (e: NodeJS.ErrnoException) => (e.code === "EEXIST" ? false : Promise.reject(e)),
    );
  } finally {
    await fsp.rm(temp, { force: true });
  }
}

/** The PID in the lock file; null when the content is not a PID; undefined when there is no file. */
async function readLockPid(lockPath: string): Promise<number | null | undefined> {
  let text: string;
  try {
    text = await fsp.readFile(lockPath, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  const pid = Number(text.trim());
  return Number.isSafeInteger(pid) && pid > 0 ? pid : null;
}

export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
