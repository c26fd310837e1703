import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, expect, it } from "vitest";
import { backfillVariants } from "./backfill-variants.server";
import { ImageStore } from "./storage.server";

const root = await fs.mkdtemp(path.join(os.tmpdir(), "backfill-"));
afterAll(() => fs.rm(root, { recursive: true, force: true }));

it("makes every missing variant of stored photos, once", async () => {
  const folder = path.join(root, "properties", "old-house");
  await fs.mkdir(folder, { recursive: true });
  const photo = await sharp({
    create: { width: 1000, height: 600, channels: 3, background: "#468" },
  })
    .jpeg()
    .toBuffer();
  await fs.writeFile(path.join(folder, "image_1_0.jpg"), photo);
  await fs.writeFile(path.join(folder, "notes.txt"), "not a photo");

  expect(await backfillVariants(new ImageStore(root))).toBe(1);
  const files = (await fs.readdir(folder)).sort();
  expect(files).toContain("image_1_0.w400.webp");
  expect(files).toContain("image_1_0.w1600.jpg");
  expect(files.filter((f) => f.startsWith("image_1_0.w"))).toHaveLength(8);
  const small = await sharp(path.join(folder, "image_1_0.w400.webp")).metadata();
  expect([small.format, small.width, small.height]).toEqual(["webp", 400, 240]);
  // Never enlarged: the 1600 variant of a 1000-wide photo stays 1000 wide.
  expect((await sharp(path.join(folder, "image_1_0.w1600.jpg")).metadata()).width).toBe(1000);
  expect(await backfillVariants(new ImageStore(root))).toBe(0);
});
