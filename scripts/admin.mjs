// `npm run admin -- grant <email> | revoke <email> | list` (app/features/operations/admin-cli.server.ts).
// Reads DATABASE_URL / DATA_DIR like the server.
import { loadBuiltServer } from "./built-server.mjs";

const { runAdminCommandLine } = await loadBuiltServer();
process.exit(await runAdminCommandLine(process.argv.slice(2)));
