// Each open /live stream holds a connection for as long as the page is open. Capped per client
// address and in total; a refused page simply has no live updates (EventSource gives up on a
// non-200 answer without retrying, and the page shows nothing for it).
import type { RequestHandler } from "express";
import { clientKey } from "./client-address";

const RETRY_AFTER_SECONDS = 60;

export function liveStreamCap(limits: { perClient: number; total: number }): RequestHandler {
  const perClient = new Map<string, number>();
  let total = 0;
  return (req, res, next) => {
    const key = clientKey(req);
    const mine = perClient.get(key) ?? 0;
    if (mine >= limits.perClient || total >= limits.total) {
      res
        .status(429)
        .set({ "Retry-After": String(RETRY_AFTER_SECONDS), "Cache-Control": "no-store" })
        .type("text/plain")
        .send(
          "Too many live-update connections from your network. The page works without live updates.",
        );
      return;
    }
    perClient.set(key, mine + 1);
    total++;
    res.once("close", () => {
      total--;
      const left = (perClient.get(key) ?? 1) - 1;
      if (left > 0) perClient.set(key, left);
      else perClient.delete(key);
    });
    next();
  };
}
