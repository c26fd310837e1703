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
 * original for a day, so pages never show a broken image.
 */
export function photoFiles(images: ImageStore): express.Router {
  const router = express.Router();
  router.use(
    IMAGE_URL_PREFIX,
    express.static(images.root, { ...FOREVER, fallthrough: true, index: false, dotfiles: "deny" }),
  );
  router.get(`${IMAGE_URL_PREFIX}/{*rest}`, (req, res, next) => {
    const url = req.path;
    const original = originalOfVariant(path.posix.basename(url));
    const file = original ? images.pathOf(`${path.posix.dirname(url)}/${original}`) : null;
    if (!file) return next();
    res.sendFile(file, { maxAge: "1d", dotfiles: "deny" }, (error) => {
      if (error && !res.headersSent) next();
    });
  });
  router.use(IMAGE_URL_PREFIX, (_req, res) => {
    res.status(404).type("text/plain").send("Not Found");
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
  router.use(
    "/assets",
    precompressed(path.join(clientDir, "assets"), { ...FOREVER, fallthrough: false }),
  );
  router.use(precompressed(clientDir, { maxAge: "1h", index: false }));
  return router;
}
