// The auth feature's public surface on the server (docs/decisions/0032-layers-and-feature-surfaces.md):
// the admin registry and e-mail rules the operations feature's CLI and control socket use.
export {
  type AdminGrant,
  grantAdmin,
  isAdmin,
  LastAdminError,
  ListedInAdminEmailsError,
  listAdmins,
  revokeAdmin,
} from "./admins.server";
export { InvalidEmailError, normalizeEmail } from "./emails";
export { authFeature } from "./feature.server";
export {
  actorOf,
  can,
  downloadNotFound,
  PERMISSIONS,
  type Permission,
  requireStaff,
  requireStaffApi,
} from "./staff-guard.server";
