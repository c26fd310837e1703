// One way to send a stored file (a photo from a bucket, the company's PDF, the generated form):
// streamed, never read whole, with ETag and Last-Modified, 304 for a current copy, a single
// Range as 206 (416 when it cannot be met), and a HEAD without a body. Files on disk go through
// res.sendFile, which does the same (docs/decisions/0051-stored-files-streamed.md).
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type express from "express";

/** Inclusive byte positions, as in a Range header. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface SendableFile {
  size: number;
  modified?: Date;
  etag?: string;
  contentType: string;
  /** The bytes, or only those of `range`. */
  body(range?: ByteRange): Readable;
}

export async function sendStored(
  req: express.Request,
  res: express.Response,
  file: SendableFile,
  headers: Record<string, string>,
): Promise<void> {
  res.set({
    ...headers,
    "Content-Type": file.contentType,
    "Accept-Ranges": "bytes",
    ...(file.etag ? { ETag: file.etag } : {}),
    ...(file.modified ? { "Last-Modified": file.modified.toUTCString() } : {}),
  });
  // (req.fresh compares If-None-Match / If-Modified-Since with the headers just set.)
  if (req.fresh) {
    res.status(304).end();
    return;
  }
  let range: ByteRange | undefined;
  if (req.headers.range && rangeStillValid(req, file)) {
    const ranges = req.range(file.size, { combine: true });
    if (ranges === -1) {
      res.status(416).set("Content-Range", `bytes */${file.size}`).type("text/plain");
      res.send("Range Not Satisfiable");
      return;
    }
    // A malformed header (-2) or several ranges: the whole file (a server may ignore Range).
    if (Array.isArray(ranges) && ranges.type === "bytes" && ranges.length === 1 && ranges[0]) {
      range = { start: ranges[0].start, end: ranges[0].end };
    }
  }
  const length = range ? range.end - range.start + 1 : file.size;
  res.set("Content-Length", String(length));
  if (range) res.status(206).set("Content-Range", `bytes ${range.start}-${range.end}/${file.size}`);
  if (req.method === "HEAD" || length === 0) {
    res.end();
    return;
  }
  await pipeline(file.body(range), res).catch(() => {
    // The visitor went away, or the store broke off: the answer is cut short either way.
  });
}

/** If-Range: the range applies only to the version the client names (else the whole file). */
function rangeStillValid(req: express.Request, file: SendableFile): boolean {
  const ifRange = req.get("if-range");
  if (!ifRange) return true;
  if (ifRange.startsWith('"') || ifRange.startsWith("W/")) {
    return Boolean(file.etag) && !ifRange.startsWith("W/") && ifRange === file.etag;
  }
  const since = Date.parse(ifRange);
  return (
    file.modified !== undefined &&
    !Number.isNaN(since) &&
    Math.floor(file.modified.getTime() / 1000) <= Math.floor(since / 1000)
  );
}
