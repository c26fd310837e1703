import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { log } from "./logger.server";
import { makePrivateDir } from "./private-files.server";

export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

/** The one database surface the app uses: same SQL on embedded PGlite and on a PostgreSQL server. */
export interface Db extends Queryable {
  readonly kind: "pglite" | "postgres";
  /** Runs `fn` in one transaction; a throw rolls everything back. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * Runs `fn` while holding a PostgreSQL session advisory lock (pg_advisory_lock) on a connection
   * of its own: other instances wait. PGlite has one process (the data-directory lock): just runs.
   */
  withAdvisoryLock<T>(key: number, fn: () => Promise<T>): Promise<T>;
  /**
   * Subscribes to NOTIFY on `channel`; returns the unsubscribe function. On PostgreSQL a lost
   * LISTEN connection is replaced by itself; `onResumed` runs once LISTEN is back, since
   * notifications sent in between are lost (docs/behaviour.md, "Database faults").
   */
  listen(
    channel: string,
    onPayload: (payload: string) => void,
    onResumed?: () => void,
  ): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export interface OpenDbOptions {
  databaseUrl?: string;
  /** PGlite data directory; `memory://` for a throwaway database. */
  dataDir?: string;
  /** false: open without applying migrations (tests of migrate itself). */
  migrate?: boolean;
}

export async function openDb(options: OpenDbOptions): Promise<Db> {
  const db = options.databaseUrl
    ? await openPostgres(options.databaseUrl)
    : await openPglite(options.dataDir ?? "memory://", options.migrate !== false);
  if (options.migrate !== false) await migrate(db);
  return db;
}

/**
 * Whether opening the embedded database in `dataDir` will create it (no cluster there yet):
 * the one start that may load demo listings by default (docs/decisions/0033-demo-content-once-on-a-new-embedded-database.md).
 */
export function isNewEmbeddedDatabase(dataDir: string): boolean {
  return dataDir.startsWith("memory://") || !existsSync(path.join(dataDir, "PG_VERSION"));
}

/**
 * Tests only (docs/testing.md, "Templates for new embedded databases"): tars of a freshly
 * initialised cluster of this PGlite version, as initdb left it and with every migration applied,
 * made once per test run. A new embedded database starts from one of them instead of running
 * initdb and the migrations, about 4 s of CPU each time.
 */
const templates = new Map<string, Promise<Blob>>();
function readTemplate(dataDir: string, migrated: boolean): Promise<Blob> | undefined {
  const file = migrated ? process.env.PGLITE_MIGRATED_TEMPLATE : process.env.PGLITE_INITDB_TEMPLATE;
  if (!file || !isNewEmbeddedDatabase(dataDir)) return undefined;
  let template = templates.get(file);
  if (!template) {
    template = fs.readFile(file).then((bytes) => new Blob([bytes]));
    templates.set(file, template);
  }
  return template;
}

async function openPglite(dataDir: string, migrated: boolean): Promise<Db> {
  const { PGlite } = await import("@electric-sql/pglite");
  const template = readTemplate(dataDir, migrated) ?? readTemplate(dataDir, false);
  if (!dataDir.startsWith("memory://")) await makePrivateDir(dataDir);
  const pg = template
    ? await PGlite.create({ dataDir, loadDataDir: await template })
    : await PGlite.create(dataDir);
  return pgliteDb(pg);
}

/** The Db surface over an open PGlite (the test templates migrate one through it too). */
export function pgliteDb(pg: import("@electric-sql/pglite").PGlite): Db {
  // PGlite has one connection: serialise transactions so they never interleave with other queries.
  let chain: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = chain.then(fn, fn);
    chain = run.catch(() => undefined);
    return run;
  };
  return {
    kind: "pglite",
    query: (sql, params) =>
      exclusive(async () => (await pg.query(sql, params as unknown[])).rows as never[]),
    exec: (sql) => exclusive(async () => void (await pg.exec(sql))),
    transaction: (fn) =>
      exclusive(() =>
        pg.transaction((tx) =>
          fn({
            query: async (sql, params) => (await tx.query(sql, params)).rows as never[],
            exec: async (sql) => void (await tx.exec(sql)),
          }),
        ),
      ),
    withAdvisoryLock: (_key, fn) => fn(),
    listen: async (channel, onPayload) => {
      const unsubscribe = await pg.listen(channel, onPayload);
      return async () => unsubscribe();
    },
    close: () => exclusive(() => pg.close()),
  };
}

/** How long a request waits for a PostgreSQL connection before it fails (never a hang). */
export const CONNECT_TIMEOUT_MS = 3000;
/** Waits between attempts to LISTEN again after the connection was lost. */
const RELISTEN_DELAYS_MS = [100, 250, 500, 1000];

/** What a request during a database outage is told (HTTP 503, with Retry-After). */
export const DATABASE_UNAVAILABLE = {
  message: "The site cannot reach its database right now. Please try again in a moment.",
  retryAfterSeconds: 5,
} as const;

/**
 * An error that means the database cannot be reached now (a restart, a failover, a dropped
 * connection), as opposed to a fault of the statement: the site answers 503, not 500.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const { code, message, syscall } = (error ?? {}) as {
    code?: unknown;
    message?: unknown;
    syscall?: unknown;
  };
  if (typeof code === "string") {
    // A server reached over its Unix socket (DATABASE_URL with ?host=/var/run/postgresql) is
    // away while it restarts: the socket file is gone. Only a connect: other ENOENTs are files.
    if (code === "ENOENT" && syscall === "connect") return true;
    // 08: connection exception; 57P01–57P03: admin/crash shutdown, cannot connect now;
    // 53300: too many connections.
    if (code.startsWith("08") || /^57P0[123]$/.test(code) || code === "53300") return true;
    if (
      ["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENOTFOUND"].includes(
        code,
      )
    )
      return true;
  }
  return (
    typeof message === "string" &&
    /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection is closed|terminating connection/i.test(
      message,
    )
  );
}

async function openPostgres(url: string): Promise<Db> {
  const { default: pgModule } = await import("pg");
  const pool = new pgModule.Pool({
    connectionString: url,
    max: 10,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    keepAlive: true,
  });
  // An idle pooled connection that PostgreSQL drops (restart, failover, pg_terminate_backend)
  // emits `error` on the pool; without a listener that would end the process. The pool has
  // already discarded it and opens a new one on the next query.
  pool.on("error", (error) => {
    log().warn(
      `PostgreSQL dropped an idle connection (${error.message}); the next query reconnects`,
    );
  });
  const listeners = new Map<string, Set<(payload: string) => void>>();
  const resumed = new Set<() => void>();
  let listenClient: import("pg").PoolClient | undefined;
  let closing = false;
  let attempt = 0;

  async function listenConnection() {
    if (listenClient) return listenClient;
    const client = await pool.connect();
    client.on("notification", (msg) => {
      for (const cb of listeners.get(msg.channel) ?? []) cb(msg.payload ?? "");
    });
    client.on("error", (error) => {
      if (listenClient !== client) return;
      // The LISTEN connection broke: drop it and subscribe again on a fresh one.
      log().warn(`PostgreSQL LISTEN connection lost (${error.message}); subscribing again`);
      dropListenClient();
      scheduleResubscribe();
    });
    listenClient = client;
    return client;
  }
  function dropListenClient() {
    const client = listenClient;
    listenClient = undefined;
    try {
      client?.release(true);
    } catch {
      // Already released.
    }
  }
  // One attempt at a time: a connection handed out stale by the pool can fail both by its
  // `error` event and by the LISTEN's rejection, and two attempts racing would each take a
  // connection and drop the other's (a lost LISTEN, changes never announced).
  let resubscribeTimer: NodeJS.Timeout | undefined;
  let resubscribing = false;
  function scheduleResubscribe() {
    if (closing || resubscribeTimer || resubscribing) return;
    const delay = RELISTEN_DELAYS_MS[Math.min(attempt, RELISTEN_DELAYS_MS.length - 1)];
    attempt++;
    resubscribeTimer = setTimeout(() => {
      resubscribeTimer = undefined;
      void resubscribe();
    }, delay);
    resubscribeTimer.unref();
  }
  async function resubscribe() {
    if (closing) return;
    resubscribing = true;
    let client: import("pg").PoolClient | undefined;
    let ok = false;
    try {
      client = await listenConnection();
      for (const channel of listeners.keys()) await client.query(`LISTEN ${quoteIdent(channel)}`);
      // Its `error` event may have come first (and dropped it): then this attempt failed too.
      ok = listenClient === client;
    } catch {
      ok = false;
    } finally {
      resubscribing = false;
    }
    if (!ok) {
      if (client && listenClient === client) dropListenClient();
      scheduleResubscribe();
      return;
    }
    log().info({ attempts: attempt }, "PostgreSQL LISTEN resumed");
    attempt = 0;
    for (const fn of resumed) fn();
  }

  return {
    kind: "postgres",
    query: async (sql, params) => (await pool.query(sql, params as unknown[])).rows,
    exec: async (sql) => void (await pool.query(sql)),
    transaction: async (fn) => {
      const client = await pool.connect();
      // A checked-out client has no pool listener: a connection dropped between two statements
      // of the transaction would otherwise emit an unhandled `error` (the next statement fails).
      let lost: Error | undefined;
      const onLost = (error: Error) => {
        lost = error;
      };
      client.on("error", onLost);
      try {
        await client.query("BEGIN");
        const result = await fn({
          query: async (sql, params) => (await client.query(sql, params as unknown[])).rows,
          exec: async (sql) => void (await client.query(sql)),
        });
        await client.query("COMMIT");
        return result;
      } catch (error) {
        if (isDatabaseUnavailable(error)) lost ??= error as Error;
        else await client.query("ROLLBACK").catch(() => undefined);
        throw error;
      } finally {
        client.removeListener("error", onLost);
        // A broken connection is discarded rather than handed to the next request.
        client.release(lost);
      }
    },
    withAdvisoryLock: async (key, fn) => {
      const client = await pool.connect();
      let broken = false;
      try {
        await client.query("SELECT pg_advisory_lock($1)", [key]);
        return await fn();
      } catch (error) {
        broken = true;
        throw error;
      } finally {
        // Closing the session releases the lock too: a broken connection is never reused.
        await client.query("SELECT pg_advisory_unlock($1)", [key]).catch(() => {
          broken = true;
        });
        client.release(broken);
      }
    },
    listen: async (channel, onPayload, onResumed) => {
      if (onResumed) resumed.add(onResumed);
      let set = listeners.get(channel);
      if (!set) {
        set = new Set();
        listeners.set(channel, set);
        await (await listenConnection()).query(`LISTEN ${quoteIdent(channel)}`);
      }
      set.add(onPayload);
      return async () => {
        set.delete(onPayload);
        if (onResumed) resumed.delete(onResumed);
      };
    },
    close: async () => {
      closing = true;
      dropListenClient();
      await pool.end();
    },
  };
}

function quoteIdent(name: string) {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * db/migrations of the project this module runs from: found upwards from here, because this
 * code runs from app/shared (tests, development) and from the bundle in build/server.
 */
function findMigrationsDir(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = path.join(dir, "db", "migrations");
    if (existsSync(candidate)) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error("db/migrations not found above this module.");
    dir = parent;
  }
}
const migrationsDir = findMigrationsDir();

/** The advisory lock every instance takes before it looks at or changes the schema. */
const MIGRATION_LOCK = 8142017;

/**
 * Applies db/migrations/NNNN_*.sql in order, each once, each in its own transaction. On
 * PostgreSQL the whole run holds one advisory lock, taken before `schema_migrations` is even
 * created: instances started together migrate one after the other, and the later ones find
 * everything applied (docs/decisions/0039-several-instances.md). Returns the files applied here.
 */
export function migrate(
  db: Db,
  dir = migrationsDir,
  options: { until?: string } = {},
): Promise<string[]> {
  return db.withAdvisoryLock(MIGRATION_LOCK, () => migrateLocked(db, dir, options.until));
}

/** One migration file's SQL (a restore's dry run applies them inside its own transaction). */
export function readMigration(name: string, dir = migrationsDir): Promise<string> {
  return fs.readFile(path.join(dir, name), "utf8");
}

/** The migration files this code applies, in order. */
export async function migrationFiles(dir = migrationsDir): Promise<string[]> {
  return (await fs.readdir(dir)).filter((f) => /^\d{4}_.+\.sql$/.test(f)).sort();
}

async function migrateLocked(db: Db, dir: string, until?: string): Promise<string[]> {
  await db.query(
    `CREATE TABLE IF NOT EXISTS schema_migrations (
       name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
  );
  // (`until`: a restore first brings the schema to the backup's version, then the rest.)
  const files = (await migrationFiles(dir)).filter((f) => until === undefined || f <= until);
  const done = new Set(
    (await db.query<{ name: string }>("SELECT name FROM schema_migrations")).map((r) => r.name),
  );
  const applied: string[] = [];
  for (const file of files) {
    if (done.has(file)) continue;
    const sql = await fs.readFile(path.join(dir, file), "utf8");
    await db.transaction(async (tx) => {
      await tx.exec(sql);
      await tx.query("INSERT INTO schema_migrations (name) VALUES ($1)", [file]);
    });
    applied.push(file);
  }
  return applied;
}
