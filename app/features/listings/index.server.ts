// The listings feature's public surface on the server (docs/decisions/0015-layers.md).
export { getListing } from "./queries.server";
