import http from "node:http";
import compression from "compression";
import express from "express";
import { type AppLoadContext, createRequestHandler, data, type ServerBuild } from "react-router";
import type { AppServices } from "~/app-context";
import { activityRecorder } from "~/features/activity/index.server";
import { createApplicationServices } from "~/features/applications/index.server";
import { createAuthRouter } from "~/features/auth/auth-router.server";
import { can, requireStaffApi } from "~/features/auth/index.server";
import { sessionTokenFromCookies } from "~/features/auth/sessions.server";
import { getViewer } from "~/features/auth/viewer.server";
import { securityHeaders } from "~/features/document/security-headers.server";
import { FeedCache } from "~/features/feeds/index.server";
import { createListingApi } from "~/features/listings/api.server";
import { liveEventStream } from "~/features/live/event-stream.server";
import type { LiveHub } from "~/features/live/hub.server";
import { createSettingsApi, getSiteContent } from "~/features/site-settings/index.server";
import { sendApiRefusal } from "~/shared/api-refusal.server";
import { DATABASE_UNAVAILABLE, type Db, isDatabaseUnavailable } from "~/shared/db.server";
import type { Env } from "~/shared/env.server";
import { crossSiteFetch } from "~/shared/fetch-metadata";
import { log, withRequestId } from "~/shared/logger.server";
import { redactUrl } from "~/shared/redact-url";
import type { Scheduler } from "~/shared/scheduler.server";
import { APPLICATION_PDF_PATH, applicationPdf } from "./application-pdf";
import { bodyLimits } from "./body-limits";
import { createPageTargets, type PageTargets } from "./canonical-url";
import { clientKey } from "./client-address";
import { finalErrorHandler } from "./error-handler";
import { erasePerson, featureLimits } from "./features";
import { sendFetchResponse, toFetchRequest, writePageAnswer } from "./fetch-bridge";
import { healthChecks } from "./health";
import { PageCache } from "./page-cache";
import { answerPage, createPagePipeline, pageKey } from "./page-pipeline";
import { inquiryLimiter, rateLimits, renderLimiter } from "./rate-limits";
import { requestLog, type TrustProxyFn } from "./request-log";
import { clientFiles, photoFiles } from "./static-files";
import { mayCarryStoredSearch, withStoredSearch } from "./stored-search";

export interface CreateAppOptions extends AppServices {
  hub: LiveHub;
  /** Plans work due at given times (absent: nothing is planned, as in tests of single pages). */
  scheduler?: Pick<Scheduler, "at">;
  /** Production: the built server bundle. Development: a function loading it through Vite. */
  build: ServerBuild | (() => Promise<ServerBuild>);
  /** Production: build/client. Development: the Vite middleware serves assets. */
  clientDir?: string;
  viteMiddleware?: express.RequestHandler;
}

/** The site as one Node request listener; `listen` starts an HTTP server with it (tests, dev). */
export type SiteHandler = http.RequestListener & {
  listen(port: number, host?: string, callback?: () => void): http.Server;
  /**
   * Shutdown has begun (docs/decisions/0035-graceful-shutdown.md): /readyz answers 503, every
   * answer closes its connection, and open live streams end with a reconnect hint.
   */
  beginShutdown(): void;
};

/** How long a browser whose live stream ended at shutdown waits before reconnecting. */
export const SHUTDOWN_RETRY_MS = 2000;

/** The whole HTTP surface, built without listening so tests can drive it on any port. */
export async function createApp(options: CreateAppOptions): Promise<SiteHandler> {
  const { db, images, env, hub } = options;
  const development = Boolean(options.viteMiddleware);
  const baseline = securityHeaders({ hsts: env.strictTransportSecurity, development });
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", env.trustProxy);
  app.use((_req, res, next) => {
    res.set(baseline);
    next();
  });

  // Every body's limit, before anything reads one (docs/decisions/0072-request-body-limits.md).
  app.use(bodyLimits());

  app.use(rateLimits(env.limits, env.databaseUrl ? db : null));

  let stopping = false;
  app.use(healthChecks({ db, images, hub, stopping: () => stopping }));

  // Event streams must not be buffered by compression.
  // Staff's streams also carry lead changes (docs/behaviour.md §27): for those who see leads.
  app.get(
    "/live",
    liveEventStream(hub, async (req) =>
      can(await getViewer(db, env, req.headers.cookie ?? undefined), "leads"),
    ),
  );

  // Development renders fresh from Vite every time; production keeps signed-out pages.
  const pageCache = development ? undefined : new PageCache();
  // After a database outage the hub resyncs: changes may have been missed, so nothing kept
  // can be trusted (docs/decisions/0016-page-cache-for-signed-out-visitors.md).
  if (pageCache) {
    hub.observe(
      () => pageCache.clear(),
      () => pageCache.clear(),
    );
    // New company content shows on the next request, on every instance (docs/behaviour.md §18).
    hub.observeSite(() => pageCache.clear());
  }
  const loaderDb = outageAs503(db);
  // The listing feeds (docs/behaviour.md §28): kept in every mode, cleared as the kept pages are.
  const feeds = new FeedCache(loaderDb, {
    publicUrl: env.publicUrl,
    photoBaseUrl: env.photoBaseUrl,
  });
  hub.observe(
    () => feeds.clear(),
    () => feeds.clear(),
  );
  hub.observeSite(() => feeds.clear());
  const render = createRequestHandler(options.build, development ? "development" : "production");
  // Canonical page URLs from React Router's own route table (in development, as Vite has it now).
  const buildNow = options.build;
  const pageTargets: PageTargets =
    typeof buildNow === "function"
      ? await lazyPageTargets(buildNow)
      : createPageTargets(buildNow.routes);
  // Renders that miss the kept pages, per client address (docs/decisions/0050-…): the client
  // of each page request, as Express worked it out (trust proxy).
  const clientOf = new WeakMap<Request, string>();
  // The id request-log.ts gave each page request, for the loaders' and actions' context.
  const requestIdOf = new WeakMap<Request, string>();
  const renderLimit = renderLimiter(env.limits.rendersPerMinute);
  // The key that seals applications, and their private document store (docs/decisions/0071).
  const applications = await createApplicationServices(env);
  const services = { db: loaderDb, env, images, applications };
  // The features' per-client limits (their contracts' `limits`, server/features.ts): posts
  // counted per client address and hour, on every instance alike with DATABASE_URL.
  const limiters = new Map(
    [...featureLimits(services)].map(([name, perHour]) => [
      name,
      inquiryLimiter(perHour, env.databaseUrl ? db : null, `${name}:`),
    ]),
  );
  const hasSessionCookie = (cookie: string | null | undefined) =>
    sessionTokenFromCookies(cookie, env.session) !== undefined;
  const pages = createPagePipeline<AppLoadContext>({
    cache: pageCache,
    defaultHeaders: baseline,
    hasSessionCookie: (request) => hasSessionCookie(request.headers.get("cookie")),
    rendersFor: withStoredSearch,
    identify: async (request) => {
      const viewer = await getViewer(db, env, request.headers.get("cookie") ?? undefined);
      // An unknown or expired session is a signed-out visitor: the shared page. Staff see
      // every page rendered fresh, so their renders are not counted.
      return {
        shared: viewer.user === null,
        limited: viewer.role === null,
        // Staff see personal data (leads, applications, mail) on their pages: never stored.
        noStore: viewer.role !== null,
        context: {
          db: loaderDb,
          images,
          env,
          viewer,
          requestId: requestIdOf.get(request),
          limit: (name: string) => {
            const limiter = limiters.get(name);
            if (!limiter) throw new Error(`No feature declares the limit "${name}".`);
            return limiter(clientOf.get(request) ?? "unknown");
          },
          applications,
          feeds,
          erasePerson: (email, by) => erasePerson(services, email, by),
          scheduler: options.scheduler,
        },
      };
    },
    pageTargets,
    limitRender: (request) => renderLimit(clientOf.get(request) ?? "unknown", request),
    render: (request, context) => render(request, context),
  });
  const origin = new URL(env.publicUrl).origin;
  const servePage = (req: express.Request, res: http.ServerResponse) => {
    const request = toFetchRequest(req, pageOrigin(env, origin, req));
    clientOf.set(request, clientKey(req));
    const id = res.getHeader("X-Request-Id");
    if (typeof id === "string") requestIdOf.set(request, id);
    return pages(request).then((response) => {
      // A body the page never read (a 404 or 405 answered without it) blocks the connection
      // until it is drained: it closes after this answer instead, and says so.
      if (!req.complete && !res.headersSent) res.setHeader("Connection", "close");
      return sendFetchResponse(res, response);
    });
  };

  // Streamed, with ranges: before compression and the page pipeline, which would buffer it.
  app.all(APPLICATION_PDF_PATH, applicationPdf({ db, images }));

  app.use(compression());

  // Before any body parser: the development identity provider reads its own request bodies.
  app.use(
    await createAuthRouter({
      db,
      env,
      companyName: async () => (await getSiteContent(db)).name,
    }),
  );

  // Every write below (API and page actions) must come from the site's own pages.
  app.use(sameOriginWrites(env.publicUrl));
  app.use(
    "/api/site",
    createSettingsApi({
      db,
      images,
      guard: requireStaffApi({ db, env }, "site:write"),
      onSaved: () => {
        pageCache?.clear();
        feeds.clear();
      },
    }),
  );
  app.use(
    "/api",
    createListingApi({
      db,
      images,
      guard: (permission) => requireStaffApi({ db, env }, permission),
      onSiteChange: () => {
        pageCache?.clear();
        feeds.clear();
      },
      // The CSV names photos by an address staff can open: the CDN's, else this site's.
      photoAddress: (url) =>
        url.startsWith("/images/") && env.photoBaseUrl
          ? env.photoBaseUrl + url.slice("/images".length)
          : new URL(url, env.publicUrl).href,
    }),
  );

  app.use(photoFiles(images));
  if (options.viteMiddleware) app.use(options.viteMiddleware);
  else if (options.clientDir) app.use(clientFiles(options.clientDir));

  // (`use`, not `all("/{*splat}")`: Express would decode the splat and answer 400 for a path
  // that is not valid percent-encoding, before the router could give its 404 page.)
  app.use((req, res, next) => {
    servePage(req, res).catch(next);
  });

  // The one error handler, the API's too (docs/decisions/0058-one-error-model.md): a refusal's
  // status and message; a fault as a generic 500 with the request's id, its cause logged.
  app.use(finalErrorHandler);

  // A kept page for a request without a session cookie (most visitors) is answered here, by
  // the same answerPage() the pipeline uses, before Express or any Fetch object is made: on
  // Node 20 a Fetch Request alone costs more than the whole answer (50 vs 100 µs of CPU per
  // request, measured; docs/decisions/0030-page-pipeline-on-fetch.md). Everything else goes
  // to Express, and pages there through the pipeline.
  const logRequest = requestLog(app.get("trust proxy fn") as TrustProxyFn);
  // Each request's audit events go to this site's 'Activity' (docs/behaviour.md §6).
  const audit = activityRecorder(db);
  const handler: http.RequestListener = (req, res) => {
    const id = logRequest(req, res);
    // Shutting down: no answer keeps its connection alive, so the server can close.
    if (stopping) res.setHeader("Connection", "close");
    withRequestId(
      id,
      () => {
        try {
          answer(req, res);
        } catch (error) {
          // A fault before Express (the kept-page lookup) must not take the process down: the
          // request goes through Express instead, whose one error handler answers any fault.
          log().error(
            { err: error },
            `${req.method} ${redactUrl(req.url ?? "/")}: kept-page lookup failed`,
          );
          if (res.headersSent) res.destroy();
          else app(req, res);
        }
      },
      audit,
    );
  };
  const answer: http.RequestListener = (req, res) => {
    const key =
      pageCache &&
      (req.method === "GET" || req.method === "HEAD") &&
      !hasSessionCookie(req.headers.cookie)
        ? pageKey(
            req.url ?? "/",
            pageTargets,
            // A list's stored search (server/stored-search.ts) is part of what it renders.
            mayCarryStoredSearch(req.headers.cookie)
              ? (url) => withStoredSearch(url, req.headers.cookie)
              : undefined,
          )
        : undefined;
    const kept = key === undefined ? undefined : pageCache?.get(key);
    if (!kept) return app(req, res);
    const answer = answerPage(kept, {
      method: req.method as string,
      ifNoneMatch: req.headers["if-none-match"],
      acceptEncoding: req.headers["accept-encoding"],
    });
    if (!(answer instanceof Promise)) return writePageAnswer(res, answer);
    answer.then(
      (ready) => writePageAnswer(res, ready),
      // Nothing is written yet: the request takes the ordinary path instead (a fresh render
      // through Express, its headers and its one error handler), so no answer skips them.
      (error) => {
        log().warn(
          { err: error },
          `${req.method} ${redactUrl(req.url ?? "/")}: kept copy failed, rendering afresh`,
        );
        app(req, res);
      },
    );
  };
  return Object.assign(handler, {
    listen: (port: number, host?: string, callback?: () => void) =>
      http.createServer(handler).listen(port, host, callback),
    beginShutdown() {
      stopping = true;
      hub.endStreams(SHUTDOWN_RETRY_MS);
    },
  });
}

/** Development: the route table of the build Vite has now (routes change as files do). */
async function lazyPageTargets(load: () => Promise<ServerBuild>): Promise<PageTargets> {
  let current = createPageTargets((await load()).routes);
  const refresh = () =>
    load().then(
      (build) => {
        current = createPageTargets(build.routes);
      },
      () => undefined,
    );
  return (url) => {
    void refresh();
    return current(url);
  };
}

/**
 * The database as loaders and actions see it: during an outage (docs/behaviour.md, "Database
 * faults") a failed statement becomes a thrown 503 answer, which the root error page shows
 * with that status, instead of a 500.
 */
function outageAs503(db: Db): Db {
  const answer503 = (error: unknown) => {
    if (!isDatabaseUnavailable(error)) return error;
    return data({ message: DATABASE_UNAVAILABLE.message }, { status: 503 });
  };
  return {
    ...db,
    kind: db.kind,
    query: ((sql: string, params?: unknown[]) =>
      db.query(sql, params).catch((e: unknown) => Promise.reject(answer503(e)))) as Db["query"],
    exec: (sql) => db.exec(sql).catch((e: unknown) => Promise.reject(answer503(e))),
    transaction: ((fn: Parameters<Db["transaction"]>[0]) =>
      db.transaction(fn).catch((e: unknown) => Promise.reject(answer503(e)))) as Db["transaction"],
  };
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
    if (!origin) {
      // Non-browser clients (and same-origin forms in old browsers) pass; a browser that says
      // another site's page sent it (Fetch Metadata, docs/behaviour.md §16) does not.
      if (!crossSiteFetch(req.headers["sec-fetch-site"])) return next();
      sendApiRefusal(res, 403, "Cross-site requests are not allowed.");
      return;
    }
    const ownOrigin = `${req.protocol}://${req.headers.host}`;
    if (origin === allowed || origin === ownOrigin) return next();
    // A page sent with 'Referrer-Policy: no-referrer' (an application's private link) posts its
    // own forms with 'Origin: null'; the browser's Fetch Metadata still says whose page it was.
    // Passed on without it, as an old browser's same-origin form (React Router refuses "null").
    if (origin === "null" && req.headers["sec-fetch-site"] === "same-origin") {
      delete req.headers.origin;
      for (let i = req.rawHeaders.length - 2; i >= 0; i -= 2) {
        if (req.rawHeaders[i]?.toLowerCase() === "origin") req.rawHeaders.splice(i, 2);
      }
      return next();
    }
    sendApiRefusal(res, 403, "Cross-site requests are not allowed.");
  };
}

/** A loopback name and port, as a Host header gives it. */
const LOOPBACK_HOST = /^(?:localhost|127\.0\.0\.1|\[::1\]):(\d{1,5})$/;

/**
 * The origin a page request is read at: PUBLIC_URL's, but in a trial (no PUBLIC_URL) the loopback
 * address the browser opened, localhost or 127.0.0.1 (the "Listening on" line shows the latter):
 * React Router refuses a form posted from an origin other than the request's, so the trial's
 * forms would otherwise fail at one of the two (docs/configuration.md, PUBLIC_URL). Only this
 * server's own port on a loopback name: no Host header can name another site.
 */
export function pageOrigin(
  env: Pick<Env, "trial">,
  origin: string,
  req: Pick<http.IncomingMessage, "headers" | "socket">,
): string {
  if (!env.trial) return origin;
  const port = LOOPBACK_HOST.exec(req.headers.host ?? "")?.[1];
  return port && Number(port) === req.socket.localPort ? `http://${req.headers.host}` : origin;
}
