// The auth feature's public surface for the pages (docs/decisions/0015-layers.md).
export { announceAuth, useAuthBroadcast } from "./use-auth-broadcast";
export type { SessionUser, Viewer } from "./viewer";
