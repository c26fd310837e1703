// The document: rendered whole on the server, its inline scripts allowed by their hashes, the
// security headers, and hydration deferred until the page has loaded (docs/behaviour.md §13, §16).
import { Writable } from "node:stream";
import { renderToPipeableStream } from "react-dom/server";
import {
  type AppLoadContext,
  type EntryContext,
  type HeadersFunction,
  isRouteErrorResponse,
  ServerRouter,
} from "react-router";
import {
  deferHydration,
  inlineScriptHashes,
  securityHeaders,
} from "~/features/document/index.server";
import { log } from "~/shared/logger.server";
import { isLoggedPageFault } from "~/shared/page-fault.server";

/** How long loaders may stream before the render is cut off (React Router reads this export). */
export const streamTimeout = 5_000;

/** Loader, action and render errors on the server: one JSON line with the request's id. */
export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return;
  const where = `${request.method} ${new URL(request.url).pathname}`;
  // A refusal the framework answers itself (405 for a page without an action, 404) is the
  // client's mistake: its access line is enough, so it is no error of ours.
  if (isRouteErrorResponse(error) && error.status < 500) {
    log().debug({ status: error.status }, `${where} refused`);
    return;
  }
  // Logged with its cause where it was caught (app/shared/page-fault.server.ts).
  if (isLoggedPageFault(error)) return;
  log().error({ err: error }, `${where} failed`);
}

let reportedUndeferred = false;
const UNDEFERRED = "Hydration could not be deferred: React Router's module script was not found.";

export default function handleRequest(
  request: Request,
  status: number,
  headers: Headers,
  routerContext: EntryContext,
  context: AppLoadContext,
): Promise<Response> {
  const policyFor = (scriptHashes: readonly string[]) =>
    securityHeaders({
      scriptHashes,
      hsts: context.env.strictTransportSecurity,
      imageOrigins: context.env.photoBaseUrl ? [new URL(context.env.photoBaseUrl).origin] : [],
      development: import.meta.env.DEV,
    });
  const policy = policyFor([]);
  keepRouteHeadersOnErrorPages(routerContext, headers);
  // The policy fills in what the route left unset: a header a route sets is its own (the private
  // link's `Referrer-Policy: no-referrer`, docs/behaviour.md §32). The Content-Security-Policy
  // is always ours, set once the page is rendered (it lists the page's script hashes).
  for (const [name, value] of Object.entries(policy)) {
    if (name !== "Content-Security-Policy" && !headers.has(name)) headers.set(name, value);
  }
  headers.set("Content-Type", "text/html; charset=utf-8");

  // Every page is sent whole (it is kept, ETagged and compressed by server/page-pipeline.ts),
  // so the render waits for all content, for browsers and crawlers alike.
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        chunks.push(chunk);
        callback();
      },
      final(callback) {
        clearTimeout(timeout);
        let html = Buffer.concat(chunks).toString("utf8");
        const inserted: string[] = [];
        // Development serves Vite's modules with hot reload: nothing to defer there.
        if (!import.meta.env.DEV) {
          const result = deferHydration(html);
          if (!result.deferred && context.env.nodeEnv !== "production") {
            reject(new Error(UNDEFERRED));
            return callback();
          }
          if (!result.deferred) reportUndeferredOnce();
          else inserted.push(result.inserted);
          html = result.html;
        }
        // The same page gives the same policy: a kept page's is as good for every visitor.
        const scripts = policyFor(inlineScriptHashes(html, inserted));
        headers.set("Content-Security-Policy", scripts["Content-Security-Policy"] as string);
        resolve(new Response(html, { status, headers }));
        callback();
      },
    });
    const { pipe, abort } = renderToPipeableStream(
      <ServerRouter context={routerContext} url={request.url} />,
      {
        // Every Suspense boundary inline, however far down the page: React would otherwise send
        // one after 12,800 bytes hidden, for a script to show, and without JavaScript it stays
        // hidden (the forms and filter bar loaded on demand, docs/decisions/0077).
        progressiveChunkSize: Number.POSITIVE_INFINITY,
        onAllReady() {
          pipe(sink);
        },
        onShellError: reject,
        onError(error) {
          status = 500;
          log().error(
            { err: error },
            `${request.method} ${new URL(request.url).pathname}: render failed`,
          );
        },
      },
    );
    const timeout = setTimeout(abort, streamTimeout + 1000);
  });
}

/**
 * A route below the error boundary that answers (the root's, for a thrown 500 or 503) loses its
 * `headers` in React Router's merge: its error page carries them all the same, so a private
 * link's page stays `no-store` and `no-referrer` when it fails.
 */
function keepRouteHeadersOnErrorPages(routerContext: EntryContext, headers: Headers) {
  const { errors, matches } = routerContext.staticHandlerContext;
  if (!errors) return;
  const boundary = matches.findIndex((m) => errors[m.route.id] !== undefined);
  for (const match of matches.slice(boundary + 1)) {
    // On the server these are the route files' whole modules, `headers` included.
    const module = routerContext.routeModules[match.route.id] as
      | { headers?: HeadersFunction | HeadersInit }
      | undefined;
    const own = module?.headers;
    if (!own) continue;
    const set =
      typeof own === "function"
        ? own({
            loaderHeaders: new Headers(),
            parentHeaders: new Headers(),
            actionHeaders: new Headers(),
            errorHeaders: undefined,
          })
        : own;
    for (const [name, value] of new Headers(set)) headers.set(name, value);
  }
}

/**
 * A framework upgrade that changes <Scripts>' markup must not silently turn the deferral off:
 * outside production the render fails (and with it the tests, which read the real build);
 * production keeps serving the page and says so once.
 */
function reportUndeferredOnce() {
  if (reportedUndeferred) return;
  reportedUndeferred = true;
  log().error(UNDEFERRED);
}
