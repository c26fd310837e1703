// Node's request/response to Fetch Request/Response and back: pages are handled as Fetch
// objects (server/page-pipeline.ts); Express and Node's HTTP server speak IncomingMessage.
import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { type PageAnswer, PageResponse } from "./page-pipeline";
import { requireTargetUrl } from "./request-target";

/**
 * The Fetch Request for a Node request. The URL's origin is the site's configured one, never
 * the Host header a client sent.
 */
export function toFetchRequest(req: IncomingMessage, origin: string): Request {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    headers.append(req.rawHeaders[i] as string, req.rawHeaders[i + 1] as string);
  }
  const method = req.method ?? "GET";
  const hasBody = method !== "GET" && method !== "HEAD";
  return new Request(requireTargetUrl(req.url ?? "/", origin), {
    method,
    headers,
    ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream, duplex: "half" } : {}),
  } as RequestInit);
}

/** Writes a Fetch Response to Node's response: a page's bytes at once, other bodies as they come. */
export async function sendFetchResponse(res: ServerResponse, response: Response): Promise<void> {
  if (response instanceof PageResponse) return writePageAnswer(res, response.answer);
  res.statusCode = response.status;
  for (const [name, value] of response.headers) {
    if (name !== "set-cookie") res.setHeader(name, value);
  }
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) res.setHeader("set-cookie", cookies);
  if (!response.body) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || res.destroyed) break;
      // Respect back-pressure from slow clients.
      if (!res.write(value)) {
        await new Promise((resolve) => {
          res.once("drain", resolve);
          res.once("close", resolve);
        });
      }
    }
  } finally {
    reader.releaseLock();
    await response.body.cancel().catch(() => undefined);
  }
  res.end();
}

/** Sends a page's answer, headers and bytes at once. */
export function writePageAnswer(res: ServerResponse, answer: PageAnswer) {
  const headers: string[] = [];
  for (const [name, value] of answer.headers) headers.push(name, value);
  res.writeHead(answer.status, headers);
  res.end(answer.body ?? undefined);
}
