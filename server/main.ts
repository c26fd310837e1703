// The production server, bundled by `react-router build` into build/server/index.js together
// with React Router's server build, so that `npm start` runs plain JavaScript with every app
// module loaded once (docs/decisions/0031-one-bundled-production-server.md). The module also still is a
// React Router ServerBuild (the re-export below) for tools that read it as one.
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import * as build from "virtual:react-router/server-build";
import { EXIT, runAdminCli } from "~/features/operations/index.server";
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
  // PORT=0 (tests, the benchmark): the port is bound first, so that the default PUBLIC_URL
  // (http://localhost:$PORT) names the port the system chose. Requests wait until the site is
  // attached; nobody knows the port before the "Listening on" line (decision 0054).
  const early = env.port === 0 ? await bindEarly(env.port, env.host) : undefined;
  if (early && source.PUBLIC_URL === undefined) {
    env = readEnv({ NODE_ENV: "production", ...source, PORT: String(early.port) });
  }
  const services = await startServices(env);
  const site = await createApp({
    ...services,
    env,
    build,
    clientDir: path.resolve(import.meta.dirname, "../client"),
  });
  const where = env.databaseUrl ? "PostgreSQL (DATABASE_URL)" : `PGlite in ${env.dataDir}`;
  // The port bound, not the one asked for (PORT=0: one the system chose, which tests read).
  const announce = () => {
    const { port } = server.address() as AddressInfo;
    log.info(`Listening on http://${env.host}:${port} — data: ${where}`);
  };
  const server = early
    ? early.server.on("request", site)
    : site.listen(env.port, env.host, announce);
  if (early) announce();
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

/** An HTTP server bound to `port` (0: any) with no request listener yet, and the port it got. */
async function bindEarly(port: number, host: string) {
  // Timeouts before listen(): Node reads the check interval when it starts listening.
  const server = applyHttpTimeouts(http.createServer());
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  return { server, port: (server.address() as AddressInfo).port };
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
  // Its event line (backup, restore) on stderr: stdout carries the command's own report.
  configureLogging(env.logLevel, process.stderr);
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
