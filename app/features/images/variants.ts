// Responsive copies of each stored photo: `image_{ts}_{i}.jpg` (the original, at most 2400 px)
// gets `image_{ts}_{i}.w{width}.webp` and `.w{width}.jpg` beside it. Pure, for pages and server.

export const VARIANT_WIDTHS = [400, 800, 1200, 1600] as const;
export type VariantWidth = (typeof VARIANT_WIDTHS)[number];
export type VariantFormat = "webp" | "jpg";

const ORIGINAL = /^(.*\/image_\d+_\d+)\.jpg$/;

/** Whether a URL is one of our stored originals (other URLs get no variants). */
export function hasVariants(url: string): boolean {
  return ORIGINAL.test(url);
}

export function variantUrl(url: string, width: VariantWidth, format: VariantFormat): string {
  const match = ORIGINAL.exec(url);
  return match ? `${match[1]}.w${width}.${format}` : url;
}

/** The `srcset` of one format, every width (the browser picks with `sizes`). */
export function srcSet(url: string, format: VariantFormat): string | undefined {
  if (!hasVariants(url)) return undefined;
  return VARIANT_WIDTHS.map((w) => `${variantUrl(url, w, format)} ${w}w`).join(", ");
}

/**
 * The smallest variant at least `cssWidth × dpr` wide, else the largest: for places that need one
 * URL (social previews, preloads without srcset support).
 */
export function pickWidth(cssWidth: number, dpr = 1): VariantWidth {
  const needed = cssWidth * dpr;
  return VARIANT_WIDTHS.find((w) => w >= needed) ?? 1600;
}

/** Parses a variant file name back to its original's, for serving a fallback when missing. */
export function originalOfVariant(fileName: string): string | null {
  const match = /^(image_\d+_\d+)\.w(\d+)\.(webp|jpg)$/.exec(fileName);
  if (!match || !VARIANT_WIDTHS.includes(Number(match[2]) as VariantWidth)) return null;
  return `${match[1]}.jpg`;
}

/**
 * `sizes` for the layouts that show photos (widths from app.css: container 1320 px with 12 px
 * gutters; gallery 3 columns from 900 px else 2; card grid of ≥ 280 px columns).
 */
export const PHOTO_SIZES = {
  gallery: "(min-width: 1320px) 432px, (min-width: 900px) 33vw, 50vw",
  card: "(min-width: 1320px) 410px, (min-width: 900px) 33vw, (min-width: 600px) 50vw, 100vw",
  full: "100vw",
} as const;
