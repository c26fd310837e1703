import fs from "node:fs/promises";
import path from "node:path";
import type { Collection } from "~/domain/listing-kinds";
import type { ProcessedImage } from "./process.server";
import { VARIANT_WIDTHS, variantUrl } from "./variants";

export const IMAGE_URL_PREFIX = "/images";

/** Images live on local disk in a folder per listing: {root}/{collection}/{id}/image_{ts}_{i}.jpg */
export class ImageStore {
  constructor(readonly root: string) {}

  fileName(timestamp: number, index: number) {
    return `image_${timestamp}_${index}.jpg`;
  }

  folder(collection: Collection, id: string) {
    return path.join(this.root, collection, encodeURIComponent(id));
  }

  url(collection: Collection, id: string, fileName: string) {
    return `${IMAGE_URL_PREFIX}/${collection}/${encodeURIComponent(encodeURIComponent(id))}/${fileName}`;
  }

  async save(collection: Collection, id: string, fileName: string, data: Buffer): Promise<string> {
    const dir = this.folder(collection, id);
    await fs.mkdir(dir, { recursive: true });
    // Write beside, then rename: a reader never sees half a file.
    const target = path.join(dir, fileName);
    const temp = `${target}.${process.pid}.tmp`;
    await fs.writeFile(temp, data);
    await fs.rename(temp, target);
    return this.url(collection, id, fileName);
  }

  /** Stores a processed photo: its variants first, the original (which the record names) last. */
  async saveProcessed(
    collection: Collection,
    id: string,
    fileName: string,
    image: ProcessedImage,
  ): Promise<string> {
    const url = this.url(collection, id, fileName);
    try {
      for (const variant of image.variants) {
        const name = path.posix.basename(variantUrl(url, variant.width, variant.format));
        await this.save(collection, id, name, variant.data);
      }
      return await this.save(collection, id, fileName, image.data);
    } catch (error) {
      await this.remove(url);
      throw error;
    }
  }

  /** Every file of one stored photo: the original and its variants (those that exist or not). */
  filesOf(url: string): string[] {
    const original = this.pathOf(url);
    if (!original) return [];
    const variants = VARIANT_WIDTHS.flatMap((w) =>
      (["webp", "jpg"] as const).map((f) => this.pathOf(variantUrl(url, w, f))),
    );
    return [original, ...variants.filter((v): v is string => v !== null)];
  }

  /** The file behind one of our URLs (original or variant), or null when it is not one of ours. */
  pathOf(url: string): string | null {
    const match =
      /^\/images\/(properties|newConstruction)\/([^/]+)\/(image_\d+_\d+(?:\.w\d+\.(?:webp|jpg)|\.jpg))$/.exec(
        url,
      );
    if (!match) return null;
    const [, collection, encodedId, fileName] = match as unknown as [
      string,
      string,
      string,
      string,
    ];
    return path.join(this.root, collection, decodeURIComponent(encodedId), fileName);
  }

  /** Deletes a photo with its variants. */
  async remove(url: string) {
    for (const file of this.filesOf(url)) await fs.rm(file, { force: true });
  }

  async removeFolder(collection: Collection, id: string) {
    await fs.rm(this.folder(collection, id), { recursive: true, force: true });
  }

  /**
   * Moves files aside so a database change can be tried: `commit` deletes them for good,
   * `rollback` puts them back. Storage and record then change together or not at all.
   */
  async stageRemoval(targets: string[]): Promise<StagedRemoval> {
    const moved: [string, string][] = [];
    try {
      for (const target of targets) {
        const aside = `${target}.removing-${process.pid}-${Date.now()}`;
        try {
          await fs.rename(target, aside);
          moved.push([target, aside]);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
        }
      }
    } catch (error) {
      for (const [target, aside] of moved) await fs.rename(aside, target).catch(() => undefined);
      throw error;
    }
    return {
      commit: async () => {
        for (const [, aside] of moved) await fs.rm(aside, { recursive: true, force: true });
      },
      rollback: async () => {
        for (const [target, aside] of moved) await fs.rename(aside, target).catch(() => undefined);
      },
    };
  }
}

export interface StagedRemoval {
  commit(): Promise<void>;
  rollback(): Promise<void>;
}
