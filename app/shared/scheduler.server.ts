// The one scheduler for periodic and delayed work (docs/decisions/0081-scheduler-pg-boss-10.md):
// pg-boss on the app's own database, PGlite or PostgreSQL. Each job has a name; a periodic job
// runs once per period across every instance sharing the database, a delayed job once at its
// time; a failed run is retried with backoff; every run and failure is logged with the job's
// name and recorded in `job_runs` for the 'Status' page.
import PgBoss from "pg-boss";
import type { Db, Queryable } from "./db.server";
import { log } from "./logger.server";

/** Work done every `everySeconds`, by one instance at a time. */
export interface PeriodicJob {
  /** Dotted, feature first: `leads.purge`. */
  name: string;
  everySeconds: number;
  /** false: the first run is a period after the start, not at it (default: at it). */
  atStart?: boolean;
  /** One run. A summary is logged at info; a throw is a failure, retried with backoff. */
  run: () => Promise<string | undefined>;
}

/** Work due at a given time (`Scheduler.at`), with the data it was given. */
export interface DelayedJob<T extends object = Record<string, unknown>> {
  name: string;
  run: (data: T) => Promise<string | undefined>;
}

export interface Scheduler {
  /**
   * Runs `name` (a delayed job) with `data` at `when`, once; returns the job's id. Given `tx`,
   * the job is planned in that transaction: it exists exactly when the work that asked for it
   * was committed (a booking and its reminders).
   */
  at(name: string, when: Date, data: object, tx?: Queryable): Promise<string | null>;
  /** Cancels a delayed job not run yet. */
  cancel(name: string, id: string): Promise<void>;
  /** Runs a periodic job now (once across instances if several ask at once). */
  runNow(name: string): Promise<void>;
  stop(): Promise<void>;
}

/** How often each instance asks whether a job is due (seconds). */
const POLL_SECONDS = 2;
/** A failed run is retried after 30 s, then about 1 and 2 minutes (pg-boss's backoff). */
const RETRY = { retryLimit: 3, retryDelay: 30, retryBackoff: true } as const;

/** A run that outlives this is taken as lost (its instance died) and tried again. */
const expireSeconds = (every: number) => Math.max(15 * 60, every * 2);

/**
 * The schema that holds the job tables: `pgboss` beside `public`, or `<schema>_jobs` beside an
 * app that lives in a schema of its own (several sites, or tests, on one PostgreSQL).
 */
export async function jobSchema(db: Db): Promise<string> {
  const [row] = await db.query<{ schema: string }>("SELECT current_schema() AS schema");
  const current = row?.schema ?? "public";
  return current === "public" ? "pgboss" : `${current}_jobs`;
}

/** pg-boss's database surface over ours: one connection on PGlite, the pool on PostgreSQL. */
function bossDb(db: Db): PgBoss.Db {
  return {
    async executeSql(text, values) {
      // Its install and migration scripts are BEGIN … COMMIT scripts of several statements.
      if (!values?.length && /^\s*BEGIN\b/i.test(text)) {
        await db.exec(text);
        return { rows: [] };
      }
      return { rows: (await db.query(text, values)) ?? [] };
    },
  };
}

/** Creates the job tables (done by `startScheduler` too; tests build them into their template). */
export async function installJobTables(db: Db): Promise<void> {
  await db.exec(PgBoss.getConstructionPlans(await jobSchema(db)));
}

export interface SchedulerOptions {
  /** Seconds before the first retry of a failed run (tests shorten it). */
  retryDelaySeconds?: number;
  /** How often each instance asks whether a job is due (tests shorten it). */
  pollSeconds?: number;
}

export async function startScheduler(
  db: Db,
  periodic: readonly PeriodicJob[],
  delayed: readonly DelayedJob<never>[] = [],
  { retryDelaySeconds = RETRY.retryDelay, pollSeconds = POLL_SECONDS }: SchedulerOptions = {},
): Promise<Scheduler> {
  const retry = { ...RETRY, retryDelay: retryDelaySeconds };
  const boss = new PgBoss({
    db: bossDb(db),
    schema: await jobSchema(db),
    // No cron: periods are slots of `everySeconds` (sendThrottled), which also go below a minute.
    schedule: false,
    supervise: true,
    maintenanceIntervalSeconds: 300,
    archiveCompletedAfterSeconds: 3600,
    deleteAfterDays: 7,
  });
  boss.on("error", (error) =>
    log().warn({ err: error }, "The scheduler could not reach its tables"),
  );
  await boss.start();
  const everyOf = new Map(periodic.map((job) => [job.name, job.everySeconds]));

  for (const job of periodic) {
    // 'stately': at most one run waiting and one running per job, whoever asks.
    await boss.createQueue(job.name, {
      name: job.name,
      policy: "stately",
      expireInSeconds: expireSeconds(job.everySeconds),
      ...retry,
    });
    await boss.work(job.name, { pollingIntervalSeconds: pollSeconds }, async () => {
      await recorded(db, job.name, job.everySeconds, () => job.run());
    });
  }
  for (const job of delayed) {
    await boss.createQueue(job.name, { name: job.name, policy: "standard", ...retry });
    await boss.work<object>(job.name, { pollingIntervalSeconds: pollSeconds }, async ([one]) => {
      if (one) await recorded(db, job.name, null, () => job.run(one.data as never));
    });
  }

  // Each instance asks for every job once per period; one run per slot is created across all
  // of them (pg-boss's singleton slots), so the work is done once however many instances run.
  const ask = (name: string, every: number) =>
    boss
      .sendThrottled(name, {}, {}, every, name)
      .catch((error) => log().warn({ err: error, job: name }, `Could not plan the job ${name}`));
  // The first asks are made before the start returns: the first runs are due at once.
  await Promise.all(
    periodic.filter((job) => job.atStart !== false).map((job) => ask(job.name, job.everySeconds)),
  );
  const timers = periodic.map((job) => {
    const timer = setInterval(() => void ask(job.name, job.everySeconds), job.everySeconds * 1000);
    timer.unref();
    return timer;
  });

  return {
    async at(name, when, data, tx) {
      const db: PgBoss.Db | undefined = tx && {
        executeSql: async (text, values) => ({ rows: (await tx.query(text, values)) ?? [] }),
      };
      return boss.send(name, data, { startAfter: when, ...(db ? { db } : {}) });
    },
    async cancel(name, id) {
      await boss.cancel(name, id);
    },
    async runNow(name) {
      if (!everyOf.has(name)) throw new Error(`No periodic job ${name}`);
      await boss.send(name, {});
    },
    async stop() {
      for (const timer of timers) clearInterval(timer);
      await boss.stop({ graceful: true, wait: true, timeout: 10_000 });
    },
  };
}

/** Runs one job, logs it with its name and records it for the 'Status' page. */
async function recorded(
  db: Db,
  name: string,
  every: number | null,
  run: () => Promise<string | undefined>,
): Promise<void> {
  const started = Date.now();
  await db.query(
    `INSERT INTO job_runs (name, last_started_at, every_seconds) VALUES ($1, now(), $2)
     ON CONFLICT (name) DO UPDATE SET last_started_at = now(), every_seconds = $2`,
    [name, every],
  );
  try {
    const summary = await run();
    const ms = Date.now() - started;
    if (summary) log().info({ job: name, ms }, summary);
    else log().debug({ job: name, ms }, `Job ${name} done`);
    await db.query(
      `UPDATE job_runs SET last_finished_at = now(), last_ok_at = now(), runs = runs + 1
       WHERE name = $1`,
      [name],
    );
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    log().warn({ err: error, job: name }, `Job ${name} failed; it is tried again`);
    await db
      .query(
        `UPDATE job_runs SET last_finished_at = now(), last_error = $2, last_error_at = now(),
           failures = failures + 1 WHERE name = $1`,
        [name, reason.slice(0, 500)],
      )
      .catch(() => undefined);
    throw error;
  }
}

/** One job as the 'Status' page shows it. */
export interface JobStatus {
  name: string;
  lastRunAt: string | null;
  /** When the next run is due: a period after the last start, or the earliest delayed run. */
  nextRunAt: string | null;
  lastError: string | null;
  lastErrorAt: string | null;
  failures: number;
  runs: number;
}

/** Every job that has run, with its next run (`job_runs` and the waiting delayed jobs). */
export async function jobStatus(db: Db): Promise<JobStatus[]> {
  const schema = await jobSchema(db);
  const waiting = await db
    .query<{ name: string; next: Date }>(
      `SELECT name, min(start_after) AS next FROM ${schema}.job
       WHERE state IN ('created', 'retry') GROUP BY name`,
    )
    .catch(() => [] as { name: string; next: Date }[]);
  const nextOf = new Map(waiting.map((w) => [w.name, new Date(w.next).toISOString()]));
  const rows = await db.query<{
    name: string;
    last_started_at: Date | null;
    every_seconds: number | null;
    last_error: string | null;
    last_error_at: Date | null;
    failures: string;
    runs: string;
  }>("SELECT * FROM job_runs ORDER BY name");
  const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
  return rows.map((r) => ({
    name: r.name,
    lastRunAt: iso(r.last_started_at),
    nextRunAt:
      nextOf.get(r.name) ??
      (r.last_started_at && r.every_seconds
        ? new Date(new Date(r.last_started_at).getTime() + r.every_seconds * 1000).toISOString()
        : null),
    lastError: r.last_error,
    lastErrorAt: iso(r.last_error_at),
    failures: Number(r.failures),
    runs: Number(r.runs),
  }));
}
