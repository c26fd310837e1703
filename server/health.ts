// Health checks for process supervisors and load balancers
// (docs/decisions/0034-structured-logs-request-ids-and-health.md).
import { Router } from "express";
import type { ImageStore } from "~/features/images/index.server";
import type { LiveHub } from "~/features/live/hub.server";
import type { Db } from "~/shared/db.server";

/** A dependency that takes longer than this to answer counts as unreachable. */
export const READY_CHECK_TIMEOUT_MS = 2000;

export function healthChecks(options: {
  db: Db;
  images: ImageStore;
  hub: LiveHub;
  stopping: () => boolean;
}) {
  const { db, images, hub } = options;
  const router = Router();
  const noStore = { "Cache-Control": "no-store" };

  // Liveness: the process answers. Never touches the database, so an outage there does not
  // get a healthy process restarted.
  router.get("/healthz", (_req, res) => {
    res.set(noStore).json({ status: "ok", database: db.kind, liveSubscribers: hub.size });
  });

  // Readiness: send traffic here only when the database and the photo storage answer, and
  // not once shutdown has begun.
  router.get("/readyz", async (_req, res) => {
    const [database, storage] = await Promise.all([
      reachable(() => db.query("SELECT 1")),
      reachable(() => images.checkReachable()),
    ]);
    const stopping = options.stopping();
    const ready = database && storage && !stopping;
    res
      .status(ready ? 200 : 503)
      .set(noStore)
      .json({
        status: ready ? "ready" : stopping ? "stopping" : "unavailable",
        database: database ? "ok" : "unreachable",
        storage: storage ? "ok" : "unreachable",
      });
  });
  return router;
}

async function reachable(check: () => Promise<unknown>): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), READY_CHECK_TIMEOUT_MS);
  });
  try {
    return await Promise.race([check().then(() => true as const), timeout]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
