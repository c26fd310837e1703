// After erasure and purges, erased text must not stay readable in the database's files
// (docs/decisions/0075-erasure-reaches-everything.md; docs/operations.md, "Erased data"). A
// DELETE only marks rows dead: their bytes stay in the table's pages and in the write-ahead log
// until rewritten. On the embedded database (PGlite under DATA_DIR/db) VACUUM FULL rewrites the
// tables that hold personal data into new files, and a WAL switch and checkpoints with
// wal_recycle off remove the old log segments instead of renaming them for reuse (a recycled
// segment keeps its old bytes). On a PostgreSQL server a plain VACUUM (no lock that stops the
// site) is what is cheap; the rest is the operator's (docs/operations.md).
import type { Db } from "./db.server";
import { log } from "./logger.server";

/** The tables that hold what 'Erase this person', withdrawal and the retention workers delete. */
export const PERSONAL_TABLES = [
  "leads",
  "lead_events",
  "listing_alerts",
  "outbox",
  "applications",
  "applicants",
  "application_documents",
  "application_events",
] as const;

/** Rewrites the personal tables and drops the old log (PGlite); VACUUMs them (PostgreSQL). */
export async function scrubErasedData(db: Db): Promise<void> {
  if (db.kind === "pglite") {
    // One process, one session: the checkpoints below run in it, so this setting holds.
    await db.exec("SET wal_recycle = off");
    for (const table of PERSONAL_TABLES) await db.exec(`VACUUM FULL ${table}`);
    await db.exec("CHECKPOINT");
    await db.query("SELECT pg_switch_wal()");
    await db.exec("CHECKPOINT");
  } else {
    for (const table of PERSONAL_TABLES) await db.exec(`VACUUM ${table}`);
  }
}

/** How long after the last erasure the scrub runs: a burst of erasures costs one scrub. */
export const SCRUB_DELAY_MS = 10_000;

const pending = new WeakMap<Db, { timer: NodeJS.Timeout | null; running: Promise<void> | null }>();

/**
 * Runs scrubErasedData in the background SCRUB_DELAY_MS after the last call for this database
 * (debounced), never inside the request that erased; a failure is logged and waits for the next.
 */
export function scheduleScrub(db: Db, delayMs = SCRUB_DELAY_MS): void {
  const state = pending.get(db) ?? { timer: null, running: null };
  pending.set(db, state);
  if (state.timer) clearTimeout(state.timer);
  state.timer = setTimeout(() => {
    state.timer = null;
    const previous = state.running ?? Promise.resolve();
    state.running = previous
      .then(() => scrubErasedData(db))
      .catch((error) => log().warn({ err: error }, "scrub after erasure failed: next erasure"))
      .finally(() => {
        state.running = null;
      });
  }, delayMs);
  state.timer.unref();
}

/** Cancels a scrub not started yet and waits for one running (before the database closes). */
export async function stopScrubs(db: Db): Promise<void> {
  const state = pending.get(db);
  if (!state) return;
  if (state.timer) clearTimeout(state.timer);
  state.timer = null;
  await state.running;
}
