// Which servers run on one PostgreSQL database (and schema): each holds a shared advisory lock
// on its own connection while it runs. A starting server that can take the lock exclusively is
// alone, so nothing in the image store can be another server's work in progress and the
// start-up repair may settle everything a crash left at once, as with the embedded database
// (docs/decisions/0037-crash-safe-photo-writes.md). A killed server's connection closes with
// it, and PostgreSQL releases its lock.
const KEY = "hashtext('leasing-site servers in ' || current_schema())";
/** How long a start waits for a just-killed server's lock to go (measured in the crash suite). */
const STALE_LOCK_MS = 3000;

export interface ServerPresence {
  /** True when no other server was running (or starting) on this database at start. */
  readonly alone: boolean;
  /** Call once the start-up work is done: from then on this server counts as running. */
  joined(): Promise<void>;
  close(): Promise<void>;
}

export async function announceServer(databaseUrl: string): Promise<ServerPresence> {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: databaseUrl });
  client.on("error", (error) =>
    console.warn("The connection that marks this server as running broke:", error.message),
  );
  await client.connect();
  // A server killed a moment ago may still hold its lock until PostgreSQL notices the closed
  // connection: ask again for a few seconds before concluding another server is running.
  let alone = false;
  for (const deadline = Date.now() + STALE_LOCK_MS; ; ) {
    const result = await client.query<{ alone: boolean }>(
      `SELECT pg_try_advisory_lock(${KEY}) AS alone`,
    );
    alone = result.rows[0]?.alone === true;
    if (alone || Date.now() >= deadline) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    alone,
    async joined() {
      // Waits while another server holds the lock exclusively (its start-up repair).
      await client.query(`SELECT pg_advisory_lock_shared(${KEY})`);
      if (alone) await client.query(`SELECT pg_advisory_unlock(${KEY})`);
    },
    close: () => client.end(),
  };
}
