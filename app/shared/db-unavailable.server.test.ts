// What counts as "the database is away" (a 503 that says so) rather than a fault (a 500):
// docs/behaviour.md, "Database faults". Errors made by really connecting with node-postgres.
import pg from "pg";
import { describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "./db.server";

async function connectError(config: pg.PoolConfig): Promise<unknown> {
  const pool = new pg.Pool({ ...config, connectionTimeoutMillis: 3000 });
  try {
    await pool.query("SELECT 1");
    throw new Error("connected, though nothing should answer there");
  } catch (error) {
    return error;
  } finally {
    await pool.end();
  }
}

describe("isDatabaseUnavailable", () => {
  it("a server whose Unix socket is gone (restarting) is unavailable", async () => {
    const error = await connectError({ host: "/tmp/no-such-postgresql-socket-dir", database: "x" });
    expect((error as NodeJS.ErrnoException).code).toBe("ENOENT");
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it("a refused TCP connection is unavailable", async () => {
    // Port 1 on loopback: nothing listens there.
    const error = await connectError({ host: "127.0.0.1", port: 1, database: "x" });
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it("a missing file is no database outage", () => {
    const error = Object.assign(new Error("ENOENT: no such file or directory, open 'x'"), {
      code: "ENOENT",
      syscall: "open",
    });
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});
