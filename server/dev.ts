import type { ServerBuild } from "react-router";
import { readEnv } from "~/shared/env.server";
import { configureLogging } from "~/shared/logger.server";
import { createApp } from "./app";
import { applyHttpTimeouts } from "./http-timeouts";
import { startServices } from "./services";

// Development: Vite serves modules with hot reload; the same app and services as production.
const env = readEnv({ NODE_ENV: "development", ...process.env });
// JSON lines as in production (pipe through `npx pino-pretty` to read them more easily).
configureLogging(env.logLevel);
const services = await startServices(env);
const vite = await import("vite").then((v) => v.createServer({ server: { middlewareMode: true } }));
const app = await createApp({
  ...services,
  env,
  build: () => vite.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>,
  viteMiddleware: vite.middlewares,
});
applyHttpTimeouts(
  app.listen(env.port, env.host, () => console.log(`Dev server on http://localhost:${env.port}`)),
);
