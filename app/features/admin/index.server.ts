export { loadListingForEdit } from "./edit-loader.server";
export { loadHistoryPage } from "./history-route.server";
