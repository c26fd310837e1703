// `npm run backup -- <file>` and `npm run restore -- <file>` (server/backup-cli.ts).
// Reads DATABASE_URL / DATA_DIR / S3_BUCKET like the server.
import { loadBuiltServer } from "./built-server.mjs";

const [command, ...args] = process.argv.slice(2);
const { runBackupCommandLine } = await loadBuiltServer();
process.exit(await runBackupCommandLine(command === "restore" ? "restore" : "backup", args));
