// Admin registry from the command line: npm run admin -- grant <email> | revoke <email> | list
// (see app/features/auth/admin-cli.server.ts). Reads DATABASE_URL / DATA_DIR like the server.
import { EXIT, runAdminCli } from "~/features/auth/admin-cli.server";
import { readEnv } from "~/shared/env.server";

let code: number;
try {
  code = await runAdminCli(process.argv.slice(2), readEnv(process.env));
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  code = EXIT.usage;
}
process.exit(code);
