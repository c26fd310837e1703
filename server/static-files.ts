// Files served as they are: stored photos (and their responsive variants) and the client build.
import path from "node:path";
import express from "express";
import expressStaticGzip from "express-static-gzip";
import { IMAGE_URL_PREFIX, type ImageStore } from "~/features/images/storage.server";
import { originalOfVariant } from "~/features/images/variants";

const FOREVER = { immutable: true, maxAge: "1y" } as const;

/**
 * Photos: names carry a timestamp and never change content, so they are cached for good. A
 * variant that was never made (a photo stored before variants existed) falls back to its
 * original for a day, so pages never show a broken image. Only URLs the store recognises as
 * one of its photos are answered (ImageStore.pathOf: one plain folder name, a photo file name,
 * inside the root): no traversal, and temporary or staged files are never served.
 */
export function photoFiles(images: ImageStore): express.Router {
  const router = express.Router();
  const notFound = (res: express.Response) => res.status(404).type("text/plain").send("Not Found");
  // (`use`, not a route pattern: the path is parsed here, as sent, and never decoded twice.)
  router.use(IMAGE_URL_PREFIX, (req, res) => {
    const url = IMAGE_URL_PREFIX + req.path;
    const file = req.method === "GET" || req.method === "HEAD" ? images.pathOf(url) : null;
    if (!file) return notFound(res);
    res.sendFile(file, { ...FOREVER, dotfiles: "deny" }, (error) => {
      if (!error || res.headersSent) return;
      const original = originalOfVariant(path.posix.basename(url));
      const fallback = original ? images.pathOf(`${path.posix.dirname(url)}/${original}`) : null;
      if (!fallback) return notFound(res);
      res.sendFile(fallback, { maxAge: "1d", dotfiles: "deny" }, (again) => {
        if (again && !res.headersSent) notFound(res);
      });
    });
  });
  return router;
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
  router.use(
    "/assets",
    precompressed(path.join(clientDir, "assets"), { ...FOREVER, fallthrough: false }),
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
