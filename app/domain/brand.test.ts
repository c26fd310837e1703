import { describe, expect, it } from "vitest";
import { brandStyle, DEFAULT_BRAND_COLORS } from "./brand";
import { company } from "./company";

describe("brandStyle", () => {
  it("emits the company's colours as custom properties", () => {
    expect(brandStyle(company.brandColors)).toEqual({
      "--brand-primary": company.brandColors.primary,
      "--brand-accent": company.brandColors.accent,
    });
  });

  it("accepts 3- and 6-digit hex colours", () => {
    expect(brandStyle({ primary: "#abc", accent: " #A1B2C3 " })).toEqual({
      "--brand-primary": "#abc",
      "--brand-accent": "#A1B2C3",
    });
  });

  it("falls back to the defaults for anything that is not a hex colour", () => {
    expect(brandStyle({ primary: "red; background: url(x)", accent: "" })).toEqual({
      "--brand-primary": DEFAULT_BRAND_COLORS.primary,
      "--brand-accent": DEFAULT_BRAND_COLORS.accent,
    });
    expect(brandStyle({})).toEqual({
      "--brand-primary": DEFAULT_BRAND_COLORS.primary,
      "--brand-accent": DEFAULT_BRAND_COLORS.accent,
    });
  });
});
