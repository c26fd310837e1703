// A small HTTP client for hostile requests: the target is sent exactly as given (no
// normalising, no re-encoding), bodies are raw bytes, and the answer is read up to a cap.
// Requests go over one keep-alive agent; event streams are cut once their headers arrive.
import http from "node:http";
import net from "node:net";

export interface RawRequest {
  method: string;
  /** The request target, sent as is (bytes 0x21-0xFF; anything else goes through `rawSocket`). */
  target: string;
  headers?: Record<string, string>;
  body?: Buffer | string;
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  ms: number;
}

const BODY_CAP = 4 * 1024 * 1024;

export function rawClient(base: string, options: { maxSockets?: number; timeoutMs?: number } = {}) {
  const url = new URL(base);
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.maxSockets ?? 8 });
  function send(request: RawRequest): Promise<RawResponse> {
    const started = performance.now();
    // Node sends a GET, HEAD, DELETE or OPTIONS body without a length unless told: the server
    // would read it as the next request. A body is always declared (or chunked, if asked).
    const headers = { ...request.headers };
    const declared = Object.keys(headers).some((h) =>
      ["content-length", "transfer-encoding"].includes(h.toLowerCase()),
    );
    if (request.body !== undefined && !declared) {
      headers["content-length"] = String(Buffer.byteLength(request.body));
    }
    return new Promise((resolve, reject) => {
      const req = http.request(
        {
          agent,
          host: url.hostname,
          port: url.port,
          method: request.method,
          path: request.target,
          headers,
          // Some fuzzed headers are huge on purpose (431).
          maxHeaderSize: 1024 * 1024,
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          const done = () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              body: Buffer.concat(chunks),
              ms: performance.now() - started,
            });
          if (String(res.headers["content-type"]).startsWith("text/event-stream")) {
            // A live stream stays open: its status and headers are the answer.
            res.destroy();
            req.destroy();
            return done();
          }
          res.on("data", (chunk: Buffer) => {
            size += chunk.length;
            if (size <= BODY_CAP) chunks.push(chunk);
          });
          res.on("end", done);
          res.on("error", reject);
        },
      );
      req.setTimeout(options.timeoutMs ?? 15_000, () =>
        req.destroy(new Error(`timeout: ${request.method} ${request.target}`)),
      );
      req.on("error", reject);
      req.end(request.body);
    });
  }
  return { send, close: () => agent.destroy() };
}

/** One request written byte for byte on a fresh connection (for targets http.request refuses). */
export function rawSocket(base: string, bytes: Buffer | string): Promise<RawResponse> {
  const url = new URL(base);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname);
    const chunks: Buffer[] = [];
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("error", reject);
    socket.setTimeout(30_000, () => socket.destroy(new Error("raw socket timeout")));
    socket.on("close", () => {
      const text = Buffer.concat(chunks);
      const head = text.subarray(0, Math.max(0, text.indexOf("\r\n\r\n"))).toString("latin1");
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0);
      const headers: http.IncomingHttpHeaders = {};
      for (const line of head.split("\r\n").slice(1)) {
        const at = line.indexOf(":");
        if (at > 0) headers[line.slice(0, at).toLowerCase()] = line.slice(at + 1).trim();
      }
      const body = text.subarray(text.indexOf("\r\n\r\n") + 4);
      resolve({ status, headers, body, ms: performance.now() - started });
    });
    socket.write(bytes);
  });
}
