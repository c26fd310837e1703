// Photos stored before responsive variants existed get them in the background after start;
// until then the server answers their variant URLs with the original (server/static-files.ts).

import { log } from "~/shared/logger.server";
import { makeVariants } from "./process.server";
import type { ImageStore } from "./storage.server";
import { VARIANT_WIDTHS, variantUrl } from "./variants";

/** Makes the missing variants of every stored photo, one at a time. Returns how many photos. */
export async function backfillVariants(images: ImageStore): Promise<number> {
  let made = 0;
  for (const url of await images.storedOriginals()) {
    const names = VARIANT_WIDTHS.flatMap((w) => [
      variantUrl(url, w, "webp"),
      variantUrl(url, w, "jpg"),
    ]);
    const present = await Promise.all(names.map((n) => images.exists(n)));
    if (present.every(Boolean)) continue;
    try {
      const original = await images.read(url);
      if (!original) continue;
      for (const variant of await makeVariants(original)) {
        await images.saveVariant(url, variant.width, variant.format, variant.data);
      }
      made++;
    } catch (error) {
      log().warn({ err: error }, `Could not make variants of ${url}`);
    }
  }
  return made;
}
