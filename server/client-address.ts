import type { Request } from "express";
import { ipKeyGenerator } from "express-rate-limit";

/**
 * The key per-client limits count under: the client's address as Express sees it (the
 * connection's peer, or what a trusted proxy names; see TRUST_PROXY), an IPv6 client by its /56
 * network, since one household or office gets a whole range.
 */
export function clientKey(req: Request): string {
  return ipKeyGenerator(req.ip ?? req.socket.remoteAddress ?? "unknown");
}
