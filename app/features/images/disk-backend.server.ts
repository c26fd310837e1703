// Blobs as files in a folder (the default: DATA_DIR/images). See blob-backend.server.ts.
import { randomUUID } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from "~/shared/private-files.server";
import type {
  BlobBackend,
  BlobInfo,
  BlobMeta,
  BlobSource,
  ListedBlob,
  StoredBlob,
} from "./blob-backend.server";

/**
 * Key `a/b/c` is the file `{root}/a/b/c`; a key never names a path outside the root. Every write
 * goes to `tempDir` (on the same filesystem) and is then renamed into place: a reader never sees
 * half a file, and a crash leaves only a temporary file, which the start-up repair deletes
 * (docs/decisions/0037-crash-safe-photo-writes.md). A move is one rename.
 */
export class DiskBackend implements BlobBackend {
  constructor(
    readonly root: string,
    readonly tempDir: string,
  ) {}

  /** Nothing to reach: the photo store checks that the temporary folder is writable. */
  async reachable(): Promise<void> {}

  /** The file of `key`, or a thrown error for a key that would lie outside the root. */
  fileOf(key: string): string {
    const file = path.join(this.root, ...key.split("/"));
    if (!isInside(this.root, file)) throw new Error("Refused a path outside the image store.");
    return file;
  }

  /** The key of a file under the root (`/`-separated), or null for one outside it. */
  keyOf(file: string): string | null {
    return isInside(this.root, file)
      ? path.relative(this.root, file).split(path.sep).join("/")
      : null;
  }

  /** (A file keeps no metadata: its type comes from its name when served.) */
  async put(key: string, source: BlobSource, _meta?: BlobMeta): Promise<void> {
    await this.settle(this.fileOf(key), async (temp) => {
      if (Buffer.isBuffer(source)) await fs.writeFile(temp, source, { mode: PRIVATE_FILE_MODE });
      else if (source instanceof Readable) {
        await pipeline(source, createWriteStream(temp, { mode: PRIVATE_FILE_MODE }));
      } else await fs.copyFile(source.file, temp);
    });
  }

  async get(key: string): Promise<StoredBlob | null> {
    const file = this.fileOf(key);
    const info = await this.head(key);
    return info && { ...info, body: (range) => createReadStream(file, range) };
  }

  async head(key: string): Promise<BlobInfo | null> {
    const stat = await fs.stat(this.fileOf(key)).catch(() => null);
    return stat?.isFile() ? { size: stat.size, modified: stat.mtime } : null;
  }

  async delete(key: string): Promise<void> {
    await fs.rm(this.fileOf(key), { force: true });
  }

  async copy(from: string, to: string, into: BlobBackend = this): Promise<boolean> {
    if (!(into instanceof DiskBackend)) throw new Error("A disk copies only to a disk.");
    const source = this.fileOf(from);
    return into
      .settle(into.fileOf(to), (temp) => fs.copyFile(source, temp))
      .then(
        () => true,
        (error) => (isMissing(error) ? false : Promise.reject(error)),
      );
  }

  /** One rename (a file or a whole folder); the target's folder is made first. */
  async move(from: string, to: string): Promise<boolean> {
    const target = this.fileOf(to);
    await fs.mkdir(path.dirname(target), { recursive: true, mode: PRIVATE_DIR_MODE });
    return fs.rename(this.fileOf(from), target).then(
      () => true,
      (error) => (isMissing(error) ? false : Promise.reject(error)),
    );
  }

  /** Files only, and none under a name that starts with a dot below the prefix's folder. */
  async list(prefix: string): Promise<ListedBlob[]> {
    const base = prefix.slice(0, prefix.lastIndexOf("/") + 1);
    const dir = base ? this.fileOf(base) : this.root;
    const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
    const found: ListedBlob[] = [];
    for (const entry of entries) {
      if (!entry.isFile()) continue;
      const file = path.join(entry.parentPath, entry.name);
      const segments = path.relative(dir, file).split(path.sep);
      const key = base + segments.join("/");
      if (segments.some((s) => s.startsWith(".")) || !key.startsWith(prefix)) continue;
      const stat = await fs.stat(file).catch(() => null);
      if (stat) found.push({ key, modified: stat.mtimeMs });
    }
    return found.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  /**
   * Writes `file` through a temporary file renamed into place (removed again on failure).
   * Folders 0700 and files 0600 whatever the umask, a copy too: the store is the site's alone,
   * documents and photos alike (docs/operations.md, "Data directory").
   */
  private async settle(file: string, write: (temp: string) => Promise<void>): Promise<void> {
    await fs.mkdir(this.tempDir, { recursive: true, mode: PRIVATE_DIR_MODE });
    const temp = path.join(this.tempDir, `write-${randomUUID()}.tmp`);
    try {
      await write(temp);
      await fs.chmod(temp, PRIVATE_FILE_MODE);
      await fs.mkdir(path.dirname(file), { recursive: true, mode: PRIVATE_DIR_MODE });
      await fs.rename(temp, file);
    } catch (error) {
      await fs.rm(temp, { force: true });
      throw error;
    }
  }
}

function isInside(root: string, file: string): boolean {
  const relative = path.relative(path.resolve(root), path.resolve(file));
  return relative !== "" && !relative.startsWith("..") && !path.isAbsolute(relative);
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === "ENOENT";
}
