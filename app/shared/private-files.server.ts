// The data directory and backups hold the site's users, sessions and photos: only the account the
// site runs as may read them (issue 18).
import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";

/** Folders the app creates under (and as) DATA_DIR. */
export const PRIVATE_DIR_MODE = 0o700;
/** Files such as backups. */
export const PRIVATE_FILE_MODE = 0o600;

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
