// The data directory and backups hold the site's users, sessions and photos: only the account the
// site runs as may read them (docs/behaviour.md §24).
import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";

/** Folders the app creates under (and as) DATA_DIR. */
export const PRIVATE_DIR_MODE = 0o700;
/** Files such as backups. */
export const PRIVATE_FILE_MODE = 0o600;

/**
 * At start: everything the process creates from now on is owner-only (umask 077: the embedded
 * database's files, documents, photos, temporary files), and what is already under `dataDir`
 * (made by an older version, or under a looser umask) is narrowed to 0700 folders and 0600 files.
 * Folders named in `notInto` are narrowed themselves but not walked (the many photos: see
 * narrowToOwner). Returns how many entries were narrowed.
 */
export async function makeDataDirPrivate(
  dataDir: string,
  { notInto = [] }: { notInto?: readonly string[] } = {},
): Promise<number> {
  // (Worker threads cannot set it; the explicit modes below and in the stores still apply.)
  try {
    process.umask(0o077);
  } catch {}
  await makePrivateDir(dataDir);
  return narrowToOwner(dataDir, new Set(notInto.map((name) => path.join(dataDir, name))));
}

/**
 * Folders 0700 and files 0600 under (and including) `dir`, symbolic links not followed; an entry
 * that cannot be changed (another account's) is left. About 0.1 ms an entry when nothing changes
 * (6,761 entries: 760 ms, measured). Returns how many entries were narrowed.
 */
export async function narrowToOwner(
  dir: string,
  notInto: ReadonlySet<string> = new Set(),
): Promise<number> {
  let narrowed = 0;
  const visit = async (entry: string): Promise<void> => {
    const stat = await fs.lstat(entry).catch(() => null);
    if (!stat || stat.isSymbolicLink()) return;
    const mode = stat.mode & 0o777;
    const wanted = stat.isDirectory() ? PRIVATE_DIR_MODE : mode & 0o700;
    if (mode !== wanted && (mode & 0o077) !== 0) {
      if (
        await fs.chmod(entry, wanted).then(
          () => true,
          () => false,
        )
      )
        narrowed++;
    }
    if (!stat.isDirectory() || notInto.has(entry)) return;
    for (const name of await fs.readdir(entry).catch(() => [])) await visit(path.join(entry, name));
  };
  await visit(dir);
  return narrowed;
}

/** Creates `dir` (and missing parents) owner-only; an existing folder is left as it is. */
export async function makePrivateDir(dir: string): Promise<void> {
  await fs.mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}

/**
 * Writes `target` owner-only through a temporary file in the same folder, created exclusively
 * ('wx') under an unpredictable name, so nothing planted at a known name (a symlink) is
 * followed; renamed into place when `write` has finished, removed if anything fails.
 */
export async function writePrivateFile(
  target: string,
  write: (file: fs.FileHandle) => Promise<void>,
): Promise<void> {
  const temporary = path.join(
    path.dirname(target),
    `.${path.basename(target)}.${randomBytes(12).toString("hex")}.tmp`,
  );
  const file = await fs.open(temporary, "wx", PRIVATE_FILE_MODE);
  try {
    try {
      await write(file);
      await file.sync();
    } finally {
      await file.close();
    }
    await fs.rename(temporary, target);
  } catch (error) {
    await fs.rm(temporary, { force: true });
    throw error;
  }
}
