import type { IncomingMessage, ServerResponse } from "node:http";
import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express from "express";
import type { ServerBuild } from "react-router";
import type { AppServices } from "~/app-context";
import { createAuthRouter } from "~/features/auth/auth-router.server";
import { getViewer, requireAdmin } from "~/features/auth/viewer.server";
import { createListingApi } from "~/features/listings/api.server";
import { liveEventStream } from "~/features/live/event-stream.server";
import type { LiveHub } from "~/features/live/hub.server";
import { deferHydration } from "./defer-hydration";
import { finalErrorHandler } from "./error-handler";
import { PageCache } from "./page-cache";
import { pageResponses, serveCachedPage } from "./page-responses";
import { rateLimits } from "./rate-limits";
import { clientFiles, photoFiles } from "./static-files";

export interface CreateAppOptions extends AppServices {
  hub: LiveHub;
  /** Production: the built server bundle. Development: a function loading it through Vite. */
  build: ServerBuild | (() => Promise<ServerBuild>);
  /** Production: build/client. Development: the Vite middleware serves assets. */
  clientDir?: string;
  viteMiddleware?: express.RequestHandler;
}

/** The whole HTTP surface, built without listening so tests can drive it on any port. */
export async function createApp(options: CreateAppOptions) {
  const { db, images, env, hub } = options;
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", env.trustProxy);

  app.use((_req, res, next) => {
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
    res.setHeader("X-Frame-Options", "SAMEORIGIN");
    next();
  });

  app.use(rateLimits(env.limits));

  app.get("/healthz", async (_req, res) => {
    try {
      await db.query("SELECT 1");
      res.json({ status: "ok", database: db.kind, liveSubscribers: hub.size });
    } catch {
      res.status(503).json({ status: "unavailable" });
    }
  });

  // Event streams must not be buffered by compression.
  app.get("/live", liveEventStream(hub));

  // Development renders fresh from Vite every time; production keeps signed-out pages.
  const pageCache = options.viteMiddleware ? undefined : new PageCache();
  if (pageCache) hub.observe(() => pageCache.clear());
  // Signed-out visitors all see the same page; anyone with a session gets their own.
  const cacheable = (cookie: string | undefined) =>
    !hasSessionCookie(cookie, env.session.cookieName);
  if (pageCache) {
    // Kept pages are answered before Express does any work for the request: this is the path
    // most visitors take, and skipping the framework roughly doubles its throughput.
    // (`handle` is what the Express app function calls for each request; not in its types.)
    const inner = app as unknown as {
      handle: (...args: [IncomingMessage, ServerResponse, unknown]) => void;
    };
    const handle = inner.handle.bind(app);
    inner.handle = (req, res, next) => {
      if (!serveCachedPage(pageCache, cacheable, req, res)) handle(req, res, next);
    };
  }

  app.use(compression());

  // Before any body parser: the development identity provider reads its own request bodies.
  app.use(await createAuthRouter({ db, env }));

  // Every write below (API and page actions) must come from the site's own pages.
  app.use(sameOriginWrites(env.publicUrl));
  app.use("/api", createListingApi({ db, images, requireAdmin: requireAdmin({ db, env }) }));

  app.use(photoFiles(images));
  if (options.viteMiddleware) app.use(options.viteMiddleware);
  else if (options.clientDir) app.use(clientFiles(options.clientDir));

  app.all(
    "/{*splat}",
    pageResponses({
      transformHtml: options.viteMiddleware ? undefined : deferHydration,
      cache: pageCache,
      cacheable,
    }),
    createRequestHandler({
      build: options.build,
      mode: options.viteMiddleware ? "development" : "production",
      getLoadContext: async (req) => ({
        db,
        images,
        env,
        viewer: await getViewer(db, env, req.headers.cookie),
      }),
    }),
  );

  // One error handler: logs the cause, never shows internals to the visitor.
  app.use(finalErrorHandler);

  return app;
}

/**
 * Writes carry the session cookie, so refuse those a browser sends from another site's page
 * (SameSite=Lax already stops most; this also covers same-site subdomains and old browsers).
 */
function sameOriginWrites(publicUrl: string): express.RequestHandler {
  const allowed = new URL(publicUrl).origin;
  return (req, res, next) => {
    if (req.method === "GET" || req.method === "HEAD" || req.method === "OPTIONS") return next();
    const origin = req.headers.origin;
    if (!origin) return next(); // Non-browser clients (and same-origin forms in old browsers).
    const ownOrigin = `${req.protocol}://${req.headers.host}`;
    if (origin === allowed || origin === ownOrigin) return next();
    res.status(403).json({ error: "Cross-site requests are not allowed." });
  };
}

function hasSessionCookie(header: string | undefined, name: string): boolean {
  return header?.split(";").some((c) => c.trim().startsWith(`${name}=`)) ?? false;
}
