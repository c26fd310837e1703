// Files served as they are: stored photos (and their responsive variants) and the client build.
import path from "node:path";
import express from "express";
import expressStaticGzip from "express-static-gzip";
import {
  DiskImageStore,
  IMAGE_URL_PREFIX,
  type ImageStore,
} from "~/features/images/storage.server";
import { originalOfVariant } from "~/features/images/variants";
import { sendStored } from "./send-stored";

const FOREVER = { immutable: true, maxAge: "1y" } as const;
const SCRIPT_OR_STYLE = /\.(js|css)$/;
const DOCUMENT_ONLY = ["Content-Security-Policy", "X-Frame-Options", "Referrer-Policy"];

/**
 * Photos: names carry a timestamp and never change content, so they are cached for good. A
 * variant that was never made (a photo stored before variants existed) falls back to its
 * original for a day, so pages never show a broken image. Only URLs the store recognises as
 * one of its photos are answered (one plain folder name, a photo file name, inside the store):
 * no traversal, and temporary or staged files are never served. On disk the file is sent as it
 * is; from a bucket the object is streamed through with the same headers
 * (docs/decisions/0038-object-storage.md).
 */
export function photoFiles(images: ImageStore): express.Router {
  const router = express.Router();
  const notFound = (res: express.Response) => res.status(404).type("text/plain").send("Not Found");
  const fallbackOf = (url: string) => {
    const original = originalOfVariant(path.posix.basename(url));
    return original ? `${path.posix.dirname(url)}/${original}` : null;
  };
  // (`use`, not a route pattern: the path is parsed here, as sent, and never decoded twice.)
  router.use(IMAGE_URL_PREFIX, (req, res, next) => {
    const url = IMAGE_URL_PREFIX + req.path;
    if (req.method !== "GET" && req.method !== "HEAD") return notFound(res);
    if (!(images instanceof DiskImageStore)) {
      streamPhoto(images, url, fallbackOf(url), req, res).catch(next);
      return;
    }
    const file = images.pathOf(url);
    if (!file) return notFound(res);
    res.sendFile(file, { ...FOREVER, dotfiles: "deny" }, (error) => {
      if (!error || res.headersSent) return;
      if (unsatisfiable(error, res)) return;
      const fallbackUrl = fallbackOf(url);
      const fallback = fallbackUrl ? images.pathOf(fallbackUrl) : null;
      if (!fallback) return notFound(res);
      res.sendFile(fallback, { maxAge: "1d", dotfiles: "deny" }, (again) => {
        if (again && !res.headersSent) notFound(res);
      });
    });
  });
  return router;
}

/** A Range beyond the file: 416 with the Content-Range `send` worked out, not a missing photo. */
function unsatisfiable(error: Error, res: express.Response): boolean {
  const { status, headers } = error as Error & {
    status?: number;
    headers?: Record<string, string>;
  };
  if (status !== 416) return false;
  res
    .status(416)
    .set(headers ?? {})
    .type("text/plain")
    .send("Range Not Satisfiable");
  return true;
}

/** Cache-Control exactly as express.static writes it for FOREVER and for a day. */
const CACHE_FOREVER = "public, max-age=31536000, immutable";
const CACHE_DAY = "public, max-age=86400";

async function streamPhoto(
  images: ImageStore,
  url: string,
  fallbackUrl: string | null,
  req: express.Request,
  res: express.Response,
) {
  let photo = await images.open(url);
  let cacheControl = CACHE_FOREVER;
  if (!photo && fallbackUrl) {
    photo = await images.open(fallbackUrl);
    cacheControl = CACHE_DAY;
  }
  if (!photo) {
    res.status(404).type("text/plain").send("Not Found");
    return;
  }
  await sendStored(req, res, photo, { "Cache-Control": cacheControl });
}

/**
 * The client build: hashed assets immutable, sent as the brotli or gzip file written at build
 * time (scripts/vite-precompress.ts) when the browser accepts it; other files for an hour.
 */
export function clientFiles(clientDir: string): express.Router {
  const router = express.Router();
  const precompressed = (root: string, serveStatic: Record<string, unknown>) =>
    expressStaticGzip(root, { enableBrotli: true, orderPreference: ["br", "gz"], serveStatic });
  // serve-static answers other methods with an empty 405: say why.
  router.use("/assets", (req, res, next) => {
    if (req.method === "GET" || req.method === "HEAD") return next();
    res.status(405).set("Allow", "GET, HEAD").type("text/plain").send("Method Not Allowed");
  });
  // express-static-gzip answers a path it cannot percent-decode with its own 400: no file has
  // such a name, so under /assets it is not found, and elsewhere it is left to the pages (a
  // listing URL like /properties/%FF gets the ordinary missing-record page).
  router.use("/assets", (req, res, next) => {
    if (decodable(req.path)) return next();
    res.status(404).type("text/plain").send("Not Found");
  });
  // Scripts and stylesheets are never documents: the document-only headers (CSP, framing,
  // referrer) do nothing on them, and each costs ~300 bytes on each of a page's 15 files, 4 KB
  // of a phone's first load. Nor are they ever revalidated (hashed names, immutable for a year),
  // so they carry no validators. docs/decisions/0056-detail-meta-made-by-the-loader.md.
  router.use("/assets", (req, res, next) => {
    if (SCRIPT_OR_STYLE.test(req.path)) for (const name of DOCUMENT_ONLY) res.removeHeader(name);
    next();
  });
  router.use(
    "/assets",
    precompressed(path.join(clientDir, "assets"), {
      ...FOREVER,
      fallthrough: false,
      etag: false,
      lastModified: false,
      acceptRanges: false,
    }),
  );
  const rootFiles = precompressed(clientDir, { maxAge: "1h", index: false });
  router.use((req, res, next) => (decodable(req.path) ? rootFiles(req, res, next) : next()));
  return router;
}

function decodable(urlPath: string): boolean {
  try {
    decodeURIComponent(urlPath);
    return true;
  } catch {
    return false;
  }
}
