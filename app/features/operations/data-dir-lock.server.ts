// One process at a time may open an embedded PGlite data directory (it is not multi-process
// safe). The lock is a file next to the directory holding the owner's PID and, where the system
// tells (Linux), the owner's start time. A lock whose owner is gone (crash, SIGKILL) is taken
// over, and so is one whose PID now names another process: after a restart in a container the
// new server often gets the very same PID (1), or the old PID belongs to some other program.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { makePrivateDir } from "~/shared/private-files.server";

export class DataDirLockedError extends Error {
  constructor(
    readonly lockPath: string,
    readonly pid: number,
  ) {
    super(`The database directory is in use by process ${pid} (lock file ${lockPath}).`);
    this.name = "DataDirLockedError";
  }
}

/** Lock files this process holds now: its own PID in one of those is a live owner. */
const heldHere = new Set<string>();

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
  await makePrivateDir(path.dirname(lockPath));
  const deadline = Date.now() + (options.waitMs ?? 0);
  const content = ownerRecord(process.pid);
  for (let attempt = 0; ; attempt++) {
    if (!heldHere.has(lockPath) && (await tryCreate(lockPath, content))) break;
    const holder = await readLockOwner(lockPath);
    if (holder === undefined) continue; // vanished meanwhile: try again
    if (holder === null || !isLiveOwner(holder, lockPath)) {
      // Stale (owner gone, PID reused, or unreadable content): take it over.
      await fsp.rm(lockPath, { force: true });
      continue;
    }
    if (Date.now() >= deadline || attempt > 10_000) {
      throw new DataDirLockedError(lockPath, holder.pid);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  heldHere.add(lockPath);

  // Best effort on a normal exit; after a crash the next owner takes the stale lock over.
  const releaseSync = () => {
    heldHere.delete(lockPath);
    try {
      if (fs.readFileSync(lockPath, "utf8") === content) fs.rmSync(lockPath);
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

interface LockOwner {
  pid: number;
  /** The owner's start time as the system counts it; absent in old lock files or elsewhere. */
  start?: string;
}

/** "PID START\n", or "PID\n" where the start time is unknown. */
function ownerRecord(pid: number): string {
  const start = processStart(pid);
  return start ? `${pid} ${start}\n` : `${pid}\n`;
}

/** Whether the process that wrote this lock is still running (so the lock is not stale). */
function isLiveOwner(owner: LockOwner, lockPath: string): boolean {
  // Our own PID: live only if this very process took the lock; otherwise an earlier process
  // with the same PID left it (a container's server is PID 1 at every start).
  if (owner.pid === process.pid) return heldHere.has(lockPath);
  if (!isProcessAlive(owner.pid)) return false;
  // A live process with that PID that started at another time is not the one that wrote it.
  if (owner.start === undefined) return true;
  const start = processStart(owner.pid);
  return start === null || start === owner.start;
}

/**
 * A process's start time in clock ticks since boot (Linux /proc/PID/stat, field 22); null where
 * unavailable. Together with the PID it names one process: PIDs are reused, start times are not.
 */
function processStart(pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name, which is in parentheses and may itself contain spaces.
    const start = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
    return start && /^\d+$/.test(start) ? start : null;
  } catch {
    return null;
  }
}

/** Atomic create-with-content: write a private temp file, then hard-link it into place. */
async function tryCreate(lockPath: string, content: string): Promise<boolean> {
  const temp = `${lockPath}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  await fsp.writeFile(temp, content, { mode: 0o600 });
  try {
    await fsp.link(temp, lockPath);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EEXIST") return false;
    if (code !== "EPERM" && code !== "ENOTSUP" && code !== "ENOSYS") throw error;
    // A file system without hard links: exclusive create (content follows a moment later).
    return fsp.writeFile(lockPath, content, { flag: "wx", mode: 0o600 }).then(
      () => true,
      (e: NodeJS.ErrnoException) => (e.code === "EEXIST" ? false : Promise.reject(e)),
    );
  } finally {
    await fsp.rm(temp, { force: true });
  }
}

/** The lock file's owner; null when the content is not one; undefined when there is no file. */
async function readLockOwner(lockPath: string): Promise<LockOwner | null | undefined> {
  let text: string;
  try {
    text = await fsp.readFile(lockPath, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  const match = /^(\d+)(?: (\d+))?\s*$/.exec(text.trim());
  const pid = Number(match?.[1]);
  if (!match || !Number.isSafeInteger(pid) || pid <= 0) return null;
  return match[2] ? { pid, start: match[2] } : { pid };
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
