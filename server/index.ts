import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "react-router";
import { readEnv } from "~/shared/env.server";
import { createApp } from "./app";
import { applyHttpTimeouts } from "./http-timeouts";
import { startServices } from "./services";

const env = readEnv({ NODE_ENV: "production", ...process.env });
const services = await startServices(env);
const buildDir = path.resolve("build");
const build = (await import(
  pathToFileURL(path.join(buildDir, "server/index.js")).href
)) as ServerBuild;

const app = await createApp({
  ...services,
  env,
  build,
  clientDir: path.join(buildDir, "client"),
});

const server = app.listen(env.port, env.host, () => {
  const where = env.databaseUrl ? "PostgreSQL (DATABASE_URL)" : `PGlite in ${env.dataDir}`;
  console.log(`Listening on http://localhost:${env.port} — data: ${where}`);
});
applyHttpTimeouts(server);

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
