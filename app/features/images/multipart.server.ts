import busboy from "busboy";
import type { Request } from "express";
import { HttpError } from "~/shared/http-error.server";
import { IMAGE_LIMITS } from "./process.server";

export interface UploadedFile {
  fieldName: string;
  fileName: string;
  data: Buffer;
}

export const UPLOAD_LIMITS = { maxFiles: 30, maxFieldBytes: 100_000 };

/** Reads a multipart body into memory within the limits; over a limit is a clear 413. */
export function parseMultipart(
  req: Request,
): Promise<{ fields: Record<string, string>; files: UploadedFile[] }> {
  return new Promise((resolve, reject) => {
    if (!req.is("multipart/form-data")) {
      reject(new HttpError(415, "Expected a multipart/form-data upload."));
      return;
    }
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        limits: {
          fileSize: IMAGE_LIMITS.maxBytes,
          files: UPLOAD_LIMITS.maxFiles,
          fieldSize: UPLOAD_LIMITS.maxFieldBytes,
          fields: 50,
        },
      });
    } catch {
      reject(new HttpError(400, "The upload could not be read."));
      return;
    }
    const fields: Record<string, string> = {};
    const files: UploadedFile[] = [];
    let failure: HttpError | undefined;
    const fail = (error: HttpError) => {
      failure ??= error;
    };
    parser.on("field", (name, value, info) => {
      if (info.valueTruncated) fail(new HttpError(413, `The field ${name} is too long.`));
      fields[name] = value;
    });
    parser.on("file", (fieldName, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("limit", () =>
        fail(
          new HttpError(
            413,
            `${info.filename || "An image"} is larger than ${IMAGE_LIMITS.maxBytes / 1024 / 1024} MB.`,
          ),
        ),
      );
      stream.on("end", () => {
        files.push({ fieldName, fileName: info.filename ?? "", data: Buffer.concat(chunks) });
      });
    });
    parser.on("filesLimit", () =>
      fail(new HttpError(413, `At most ${UPLOAD_LIMITS.maxFiles} images can be sent at once.`)),
    );
    parser.on("error", () => reject(new HttpError(400, "The upload could not be read.")));
    parser.on("close", () => (failure ? reject(failure) : resolve({ fields, files })));
    req.pipe(parser);
  });
}
