// The production server, bundled by `react-router build` into build/server/index.js together
// with React Router's server build, so that `npm start` runs plain JavaScript with every app
// module loaded once (docs/decisions/0031-one-bundled-production-server.md). The module also still is a
// React Router ServerBuild (the re-export below) for tools that read it as one.
import type { AddressInfo } from "node:net";
import path from "node:path";
import * as build from "virtual:react-router/server-build";
import { EXIT, runAdminCli } from "~/features/auth/admin-cli.server";
import { ConfigError, type Env, readEnv } from "~/shared/env.server";
import { configureLogging } from "~/shared/logger.server";
import { createApp } from "./app";
import { runBackupCli } from "./backup-cli";
import { answerClientErrors } from "./client-errors";
import { shutDownOnSignals } from "./graceful-shutdown";
import { applyHttpTimeouts } from "./http-timeouts";
import { startServices } from "./services";

export * from "virtual:react-router/server-build";

/** sysexits.h EX_CONFIG: the configuration is wrong (systemd does not restart on it, see deploy/). */
export const EX_CONFIG = 78;

/** `npm start`: serves the site from build/ until SIGINT or SIGTERM. */
export async function startServer(source: NodeJS.ProcessEnv = process.env) {
  let env: Env;
  try {
    env = readEnv({ NODE_ENV: "production", ...source });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    // One line per bad variable, and the exit status for a configuration error (EX_CONFIG).
    for (const problem of error.problems) console.error(`Configuration error: ${problem}`);
    process.exit(EX_CONFIG);
  }
  const log = configureLogging(env.logLevel);
  const services = await startServices(env);
  const site = await createApp({
    ...services,
    env,
    build,
    clientDir: path.resolve(import.meta.dirname, "../client"),
  });
  const server = site.listen(env.port, env.host, () => {
    const where = env.databaseUrl ? "PostgreSQL (DATABASE_URL)" : `PGlite in ${env.dataDir}`;
    // The port bound, not the one asked for (PORT=0: one the system chose, which tests read).
    const { port } = server.address() as AddressInfo;
    log.info(`Listening on http://${env.host}:${port} — data: ${where}`);
  });
  applyHttpTimeouts(server);
  answerClientErrors(server);
  shutDownOnSignals({
    server,
    site,
    closeServices: () => services.close(),
    timeoutMs: env.shutdownTimeoutMs,
  });
  return server;
}

/** `npm run backup -- <file>` / `npm run restore -- <file>`. Returns the exit code. */
export async function runBackupCommandLine(
  command: "backup" | "restore",
  args: readonly string[],
): Promise<number> {
  let env: ReturnType<typeof readEnv>;
  try {
    env = readEnv({ NODE_ENV: "production", ...process.env });
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    return 2;
  }
  return runBackupCli(command, args, env);
}

/** `npm run admin -- …`: the admin registry from the command line. Returns the exit code. */
export async function runAdminCommandLine(args: readonly string[]): Promise<number> {
  try {
    return await runAdminCli(args, readEnv(process.env));
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    return EXIT.usage;
  }
}
