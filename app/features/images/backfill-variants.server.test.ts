import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { imageStoreTargets, stopSharedS3 } from "../../../tests/support/image-store-targets";
import { backfillVariants } from "./backfill-variants.server";

afterAll(stopSharedS3);

describe.each(imageStoreTargets)("variants backfilled on the $name store", (target) => {
  it("makes every missing variant of stored photos, once", async () => {
    const { images, everything, cleanup } = await target.open();
    try {
      const photo = await sharp({
        create: { width: 1000, height: 600, channels: 3, background: "#468" },
      })
        .jpeg()
        .toBuffer();
      // Stored before variants existed: the original alone.
      await images.writeKey("properties/old-house/image_1_0.jpg", photo);

      expect(await backfillVariants(images)).toBe(1);
      const files = (await everything()).map((f) => f.split(/[/\\]/).pop() as string);
      expect(files).toContain("image_1_0.w400.webp");
      expect(files).toContain("image_1_0.w1600.jpg");
      expect(files.filter((f) => f.startsWith("image_1_0.w"))).toHaveLength(8);
      const small = await sharp(
        await images.readKey("properties/old-house/image_1_0.w400.webp"),
      ).metadata();
      expect([small.format, small.width, small.height]).toEqual(["webp", 400, 240]);
      // Never enlarged: the 1600 variant of a 1000-wide photo stays 1000 wide.
      const large = await images.readKey("properties/old-house/image_1_0.w1600.jpg");
      expect((await sharp(large).metadata()).width).toBe(1000);
      expect(await backfillVariants(images)).toBe(0);
    } finally {
      await cleanup();
    }
  });
});
