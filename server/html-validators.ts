// ETags for server-rendered pages and route data: a browser revalidating a page it already has
// gets "304 Not Modified" instead of the same HTML again. The body is small, so buffering it to
// hash costs less than sending it twice. The buffered page may also be rewritten first.
import { createHash } from "node:crypto";
import type { RequestHandler } from "express";

type Chunk = string | Buffer | Uint8Array;

function toBuffer(chunk: Chunk, encoding?: BufferEncoding): Buffer {
  return typeof chunk === "string" ? Buffer.from(chunk, encoding) : Buffer.from(chunk);
}

/** `transformHtml` rewrites a finished HTML page before it is hashed and sent. */
export function htmlValidators(
  options: { transformHtml?: (html: string) => string } = {},
): RequestHandler {
  return (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => typeof res;
    const chunks: Buffer[] = [];

    const passThrough = () => {
      res.write = write as typeof res.write;
      res.end = end as typeof res.end;
    };

    res.write = ((chunk: Chunk, encoding?: unknown, callback?: unknown) => {
      // A stream (event-stream) must not wait for its end.
      if (res.headersSent || /event-stream/.test(String(res.getHeader("content-type")))) {
        passThrough();
        if (chunks.length) write(Buffer.concat(chunks.splice(0)));
        return write(chunk, encoding, callback);
      }
      chunks.push(
        toBuffer(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : undefined),
      );
      if (typeof encoding === "function") encoding();
      else if (typeof callback === "function") callback();
      return true;
    }) as typeof res.write;

    res.end = ((chunk?: unknown, encoding?: unknown, callback?: unknown) => {
      passThrough();
      if (typeof chunk === "function") return end(Buffer.concat(chunks), chunk);
      if (chunk) {
        chunks.push(
          toBuffer(
            chunk as Chunk,
            typeof encoding === "string" ? (encoding as BufferEncoding) : undefined,
          ),
        );
      }
      let body = Buffer.concat(chunks);
      if (options.transformHtml && /text\/html/.test(String(res.getHeader("content-type")))) {
        body = Buffer.from(options.transformHtml(body.toString("utf8")));
        res.removeHeader("content-length");
      }
      const done = typeof encoding === "function" ? encoding : callback;
      if (res.statusCode === 200 && !res.headersSent && !res.getHeader("etag")) {
        const hash = createHash("sha1").update(body).digest("base64url").slice(0, 27);
        res.setHeader("ETag", `W/"${hash}"`);
        // Pages depend on who is signed in: only this browser may keep them, and must ask again.
        if (!res.getHeader("cache-control")) res.setHeader("Cache-Control", "private, no-cache");
        if (req.fresh) {
          res.statusCode = 304;
          for (const header of ["content-type", "content-length", "transfer-encoding"]) {
            res.removeHeader(header);
          }
          return end(done);
        }
      }
      return end(body, done);
    }) as typeof res.end;

    next();
  };
}
