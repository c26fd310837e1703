import type { Feature } from "~/shared/feature.server";

/** The company's content and settings (docs/architecture.md, "The feature contract"). */
export const siteSettingsFeature: Feature<unknown> = {
  name: "site-settings",
  tables: ["site_settings"],
};
