// Requests Node's HTTP parser refuses before the app sees them (headers too large, a malformed
// request line or header, a request that took too long) get the status Node would send, plus a
// short text saying why, instead of an empty body (docs/behaviour.md: every refusal has a message).
import { type Server, type ServerResponse, STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";

const TEXTS: Record<number, string> = {
  400: "The request could not be read: it is not well-formed HTTP.",
  408: "The request took too long to arrive.",
  413: "The request is too large.",
  431: "The request's headers are too large.",
};

/** The status Node's own handler answers for a parser error (node:_http_server). */
function statusOf(code: string | undefined): number {
  if (code === "HPE_HEADER_OVERFLOW") return 431;
  if (code === "HPE_CHUNK_EXTENSIONS_OVERFLOW") return 413;
  if (code === "ERR_HTTP_REQUEST_TIMEOUT") return 408;
  return 400;
}

export function answerClientErrors<T extends Server>(server: T): T {
  server.on(
    "clientError",
    (error: NodeJS.ErrnoException, socket: Duplex & { bytesWritten?: number }) => {
      // Nothing can be answered on a closed socket or after part of a response went out.
      if (error.code === "ECONNRESET" || !socket.writable || (socket.bytesWritten ?? 0) > 0) {
        socket.destroy();
        return;
      }
      // Bytes after a request that is still being answered (e.g. a GET followed by a body it did
      // not declare): that request's answer goes out first, then the connection closes. An error
      // answer written now would reach the client as the answer to the request before it.
      const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse })._httpMessage;
      if (inFlight && !inFlight.writableFinished) {
        inFlight.once("finish", () => socket.end());
        inFlight.once("close", () => socket.destroy());
        return;
      }
      const status = statusOf(error.code);
      // An answer to HEAD has no body (a client would read the text as the next answer).
      const head = (error as { rawPacket?: Buffer }).rawPacket?.subarray(0, 5).toString("latin1");
      const body = head === "HEAD " ? "" : (TEXTS[status] ?? STATUS_CODES[status] ?? "Bad Request");
      socket.end(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
          "Content-Type: text/plain; charset=utf-8\r\n" +
          "X-Content-Type-Options: nosniff\r\n" +
          `Content-Length: ${Buffer.byteLength(body)}\r\n` +
          "Connection: close\r\n\r\n" +
          body,
      );
    },
  );
  return server;
}
