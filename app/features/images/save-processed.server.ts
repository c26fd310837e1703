import path from "node:path";
import type { Collection } from "~/domain/listing-kinds";
import type { ProcessedImage } from "./process.server";
import type { ImageStore } from "./storage.server";
import { variantUrl } from "./variants";

/**
 * Stores a processed photo in either backend: its variants first, the original (which the
 * record names) last, so a record never names a photo whose variants are missing; on any
 * failure everything written for it is removed.
 */
export async function saveProcessedPhoto(
  store: Pick<ImageStore, "url" | "save" | "remove">,
  collection: Collection,
  id: string,
  fileName: string,
  image: ProcessedImage,
): Promise<string> {
  const url = store.url(collection, id, fileName);
  try {
    for (const variant of image.variants) {
      const name = path.posix.basename(variantUrl(url, variant.width, variant.format));
      await store.save(collection, id, name, variant.data);
    }
    return await store.save(collection, id, fileName, image.data);
  } catch (error) {
    await store.remove(url);
    throw error;
  }
}
