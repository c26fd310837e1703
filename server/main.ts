// The production server, bundled by `react-router build` into build/server/index.js together
// with React Router's server build, so that `npm start` runs plain JavaScript with every app
// module loaded once (docs/decisions/0031-one-bundled-production-server.md). The module also still is a
// React Router ServerBuild (the re-export below) for tools that read it as one.
import path from "node:path";
import * as build from "virtual:react-router/server-build";
import { EXIT, runAdminCli } from "~/features/auth/admin-cli.server";
import { readEnv } from "~/shared/env.server";
import { createApp } from "./app";
import { answerClientErrors } from "./client-errors";
import { applyHttpTimeouts } from "./http-timeouts";
import { startServices } from "./services";

export * from "virtual:react-router/server-build";

/** `npm start`: serves the site from build/ until SIGINT or SIGTERM. */
export async function startServer(source: NodeJS.ProcessEnv = process.env) {
  const env = readEnv({ NODE_ENV: "production", ...source });
  const services = await startServices(env);
  const app = await createApp({
    ...services,
    env,
    build,
    clientDir: path.resolve(import.meta.dirname, "../client"),
  });
  const server = app.listen(env.port, env.host, () => {
    const where = env.databaseUrl ? "PostgreSQL (DATABASE_URL)" : `PGlite in ${env.dataDir}`;
    console.log(`Listening on http://${env.host}:${env.port} — data: ${where}`);
  });
  applyHttpTimeouts(server);
  answerClientErrors(server);

  let stopping = false;
  async function shutdown(signal: string) {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: closing`);
    server.closeAllConnections();
    server.close();
    await services.close();
    process.exit(0);
  }
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  return server;
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
