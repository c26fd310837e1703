import { describe, expect, it } from "vitest";
import {
  hasVariants,
  originalOfVariant,
  pickWidth,
  srcSet,
  VARIANT_WIDTHS,
  variantUrl,
} from "./variants";

const original = "/images/properties/3233-4th-street-n/image_1700000000000_2.jpg";

describe("photo variants", () => {
  it("names each variant beside its original", () => {
    expect(variantUrl(original, 800, "webp")).toBe(
      "/images/properties/3233-4th-street-n/image_1700000000000_2.w800.webp",
    );
    expect(variantUrl(original, 400, "jpg")).toBe(
      "/images/properties/3233-4th-street-n/image_1700000000000_2.w400.jpg",
    );
  });

  it("lists every width in a srcset, per format", () => {
    const set = srcSet(original, "webp") ?? "";
    expect(set.split(", ")).toHaveLength(VARIANT_WIDTHS.length);
    expect(set).toContain("image_1700000000000_2.w400.webp 400w");
    expect(set).toContain("image_1700000000000_2.w1600.webp 1600w");
  });

  it("leaves foreign URLs alone (no variants exist for them)", () => {
    const foreign = "https://example.com/photo.png";
    expect(hasVariants(foreign)).toBe(false);
    expect(srcSet(foreign, "webp")).toBeUndefined();
    expect(variantUrl(foreign, 800, "webp")).toBe(foreign);
    expect(hasVariants(variantUrl(original, 800, "jpg"))).toBe(false);
  });

  it("picks the smallest width that covers the CSS width at the pixel ratio", () => {
    expect(pickWidth(300)).toBe(400);
    expect(pickWidth(400)).toBe(400);
    expect(pickWidth(401)).toBe(800);
    expect(pickWidth(420, 2)).toBe(1200);
    expect(pickWidth(1200, 3)).toBe(1600);
  });

  it("maps a variant file name back to its original, refusing unknown widths", () => {
    expect(originalOfVariant("image_1_0.w1200.webp")).toBe("image_1_0.jpg");
    expect(originalOfVariant("image_1_0.w1200.jpg")).toBe("image_1_0.jpg");
    expect(originalOfVariant("image_1_0.w999.webp")).toBeNull();
    expect(originalOfVariant("image_1_0.jpg")).toBeNull();
    expect(originalOfVariant("../image_1_0.w400.webp")).toBeNull();
  });
});
