// The operations feature's public surface (docs/decisions/0032-layers-and-feature-surfaces.md): the
// admin CLI (`npm run admin`), the control socket on which a running server answers it and
// `npm run backup` (DATA_DIR/admin.sock), and the data directory's lock (one process per
// embedded database).
export { EXIT, runAdminCli, USAGE } from "./admin-cli.server";
export {
  ADMIN_SOCKET_NAME,
  adminSocketPath,
  type ExtraSocketCommands,
  sendAdminCommand,
  startAdminSocket,
} from "./admin-socket.server";
export {
  acquireDataDirLock,
  type DataDirLock,
  DataDirLockedError,
  lockPathFor,
} from "./data-dir-lock.server";
export { operationsFeature } from "./feature.server";
export { readSiteStatus, type SiteStatus } from "./status.server";
