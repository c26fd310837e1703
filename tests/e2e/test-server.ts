// The real server, plus a control port that only tests use to read and change the database
// (the PGlite files belong to this process, so fixtures cannot open them themselves).
import http from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "react-router";
import { readEnv } from "~/shared/env.server";
import { createApp } from "../../server/app";
import { applyHttpTimeouts } from "../../server/http-timeouts";
import { startServices } from "../../server/services";

// NODE_ENV "test": the built-in development identity provider signs test users in offline.
const env = readEnv({ ...process.env, NODE_ENV: "test" });
const services = await startServices(env);
const build = (await import(
  pathToFileURL(path.resolve("build/server/index.js")).href
)) as ServerBuild;
const app = await createApp({ ...services, env, build, clientDir: path.resolve("build/client") });

const server = applyHttpTimeouts(app.listen(env.port, "127.0.0.1"));
const control = http.createServer(async (req, res) => {
  let body = "";
  for await (const chunk of req) body += chunk;
  try {
    const { sql, params } = JSON.parse(body) as { sql: string; params?: unknown[] };
    const rows = await services.db.query(sql, params ?? []);
    res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(rows));
  } catch (error) {
    res.writeHead(500).end(String(error));
  }
});
control.listen(Number(process.env.CONTROL_PORT), "127.0.0.1", () => {
  console.log("test-server ready");
});

process.on("SIGTERM", async () => {
  server.closeAllConnections();
  server.close();
  control.close();
  await services.close();
  process.exit(0);
});
