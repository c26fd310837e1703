// The admin feature's public surface (docs/decisions/0032-layers-and-feature-surfaces.md). Its code is loaded only
// for admins, on demand.
import { lazy } from "react";

/** The detail page's 'Admin Features' block. */
export const AdminFeatures = lazy(() => import("./admin-features"));
export { CsvTransfer } from "./csv-transfer";
export { DeletedList } from "./deleted-list";
export { EditFetchError } from "./edit-fetch-error";
export { HistoryList } from "./history-list";
export { keepFormOnLiveReload } from "./keep-form-on-live-reload";
export { ListingForm } from "./listing-form";
export { ListingTable } from "./listing-table";
export { SiteSettingsForm } from "./site-settings-form";
