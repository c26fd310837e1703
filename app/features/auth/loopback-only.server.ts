// The development identity provider signs anyone in as any address (verified), so it answers
// only requests that come from this computer: the connection's peer and every address a proxy
// says it forwarded for must be loopback. Headers cannot make a remote peer local; a local proxy
// names the remote client in them.
import { isIP } from "node:net";
import type express from "express";
import { sendPage } from "./pages.server";

export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const plain = address.replace(/^::ffff:/i, "");
  if (isIP(plain) === 4) return plain.startsWith("127.");
  return isIP(address) === 6 && /^(0{0,4}:){2,7}0{0,3}1$|^::1$/.test(address);
}

/** Every client address named by X-Forwarded-For, X-Real-IP and Forwarded (for=). */
function forwardedAddresses(headers: express.Request["headers"]): string[] {
  const list = (value: string | string[] | undefined) =>
    (Array.isArray(value) ? value.join(",") : (value ?? ""))
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
  const forwarded = list(headers.forwarded).flatMap((element) =>
    element
      .split(";")
      .map((pair) => pair.trim())
      .filter((pair) => pair.toLowerCase().startsWith("for="))
      .map((pair) => unwrapNode(pair.slice(4))),
  );
  return [...list(headers["x-forwarded-for"]), ...list(headers["x-real-ip"]), ...forwarded];
}

/** A Forwarded node ('"[2001:db8::1]:4711"', '192.0.2.1:80', 'unknown') to its address. */
function unwrapNode(node: string): string {
  const value = node.replace(/^"|"$/g, "");
  const bracketed = /^\[([^\]]+)\]/.exec(value);
  if (bracketed?.[1]) return bracketed[1];
  return isIP(value) ? value : value.replace(/:\d+$/, "");
}

export function isLoopbackRequest(req: express.Request): boolean {
  return (
    isLoopbackAddress(req.socket.remoteAddress) &&
    forwardedAddresses(req.headers).every(isLoopbackAddress)
  );
}

/** Refuses, with a page saying why, every request that does not come from this computer. */
export function loopbackOnly(): express.RequestHandler {
  return (req, res, next) => {
    if (isLoopbackRequest(req)) return next();
    sendPage(res, 403, {
      title: "Development sign-in",
      body: "<main><h1>Development sign-in</h1><p>The development sign-in only answers requests from this computer. To sign in from elsewhere, configure an OpenID Connect provider (OIDC_CLIENT_ID and OIDC_CLIENT_SECRET).</p></main>",
    });
  };
}
