// Test helper: the whole app (real router, real sessions) on a free loopback port, on any
// database target. Used only by *.test.ts; needs the production build (npm test builds first).
import fs from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "react-router";
import { createApplicationServices } from "~/features/applications/index.server";
import { grantAdmin } from "~/features/auth/admins.server";
import type { Role } from "~/features/auth/permissions";
import { createSession } from "~/features/auth/sessions.server";
import { upsertUser } from "~/features/auth/users.server";
import { DiskImageStore, type ImageStore } from "~/features/images/index.server";
import { LiveHub } from "~/features/live/hub.server";
import { type Db, openDb } from "~/shared/db.server";
import { type Env, readEnv } from "~/shared/env.server";
import { startScheduler } from "~/shared/scheduler.server";
import { createApp } from "../../server/app";
import { answerClientErrors } from "../../server/client-errors";
import { featureDelayedJobs } from "../../server/features";

export interface TestApp<S extends ImageStore = DiskImageStore> {
  base: string;
  db: Db;
  env: Env;
  images: S;
  server: http.Server;
  /** A Cookie header for a new signed-in user with this (verified) address. */
  /** `admin`: an Owner, unless `role` names another staff role. */
  signIn(email: string, options?: { admin?: boolean; role?: Role }): Promise<string>;
  close(): Promise<void>;
}

export async function startTestApp<S extends ImageStore = DiskImageStore>(
  options: {
    /** An open database (closed by the caller); default: a fresh in-memory PGlite. */
    db?: Db;
    /** An image store (cleaned up by the caller); default: a fresh DiskImageStore. */
    images?: S;
    env?: Record<string, string>;
    /** Interface to listen on; default 127.0.0.1. */
    host?: string;
    /** Runs the features' delayed jobs (reminders), as the server does; default: none. */
    scheduler?: boolean;
  } = {},
): Promise<TestApp<S>> {
  const db = options.db ?? (await openDb({ dataDir: "memory://" }));
  const hub = await LiveHub.start(db);
  const root = await fs.mkdtemp(path.join(os.tmpdir(), "test-app-"));
  const images = options.images ?? (new DiskImageStore(root) as ImageStore as S);
  const server = answerClientErrors(http.createServer());
  await new Promise<void>((r) => server.listen(0, options.host ?? "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  const base = `http://127.0.0.1:${port}`;
  // development: the built-in sign-in (dev-oidc) is there, as tests of it expect. Tests ask for
  // many pages from one address: renders are limited only where a test says so.
  const env = readEnv({
    NODE_ENV: "development",
    PUBLIC_URL: base,
    RENDER_RATE_LIMIT: "100000000",
    ...options.env,
  });
  const build = (await import(
    pathToFileURL(path.resolve("build/server/index.js")).href
  )) as ServerBuild;
  const scheduler = options.scheduler
    ? await startScheduler(
        db,
        [],
        featureDelayedJobs({ db, env, images, applications: await createApplicationServices(env) }),
        { pollSeconds: 0.5 },
      )
    : undefined;
  const app = await createApp({
    db,
    hub,
    images,
    env,
    build,
    clientDir: path.resolve("build/client"),
    scheduler,
  });
  server.on("request", app);

  let users = 0;
  return {
    base,
    db,
    env,
    images,
    server,
    async signIn(email, { admin = false, role } = {}) {
      const sub = `test-user-${++users}`;
      const key = { issuer: "https://id.example", sub };
      await upsertUser(db, { ...key, email, emailVerified: true, name: sub });
      if (admin || role) await grantAdmin(db, email, "test", role);
      const session = await createSession(db, key, env.session);
      return `${env.session.cookieName}=${session.token}`;
    },
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await scheduler?.stop();
      await hub.close();
      if (!options.db) await db.close();
      await fs.rm(root, { recursive: true, force: true });
    },
  };
}
