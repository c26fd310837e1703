// The company's brand colours as CSS custom properties on :root
// (docs/decisions/0046-design-tokens-from-company-content.md). The stylesheet derives every
// other tone (hover, tints) from these two with color-mix().
import type { BrandColors } from "./company";

/** The navy and gold a company starts with. */
export const DEFAULT_BRAND_COLORS: BrandColors = { primary: "#16325c", accent: "#c9a227" };

const HEX_COLOR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

/**
 * The style attribute of <html>: `--brand-primary` and `--brand-accent`. Only hex colours pass
 * (a value is written into a style attribute, so nothing else may ride along); anything else
 * falls back to the default of that colour.
 */
export function brandStyle(colors: Partial<BrandColors>): Record<string, string> {
  const pick = (value: string | undefined, fallback: string) =>
    value && HEX_COLOR.test(value.trim()) ? value.trim() : fallback;
  return {
    "--brand-primary": pick(colors.primary, DEFAULT_BRAND_COLORS.primary),
    "--brand-accent": pick(colors.accent, DEFAULT_BRAND_COLORS.accent),
  };
}
