// A multipart upload sent by hand over a socket, chunk by chunk, so a test can see how much of
// the body the server read before answering, pause half-way, or walk away mid-upload.
import net from "node:net";

export interface StreamingUploadOptions {
  port: number;
  path: string;
  /** Bytes of the one file part (filler bytes), unless `content` gives the file itself. */
  fileSize?: number;
  /** The file's bytes (a real photo), sent in the same chunks. */
  content?: Buffer;
  /** More request headers (a session cookie). */
  headers?: Record<string, string>;
  fileName?: string;
  /** The Content-Length header to send (default: the true length). */
  declaredLength?: number;
  /** After this many body bytes, wait for `until` before sending more. */
  holdAt?: { bytes: number; until: Promise<unknown> };
  /** Close the connection after this many body bytes (a client going away). */
  abortAt?: number;
}

export interface StreamingUploadResult {
  status: number;
  body: string;
  /** Body bytes handed to the socket before the answer came (or the connection ended). */
  sent: number;
  total: number;
}

const CHUNK = 64 * 1024;

export function streamingUpload(options: StreamingUploadOptions): Promise<StreamingUploadResult> {
  const boundary = "----streaming-upload-boundary";
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="images"; filename="${options.fileName ?? "big.jpg"}"\r\nContent-Type: image/jpeg\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const fileSize = options.content?.length ?? options.fileSize ?? 0;
  const total = head.length + fileSize + tail.length;
  const filler = Buffer.alloc(CHUNK, 0x41);
  const extraHeaders = Object.entries(options.headers ?? {})
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join("");

  return new Promise((resolve, reject) => {
    const socket = net.connect(options.port, "127.0.0.1");
    let response = Buffer.alloc(0);
    let answered = false;
    let sent = 0;
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      const text = response.toString("latin1");
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      const body = text.includes("\r\n\r\n") ? text.slice(text.indexOf("\r\n\r\n") + 4) : "";
      resolve({ status, body, sent, total });
      socket.destroy();
    };
    socket.on("data", (chunk: Buffer) => {
      answered = true;
      response = Buffer.concat([response, chunk]);
      const text = response.toString("latin1");
      const end = text.indexOf("\r\n\r\n");
      const length = Number(/\r\ncontent-length: (\d+)/i.exec(text)?.[1] ?? Number.NaN);
      if (end >= 0 && response.length >= end + 4 + length) finish();
    });
    socket.on("close", finish);
    socket.on("error", () => {
      // A reset after the answer (the server stopped reading): what was read still counts.
      if (answered) finish();
      else if (!finished) reject(new Error("connection failed before any answer"));
    });

    const write = async (data: Buffer) => {
      if (answered || finished) return false;
      sent += data.length;
      if (!socket.write(data)) {
        await new Promise<void>((r) => {
          socket.once("drain", r);
          socket.once("data", () => r());
          socket.once("close", r);
        });
      }
      return !answered && !finished;
    };

    socket.once("connect", async () => {
      socket.write(
        `POST ${options.path} HTTP/1.1\r\nHost: 127.0.0.1:${options.port}\r\n` +
          `Content-Type: multipart/form-data; boundary=${boundary}\r\n` +
          `Content-Length: ${options.declaredLength ?? total}\r\n${extraHeaders}\r\n`,
      );
      if (!(await write(head))) return;
      let left = fileSize;
      let held = false;
      while (left > 0) {
        if (options.abortAt !== undefined && sent >= options.abortAt) {
          socket.destroy();
          return;
        }
        if (options.holdAt && !held && sent >= options.holdAt.bytes) {
          held = true;
          await options.holdAt.until.catch(() => undefined);
        }
        const size = Math.min(left, CHUNK);
        const offset = fileSize - left;
        left -= size;
        const chunk = options.content
          ? options.content.subarray(offset, offset + size)
          : size === CHUNK
            ? filler
            : filler.subarray(0, size);
        if (!(await write(chunk))) return;
      }
      await write(tail);
    });
  });
}
