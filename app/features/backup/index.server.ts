// The backup feature's public surface on the server (docs/decisions/0040-backups.md).
export {
  type BackupManifest,
  type BackupOptions,
  BackupRefusedError,
  type RestoreOptions,
  readBackupManifest,
  restoreBackup,
  whyNotEmpty,
  writeBackup,
} from "./archive.server";
