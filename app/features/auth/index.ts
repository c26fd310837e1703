// The auth feature's public surface for the pages (docs/decisions/0032-layers-and-feature-surfaces.md).
export { AddPasskeyButton, PasskeySignInButton } from "./passkey-buttons";
export {
  can,
  isRole,
  PERMISSIONS,
  type Permission,
  ROLE_LABELS,
  ROLES,
  type Role,
} from "./permissions";
export { announceAuth, useAuthBroadcast } from "./use-auth-broadcast";
export type { SessionUser, Viewer } from "./viewer";
