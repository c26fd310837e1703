// The one scheduler (docs/decisions/0081-scheduler-pg-boss-10.md), on PGlite and PostgreSQL:
// periodic jobs run at start and are recorded, failures are logged with the job's name and
// retried, a period is taken once across instances, delayed jobs run once at their time.
import { afterEach, describe, expect, it, vi } from "vitest";
import { dbTargets } from "../../tests/support/db-targets";
import { captureLogs, LEVEL } from "../../tests/support/logs";
import type { Db } from "./db.server";
import { jobSchema, jobStatus, type Scheduler, startScheduler } from "./scheduler.server";

const FAST = { retryDelaySeconds: 1, pollSeconds: 0.5 };

for (const target of dbTargets) {
  describe(`the scheduler (${target.name})`, () => {
    const open: { stop(): Promise<void> }[] = [];
    afterEach(async () => {
      for (const one of open.splice(0).reverse()) await one.stop();
    });
    async function database() {
      const opened = await target.open();
      open.push({ stop: opened.cleanup });
      return opened;
    }
    async function scheduler(...args: Parameters<typeof startScheduler>): Promise<Scheduler> {
      const started = await startScheduler(...args);
      open.push(started);
      return started;
    }

    it("runs each periodic job at start, logs it by name and shows its last and next run", async () => {
      const { db } = await database();
      const logs = captureLogs("debug");
      try {
        let runs = 0;
        await scheduler(
          db,
          [{ name: "test.tick", everySeconds: 3600, run: async () => `Ticked ${++runs}` }],
          [],
          FAST,
        );
        await vi.waitFor(() => expect(runs).toBe(1), { timeout: 15_000 });
        await vi.waitFor(
          async () =>
            expect((await jobStatus(db)).find((j) => j.name === "test.tick")?.runs).toBe(1),
          { timeout: 5_000 },
        );
        const [status] = (await jobStatus(db)).filter((j) => j.name === "test.tick");
        expect(status?.lastError).toBeNull();
        const last = Date.parse(status?.lastRunAt ?? "");
        expect(Date.parse(status?.nextRunAt ?? "") - last).toBe(3600_000);
        expect(logs.at(LEVEL.info, "Ticked 1")[0]?.job).toBe("test.tick");
      } finally {
        logs.restore();
      }
    });

    it("plans a job marked not to run at start for a period later, not now", async () => {
      const { db } = await database();
      let runs = 0;
      await scheduler(
        db,
        [
          { name: "test.now", everySeconds: 3600, run: async () => void runs++ },
          { name: "test.later", everySeconds: 3600, atStart: false, run: async () => void runs++ },
        ],
        [],
        FAST,
      );
      // The start has asked for every run due now before it returned.
      const schema = await jobSchema(db);
      const planned = await db.query<{ name: string }>(
        `SELECT name FROM ${schema}.job WHERE name LIKE 'test.%' ORDER BY name`,
      );
      expect(planned.map((p) => p.name)).toEqual(["test.now"]);
    });

    it("retries a failed run with the job's name in the log, and shows the last error", async () => {
      const { db } = await database();
      const logs = captureLogs("debug");
      try {
        let attempts = 0;
        await scheduler(
          db,
          [
            {
              name: "test.flaky",
              everySeconds: 3600,
              run: async () => {
                attempts++;
                if (attempts === 1) throw new Error("the mail server said no");
                return "Worked the second time";
              },
            },
          ],
          [],
          FAST,
        );
        await vi.waitFor(() => expect(attempts).toBe(2), { timeout: 20_000 });
        const failed = logs.at(LEVEL.warn, "Job test.flaky failed");
        expect(failed).toHaveLength(1);
        expect(failed[0]?.job).toBe("test.flaky");
        expect(failed[0]?.err?.message).toBe("the mail server said no");
        await vi.waitFor(async () => {
          const status = (await jobStatus(db)).find((j) => j.name === "test.flaky");
          expect(status).toMatchObject({
            runs: 1,
            failures: 1,
            lastError: "the mail server said no",
          });
        });
      } finally {
        logs.restore();
      }
    });

    it("runs a delayed job once at its time with its data; a cancelled one never runs", async () => {
      const { db } = await database();
      const ran: string[] = [];
      const jobs = await scheduler(
        db,
        [],
        [{ name: "test.remind", run: async (data: { who: string }) => void ran.push(data.who) }],
        FAST,
      );
      const soon = (ms: number) => new Date(Date.now() + ms);
      const cancelled = await jobs.at("test.remind", soon(500), { who: "cancelled" });
      await jobs.cancel("test.remind", cancelled as string);
      const asked = Date.now();
      await jobs.at("test.remind", soon(1500), { who: "kept" });
      await vi.waitFor(() => expect(ran).toEqual(["kept"]), { timeout: 15_000 });
      // Not before its time (the database's clock and this one are the same machine's).
      expect(Date.now() - asked).toBeGreaterThanOrEqual(1400);
      expect(ran).toEqual(["kept"]);
    });

    it("plans a delayed job in the caller's transaction: rolled back, it never runs", async () => {
      const { db } = await database();
      const ran: string[] = [];
      const jobs = await scheduler(
        db,
        [],
        [{ name: "test.remind", run: async (data: { who: string }) => void ran.push(data.who) }],
        FAST,
      );
      const soon = new Date(Date.now() + 300);
      await db
        .transaction(async (tx) => {
          await jobs.at("test.remind", soon, { who: "rolled back" }, tx);
          throw new Error("the booking failed");
        })
        .catch(() => undefined);
      await db.transaction(async (tx) => {
        await jobs.at("test.remind", soon, { who: "committed" }, tx);
      });
      await vi.waitFor(() => expect(ran).toEqual(["committed"]), { timeout: 15_000 });
      const schema = await jobSchema(db);
      const [row] = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM ${schema}.job WHERE name = 'test.remind'`,
      );
      expect(row?.n).toBe(1);
    });

    if (target.name === "postgres") {
      it("takes a period once across instances sharing the database", async () => {
        const { db, another } = await database();
        const second = (await another?.()) as Db;
        const runs: string[] = [];
        const job = (who: string) => ({
          name: "test.once",
          everySeconds: 3600,
          run: async () => void runs.push(who),
        });
        await scheduler(db, [job("first")], [], FAST);
        await vi.waitFor(() => expect(runs).toEqual(["first"]), { timeout: 15_000 });
        await vi.waitFor(async () => {
          const [done] = await db.query<{ at: Date | null }>(
            "SELECT last_ok_at AS at FROM job_runs WHERE name = 'test.once'",
          );
          expect(done?.at).toBeTruthy();
        });
        // The second instance starts after this hour's run is done, and asks for it again.
        await scheduler(second, [job("second")], [], FAST);
        const schema = await jobSchema(db);
        const [row] = await db.query<{ n: number }>(
          `SELECT (SELECT count(*) FROM ${schema}.job WHERE name = 'test.once')
             + (SELECT count(*) FROM ${schema}.archive WHERE name = 'test.once') AS n`,
        );
        expect(Number(row?.n)).toBe(1);
      });
    }
  });
}
