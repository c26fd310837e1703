// The whole site (the real production build, real router) on a free port over a throwaway
// embedded database, for HTTP-level tests.
import fs from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "react-router";
import { ImageStore } from "~/features/images/index.server";
import { LiveHub } from "~/features/live/hub.server";
import { type Db, openDb } from "~/shared/db.server";
import { type Env, readEnv } from "~/shared/env.server";
import { createApp } from "../../server/app";

export interface TestSite {
  base: string;
  db: Db;
  env: Env;
  images: ImageStore;
  close(): Promise<void>;
}

/** Needs `npm run build` (npm test builds first). `env` overrides the environment. */
export async function startTestSite(env: Record<string, string> = {}): Promise<TestSite> {
  const db = await openDb({ dataDir: "memory://" });
  const hub = await LiveHub.start(db);
  const root = await fs.mkdtemp(path.join(os.tmpdir(), "test-site-"));
  const images = new ImageStore(root);
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const readEnvironment = readEnv({ NODE_ENV: "test", PUBLIC_URL: base, ...env });
  const build = (await import(
    pathToFileURL(path.resolve("build/server/index.js")).href
  )) as ServerBuild;
  const app = await createApp({
    db,
    hub,
    images,
    env: readEnvironment,
    build,
    clientDir: path.resolve("build/client"),
  });
  server.on("request", app);
  return {
    base,
    db,
    env: readEnvironment,
    images,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await hub.close();
      await db.close();
      await fs.rm(root, { recursive: true, force: true });
    },
  };
}
