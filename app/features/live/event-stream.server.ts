import type { Request, Response } from "express";
import { type Collection, isCollection } from "~/domain/listing-kinds";
import type { LiveHub } from "./hub.server";

const HEARTBEAT_MS = 25_000;

/** GET /live?collections=properties,newConstruction — server-sent events, one per change. */
export function liveEventStream(hub: LiveHub) {
  return (req: Request, res: Response) => {
    const wanted = new Set<Collection>(
      String(req.query.collections ?? "properties,newConstruction")
        .split(",")
        .filter(isCollection),
    );
    res.writeHead(200, {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-store",
      Connection: "keep-alive",
      "X-Accel-Buffering": "no",
    });
    // A HEAD gets the headers only: nothing is ever written to it, so Node would not send them.
    if (req.method === "HEAD") {
      res.end();
      return;
    }
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
    const heartbeat = setInterval(() => res.write(": ping\n\n"), HEARTBEAT_MS);
    req.on("close", () => {
      clearInterval(heartbeat);
      unsubscribe();
    });
  };
}
