import type { Request, Response } from "express";
import { type Collection, isCollection } from "~/domain/listing-kinds";
import type { LiveHub } from "./hub.server";

const HEARTBEAT_MS = 25_000;

/**
 * GET /live?collections=properties,newConstruction — server-sent events, one per change; with
 * `leads=1`, for an admin (`isAdmin`), also `{"op":"leads"}` whenever the leads change.
 */
export function liveEventStream(
  hub: LiveHub,
  isAdmin: (req: Request) => Promise<boolean> = async () => false,
) {
  return async (req: Request, res: Response) => {
    const leads = req.query.leads === "1" && (await isAdmin(req).catch(() => false));
    const wanted = new Set<Collection>(
      String(req.query.collections ?? "properties,newConstruction")
        .split(",")
        .filter(isCollection),
    );
    const headers = {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-store",
      Connection: "keep-alive",
      "X-Accel-Buffering": "no",
    };
    // A HEAD request gets the stream's headers and no stream (it could never read one).
    if (req.method === "HEAD") {
      res.writeHead(200, headers).end();
      return;
    }
    res.writeHead(200, headers);
    res.write("retry: 1000\n\n");
    const unsubscribe = hub.subscribe(
      (change) => {
        if (wanted.has(change.collection)) res.write(`data: ${JSON.stringify(change)}\n\n`);
      },
      {
        // Server shutdown: the browser's EventSource reconnects after `retryMs`.
        end: (retryMs) => res.end(`retry: ${retryMs}\n\n`),
        // Changes may have been missed while the database was away: the page reloads its data.
        resync: () => res.write(`data: ${JSON.stringify({ op: "resync" })}\n\n`),
      },
    );
    // Asked again at each change: staff whose role no longer shows leads (or who were removed)
    // stop hearing of them at once, and their stream ends (docs/behaviour.md §6, "Staff roles").
    const unsubscribeLeads = leads
      ? hub.subscribeLeads(() => {
          void isAdmin(req)
            .catch(() => false)
            .then((still) => {
              if (res.writableEnded) return;
              if (still) res.write(`data: ${JSON.stringify({ op: "leads" })}\n\n`);
              else res.end();
            });
        })
      : () => undefined;
    const heartbeat = setInterval(() => res.write(": ping\n\n"), HEARTBEAT_MS);
    req.on("close", () => {
      clearInterval(heartbeat);
      unsubscribe();
      unsubscribeLeads();
    });
  };
}
