// An express-rate-limit store in the database (docs/decisions/0063-limits-shared-by-instances.md):
// with DATABASE_URL, every instance counts in the same rows, so a client's limit is one limit
// however many instances answer it. Windows as express-rate-limit's MemoryStore keeps them: a
// client's starts with its first request, and the count starts again once it has passed. The
// database's clock decides, so instances whose clocks differ still agree.
import type { IncrementResponse, Options, Store } from "express-rate-limit";
import type { Queryable } from "~/shared/db.server";

/** Rows whose window started longer ago than this are deleted (at most once a minute). */
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

  private answer(row: { hits: number; start_ms: number } | undefined): IncrementResponse {
    return {
      totalHits: row?.hits ?? 0,
      resetTime: new Date((row ? Number(row.start_ms) : Date.now()) + this.windowMs),
    };
  }

  async get(key: string): Promise<IncrementResponse | undefined> {
    const [row] = await this.db.query<{ hits: number; start_ms: number }>(
      `SELECT hits, (extract(epoch FROM window_start) * 1000)::float8 AS start_ms
       FROM rate_counters
       WHERE key = $1 AND window_start + make_interval(secs => $2) > now()`,
      [this.prefix + key, this.windowMs / 1000],
    );
    return row ? this.answer(row) : undefined;
  }

  async increment(key: string): Promise<IncrementResponse> {
    // Every expression of SET reads the row as it was: a passed window starts again at 1.
    const [row] = await this.db.query<{ hits: number; start_ms: number }>(
      `INSERT INTO rate_counters AS c (key, window_start, hits) VALUES ($1, now(), 1)
       ON CONFLICT (key) DO UPDATE SET
         hits = CASE WHEN c.window_start + make_interval(secs => $2) <= now() THEN 1
                     ELSE c.hits + 1 END,
         window_start = CASE WHEN c.window_start + make_interval(secs => $2) <= now() THEN now()
                             ELSE c.window_start END
       RETURNING hits, (extract(epoch FROM window_start) * 1000)::float8 AS start_ms`,
      [this.prefix + key, this.windowMs / 1000],
    );
    void this.sweep();
    return this.answer(row);
  }

  async decrement(key: string): Promise<void> {
    await this.db.query("UPDATE rate_counters SET hits = greatest(hits - 1, 0) WHERE key = $1", [
      this.prefix + key,
    ]);
  }

  async resetKey(key: string): Promise<void> {
    await this.db.query("DELETE FROM rate_counters WHERE key = $1", [this.prefix + key]);
  }

  private async sweep(): Promise<void> {
    const now = Date.now();
    if (now - this.lastSweep < 60_000) return;
    this.lastSweep = now;
    await this.db
      .query("DELETE FROM rate_counters WHERE window_start < now() - make_interval(secs => $1)", [
        Math.max(KEEP_MS, this.windowMs * 2) / 1000,
      ])
      .catch(() => undefined);
  }
}
