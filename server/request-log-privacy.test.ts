// What the access line must not give away (docs/behaviour.md §24): sign-in codes and tokens in
// query strings, and, behind a trusted proxy, the proxy's address in place of the client's.
import http from "node:http";
import proxyaddr from "proxy-addr";
import { afterEach, describe, expect, it } from "vitest";
import { calendarFeedPath } from "~/features/showings/index.server";
import { captureLogs, type LogLine } from "../tests/support/logs";
import { requestLog, type TrustProxyFn } from "./request-log";

let logs: ReturnType<typeof captureLogs> | undefined;
let server: http.Server | undefined;
afterEach(() => {
  server?.close();
  logs?.restore();
});

/** One request through requestLog() alone; returns its access line. */
async function accessLine(
  trust: TrustProxyFn,
  url: string,
  headers: Record<string, string> = {},
): Promise<LogLine> {
  logs = captureLogs();
  const logRequest = requestLog(trust);
  let id = "";
  server = http.createServer((req, res) => {
    id = logRequest(req, res);
    res.end("ok");
  });
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await (await fetch(`http://127.0.0.1:${port}${url}`, { headers })).arrayBuffer();
  const captured = logs;
  await expect.poll(() => captured.lines.filter((l) => l.reqId === id)).toHaveLength(1);
  return captured.lines.find((l) => l.reqId === id) as LogLine;
}

describe("query strings in the access line", () => {
  it("replaces the sign-in callback's code, state and session_state with [redacted]", async () => {
    const url =
      "/auth/callback?code=SECRETCODE&state=SECRETSTATE&iss=https%3A%2F%2Fid&session_state=S3";
    const line = await accessLine(() => false, url);
    const shown =
      "/auth/callback?code=[redacted]&state=[redacted]&iss=https%3A%2F%2Fid&session_state=[redacted]";
    expect(line.req?.url).toBe(shown);
    expect(line.msg).toBe(`GET ${shown} 200 ${line.responseTime} ms`);
    expect(JSON.stringify(line)).not.toMatch(/SECRETCODE|SECRETSTATE|S3"/);
  });
});

describe("private links in the access line", () => {
  it("never shows a staff calendar feed's token (docs/behaviour.md §33)", async () => {
    const token = "CalendarSecret".padEnd(43, "x");
    const line = await accessLine(() => false, calendarFeedPath(token));
    expect(line.req?.url).toBe("/showings/calendar.ics?token=[redacted]");
    expect(JSON.stringify(line)).not.toContain("CalendarSecret");
  });
});

describe("the client's address in the access line", () => {
  const forwarded = { "X-Forwarded-For": "203.0.113.9" };

  it("is the client's address a trusted proxy names (TRUST_PROXY), as Express's req.ip", async () => {
    const line = await accessLine(proxyaddr.compile(["loopback"]), "/about", forwarded);
    expect(line.req?.remoteAddress).toBe("203.0.113.9");
  });

  it("is the connection's peer when the sender is not a trusted proxy", async () => {
    const line = await accessLine(() => false, "/about", forwarded);
    expect(line.req?.remoteAddress).toBe("127.0.0.1");
  });
});
