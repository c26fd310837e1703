// Photos stored before responsive variants existed get them in the background after start;
// until then the server answers their variant URLs with the original (server/static-files.ts).
import fs from "node:fs/promises";
import path from "node:path";
import { makeVariants } from "./process.server";
import { VARIANT_WIDTHS } from "./variants";

const ORIGINAL = /^image_\d+_\d+\.jpg$/;

/** Makes the missing variants of every stored photo, one at a time. Returns how many photos. */
export async function backfillVariants(root: string): Promise<number> {
  const entries = await fs.readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  let made = 0;
  for (const entry of entries) {
    if (!entry.isFile() || !ORIGINAL.test(entry.name)) continue;
    const file = path.join(entry.parentPath, entry.name);
    const stem = file.slice(0, -".jpg".length);
    const names = VARIANT_WIDTHS.flatMap((w) => [`${stem}.w${w}.webp`, `${stem}.w${w}.jpg`]);
    const present = await Promise.all(
      names.map((n) =>
        fs.access(n).then(
          () => true,
          () => false,
        ),
      ),
    );
    if (present.every(Boolean)) continue;
    try {
      for (const variant of await makeVariants(await fs.readFile(file))) {
        const target = `${stem}.w${variant.width}.${variant.format}`;
        await fs.writeFile(`${target}.tmp`, variant.data);
        await fs.rename(`${target}.tmp`, target);
      }
      made++;
    } catch (error) {
      console.warn(`Could not make variants of ${file}:`, error);
    }
  }
  return made;
}
