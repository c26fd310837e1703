// The site-settings feature's public surface on the server (docs/decisions/0032-layers-and-feature-surfaces.md).

export { type DrawText, embedTextFonts } from "~/shared/pdf-fonts.server";
export { buildApplicationPdf } from "./application-pdf.server";
export { type EditableSettings, editableOf } from "./editable";
export { siteSettingsFeature } from "./feature.server";
export {
  dropFeatured,
  type FeaturedEntry,
  type FeaturedRef,
  featuredEntries,
  isFeatured,
  reorderFeatured,
  setFeatured,
} from "./featured.server";
export {
  getSiteContent,
  readStoredContent,
  type SettingsChange,
  saveSettings,
} from "./settings.server";
export { createSettingsApi } from "./settings-api.server";
export { parseSettings } from "./settings-input.server";
export { exportSettings, importSettings, SETTINGS_FORMAT } from "./settings-transfer.server";
