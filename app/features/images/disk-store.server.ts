// Photos on local disk (the default, DATA_DIR/images): the photo store over a DiskBackend, with
// what only a disk has: paths (served by sendFile), folders, and removals staged by renaming.
import fs from "node:fs/promises";
import path from "node:path";
import type { Collection } from "~/domain/listing-kinds";
import { DiskBackend } from "./disk-backend.server";
import {
  isDiskWorkFile,
  pruneDiskFolders,
  type RepairInput,
  type RepairReport,
  settleDiskStaging,
} from "./disk-repair.server";
import { keyOfUrl } from "./photo-keys.server";
import { PhotoStore } from "./photo-store.server";
import type { StagedRemoval } from "./storage.server";

/**
 * Images live in a folder per listing: {root}/{collection}/{folder}/image_{ts}_{i}.jpg (folder:
 * see storage-names.ts). Everything else the store writes starts with a dot and is never a photo:
 * `.tmp/` (files being written, uploads being read), `.pending/` (notes of writes under way),
 * `.trash/` (never served) and `.removing-…/` (staged removals). The "files" of this store
 * (filesOf, folder, repair reports) are absolute paths.
 */
export class DiskImageStore extends PhotoStore {
  private readonly disk: DiskBackend;
  private stagings = 0;

  constructor(readonly root: string) {
    const disk = new DiskBackend(root, path.join(root, ".tmp"));
    super({ kind: "disk", live: disk, trash: disk, tempDir: disk.tempDir, notesPending: true });
    this.disk = disk;
  }

  /**
   * The file behind one of our URLs (original or variant), or null when it is not one of ours.
   * The folder segment is decoded once and must be one plain name (no `/`, `\`, `..`, NUL, dot),
   * the file name one of our photo names, and the result must lie inside the root.
   */
  pathOf(url: string): string | null {
    const key = keyOfUrl(url);
    const file = key === null ? null : path.join(this.root, ...key.split("/"));
    return file !== null && this.disk.keyOf(file) !== null ? file : null;
  }

  protected override fileOf(key: string): string {
    return this.disk.fileOf(key);
  }

  override describe(file: string): string {
    return path.relative(this.root, file);
  }

  /** Removes a listing's folder if nothing is left in it (after a failed first upload). */
  override async removeFolderIfEmpty(collection: Collection, id: string) {
    await fs.rmdir(this.folder(collection, id)).catch(() => undefined);
  }

  /**
   * Moves files or folders aside so a database change can be tried: `commit` deletes them for
   * good, `rollback` puts them back. Each target moves, under its own name, into a
   * `.removing-{pid}-{time}-{n}` folder beside it: names never grow (a long folder name stays
   * valid) and a crash leaves enough to decide at the next start whether to finish or undo
   * (settleDiskStaging in disk-repair.server.ts).
   */
  override async stageRemoval(targets: string[]): Promise<StagedRemoval> {
    const moved: [string, string][] = [];
    const stagingDirs = new Set<string>();
    const tag = `.removing-${process.pid}-${Date.now()}-${++this.stagings}`;
    const undo = async () => {
      for (const [target, aside] of moved.reverse()) {
        await fs.rename(aside, target).catch(() => undefined);
      }
      for (const dir of stagingDirs) await fs.rmdir(dir).catch(() => undefined);
    };
    try {
      for (const file of targets) {
        if (this.disk.keyOf(file) === null) {
          throw new Error("Refused a path outside the image store.");
        }
        const stagingDir = path.join(path.dirname(file), tag);
        const aside = path.join(stagingDir, path.basename(file));
        if (!(await fs.stat(file).catch(() => null))) continue;
        await fs.mkdir(stagingDir, { recursive: true });
        stagingDirs.add(stagingDir);
        try {
          await fs.rename(file, aside);
          moved.push([file, aside]);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
        }
      }
    } catch (error) {
      await undo();
      throw error;
    }
    return {
      commit: async () => {
        for (const dir of stagingDirs) await fs.rm(dir, { recursive: true, force: true });
      },
      rollback: undo,
    };
  }

  protected override settleBackend(
    input: RepairInput,
    report: RepairReport,
    oldEnough: (ms: number) => boolean,
  ): Promise<void> {
    return settleDiskStaging(this.root, input, report, oldEnough);
  }

  protected override isWorkFile(key: string): boolean {
    return isDiskWorkFile(key);
  }

  protected override pruneFolders(input: RepairInput): Promise<void> {
    return pruneDiskFolders(this.root, input);
  }
}
