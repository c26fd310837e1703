// The listings feature's public surface on the server (docs/decisions/0032-layers-and-feature-surfaces.md).
export { getListing, getListingForEdit } from "./queries.server";
