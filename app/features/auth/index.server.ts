// The auth feature's public surface on the server (docs/decisions/0032-layers-and-feature-surfaces.md):
// the staff registry and e-mail rules the operations feature's CLI and control socket use, and
// the one guard with its permission table.
export {
  type AdminGrant,
  endSessionsOfUser,
  grantAdmin,
  isAdmin,
  LastAdminError,
  ListedInAdminEmailsError,
  listAdmins,
  revokeAdmin,
  setStaffRole,
  staffRoleOf,
} from "./admins.server";
export { InvalidEmailError, normalizeEmail } from "./emails";
export { authFeature } from "./feature.server";
export { listPasskeys, type Passkey, removePasskey } from "./passkeys.server";
export {
  can,
  isRole,
  PERMISSIONS,
  type Permission,
  ROLE_LABELS,
  ROLES,
  type Role,
} from "./permissions";
export { clearedSessionCookie, sessionCookie } from "./sessions.server";
export {
  CODE_POSTS_PER_CLIENT_PER_HOUR,
  createSignInLink,
  EMAIL_ISSUER,
  sendSignInCode,
  signInWithCode,
  signInWithLink,
} from "./sign-in-codes.server";
export { addedSubject, addStaff } from "./staff.server";
export {
  actorOf,
  downloadNotFound,
  requireStaff,
  requireStaffApi,
} from "./staff-guard.server";
export {
  addStaffListing,
  removeStaffListing,
  STAFF_LISTINGS_MAX,
  staffListings,
} from "./staff-listings.server";
export { staffAccessOf } from "./viewer.server";
