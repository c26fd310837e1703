// An express-rate-limit store in the database (docs/decisions/0063-limits-shared-by-instances.md):
// with DATABASE_URL, every instance counts in the same rows, so a client's limit is one limit
// however many instances answer it. Fixed windows, as express-rate-limit's MemoryStore counts:
// the window a request falls in is its time rounded down to a multiple of windowMs.
import type { IncrementResponse, Options, Store } from "express-rate-limit";
import type { Queryable } from "~/shared/db.server";

/** Windows older than this are deleted (at most once a minute per store). */
const KEEP_MS = 24 * 3600_000;

export class DatabaseRateStore implements Store {
  readonly localKeys = false;
  private windowMs = 60_000;
  private lastSweep = 0;

  constructor(
    private readonly db: Queryable,
    /** Tells this limit's keys from another's in the shared table. */
    readonly prefix: string,
  ) {}

  init(options: Options): void {
    this.windowMs = options.windowMs;
  }

  private window(now = Date.now()) {
    const start = Math.floor(now / this.windowMs) * this.windowMs;
    return { start: new Date(start).toISOString(), reset: new Date(start + this.windowMs) };
  }

  async get(key: string): Promise<IncrementResponse | undefined> {
    const { start, reset } = this.window();
    const [row] = await this.db.query<{ hits: number }>(
      "SELECT hits FROM rate_counters WHERE key = $1 AND window_start = $2",
      [this.prefix + key, start],
    );
    return row ? { totalHits: row.hits, resetTime: reset } : undefined;
  }

  async increment(key: string): Promise<IncrementResponse> {
    const { start, reset } = this.window();
    const [row] = await this.db.query<{ hits: number }>(
      `INSERT INTO rate_counters (key, window_start, hits) VALUES ($1, $2, 1)
       ON CONFLICT (key, window_start) DO UPDATE SET hits = rate_counters.hits + 1
       RETURNING hits`,
      [this.prefix + key, start],
    );
    void this.sweep();
    return { totalHits: row?.hits ?? 1, resetTime: reset };
  }

  async decrement(key: string): Promise<void> {
    await this.db.query(
      "UPDATE rate_counters SET hits = greatest(hits - 1, 0) WHERE key = $1 AND window_start = $2",
      [this.prefix + key, this.window().start],
    );
  }

  async resetKey(key: string): Promise<void> {
    await this.db.query("DELETE FROM rate_counters WHERE key = $1", [this.prefix + key]);
  }

  private async sweep(): Promise<void> {
    const now = Date.now();
    if (now - this.lastSweep < 60_000) return;
    this.lastSweep = now;
    await this.db
      .query("DELETE FROM rate_counters WHERE window_start < $1", [
        new Date(now - Math.max(KEEP_MS, this.windowMs * 2)).toISOString(),
      ])
      .catch(() => undefined);
  }
}
