import { createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import busboy from "busboy";
import type { Request, Response } from "express";
import { HttpError } from "~/shared/http-error.server";
import { IMAGE_LIMITS } from "./process.server";

/** One uploaded file, streamed to a temporary file (deleted when the request is done). */
export interface UploadedFile {
  fieldName: string;
  fileName: string;
  path: string;
  size: number;
}

export interface Upload {
  fields: Record<string, string>;
  files: UploadedFile[];
}

const MB = 1024 * 1024;

export const UPLOAD_LIMITS = {
  maxFiles: 30,
  maxFields: 50,
  maxFieldBytes: 100_000,
  /** The whole request: 30 photos of 10 MB (a 48-megapixel phone's) fit; the disk stays safe. */
  maxTotalBytes: 300 * MB,
};

/** How long a refused upload's connection stays open, unread, so the client can read the 413. */
const CLOSE_AFTER_REFUSAL_MS = 1000;

/**
 * Receives a multipart upload into temporary files (never into memory), runs `use` with it and
 * deletes the files whatever happens. At the first limit reading stops at once: the clear 413
 * is answered without reading the rest of the body, and the connection is closed.
 */
export async function withUpload<T>(
  req: Request,
  res: Response,
  newTempFile: () => Promise<string>,
  use: (upload: Upload) => Promise<T>,
): Promise<T> {
  const upload = await receive(req, res, newTempFile);
  try {
    return await use(upload);
  } finally {
    await removeFiles(upload.files);
  }
}

function receive(req: Request, res: Response, newTempFile: () => Promise<string>): Promise<Upload> {
  if (!req.is("multipart/form-data")) {
    stopReading(req, res);
    return Promise.reject(new HttpError(415, "Expected a multipart/form-data upload."));
  }
  const declared = Number(req.headers["content-length"]);
  if (declared > UPLOAD_LIMITS.maxTotalBytes) {
    stopReading(req, res);
    return Promise.reject(tooLargeInTotal());
  }
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: req.headers,
      limits: {
        fileSize: IMAGE_LIMITS.maxBytes,
        files: UPLOAD_LIMITS.maxFiles,
        fields: UPLOAD_LIMITS.maxFields,
        fieldSize: UPLOAD_LIMITS.maxFieldBytes,
      },
    });
  } catch {
    stopReading(req, res);
    return Promise.reject(new HttpError(400, "The upload could not be read."));
  }

  return new Promise((resolve, reject) => {
    const fields: Record<string, string> = {};
    const files: UploadedFile[] = [];
    const writes: Promise<void>[] = [];
    const streams = new Set<NodeJS.ReadableStream & { destroy(): void }>();
    let total = 0;
    let settled = false;

    const fail = (error: HttpError) => {
      if (settled) return;
      settled = true;
      stopReading(req, res);
      for (const stream of streams) stream.destroy();
      // Whatever was written so far goes; the caller never sees these files.
      void Promise.allSettled(writes)
        .then(() => removeFiles(files))
        .then(() => reject(error));
    };

    parser.on("field", (name, value, info) => {
      if (info.valueTruncated) fail(new HttpError(413, `The field ${name} is too long.`));
      else fields[name] = value;
    });
    parser.on("file", (fieldName, stream, info) => {
      // A body that ends mid-file destroys this stream with an error, possibly before the
      // pipeline below is attached (it waits for a temporary file): the parser's own "error"
      // reports it; unhandled here, it would end the process.
      stream.on("error", () => {});
      if (settled) {
        stream.resume();
        return;
      }
      const file: UploadedFile = { fieldName, fileName: info.filename ?? "", path: "", size: 0 };
      files.push(file);
      streams.add(stream);
      stream.on("limit", () =>
        fail(
          new HttpError(
            413,
            `${file.fileName || "An image"} is larger than ${IMAGE_LIMITS.maxBytes / MB} MB.`,
          ),
        ),
      );
      const counter = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          file.size += chunk.length;
          total += chunk.length;
          if (total > UPLOAD_LIMITS.maxTotalBytes) fail(tooLargeInTotal());
          done(null, chunk);
        },
      });
      writes.push(
        (async () => {
          file.path = await newTempFile();
          if (settled) return;
          await pipeline(
            stream,
            counter,
            createWriteStream(file.path, { flags: "wx", mode: 0o600 }),
          );
        })().catch(() => fail(new HttpError(400, "The upload could not be read."))),
      );
    });
    parser.on("filesLimit", () =>
      fail(new HttpError(413, `At most ${UPLOAD_LIMITS.maxFiles} images can be sent at once.`)),
    );
    parser.on("fieldsLimit", () => fail(new HttpError(413, "The upload has too many fields.")));
    parser.on("error", () => fail(new HttpError(400, "The upload could not be read.")));
    parser.on("close", () => {
      void Promise.all(writes).then(() => {
        if (settled) return;
        settled = true;
        resolve({ fields, files });
      });
    });
    // A client that goes away mid-upload: stop and clean up (nobody reads the answer).
    req.on("close", () => {
      if (!req.complete) fail(new HttpError(400, "The upload was interrupted."));
    });
    req.pipe(parser);
  });
}

export function tooLargeInTotal() {
  return new HttpError(
    413,
    `The upload is larger than ${UPLOAD_LIMITS.maxTotalBytes / MB} MB in total. Send fewer images at once.`,
  );
}

/**
 * Reads no more of the request: the answer goes out as soon as it is ready, then the connection
 * is half-closed and, a moment later, closed. Nothing more of the body is read meanwhile (the
 * socket stays paused), but the client has time to read the answer before the connection ends.
 */
function stopReading(req: Request, res: Response) {
  // Said in the answer, so a client does not send its next request on this connection.
  if (!res.headersSent) res.set("Connection", "close");
  req.unpipe();
  req.pause();
  const socket = req.socket;
  res.once("finish", () => {
    socket.end();
    setTimeout(() => socket.destroy(), CLOSE_AFTER_REFUSAL_MS).unref();
  });
}

async function removeFiles(files: UploadedFile[]) {
  await Promise.all(files.map((f) => (f.path ? fs.rm(f.path, { force: true }) : undefined)));
}
