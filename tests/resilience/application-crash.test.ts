// Crash during 'Submit application' (docs/behaviour.md §32): the real server process
// (the production bundle) takes households' applications up to 'Review and submit', is sent
// their submissions and killed with SIGKILL while they run. After the kill each application is
// either wholly submitted (Received; a row and a private link for every other adult; the
// applicant's, each adult's and the staff's e-mails in the outbox) or not at all (still a
// draft, no other adult's row, no e-mail), never a mix; a submission answered before the kill
// is submitted. After a restart on the same DATA_DIR every draft left is submitted whole. On
// PGlite and on PostgreSQL (TEST_DATABASE_URL); on PostgreSQL also killed at known moments
// inside the submission's transaction, held there by a lock another connection takes.
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { MAX_OTHER_ADULTS } from "~/domain/rental-application";
import { tokenHash } from "~/features/applications/applications.server";
import { openDb } from "~/shared/db.server";
import { readEnv } from "~/shared/env.server";
import { seededRandom } from "../support/seeded-random";
import {
  type ServerProcessTarget,
  serverProcessTargets,
  startServerProcess,
  stopServerProcess,
} from "../support/server-process";

const ROUNDS = Number(process.env.CRASH_ROUNDS ?? 6);
const random = seededRandom("application crash");
/** Households whose submissions run at once when the server dies. */
const HOUSEHOLDS = 3;

/** The other adults of household `n` (as many as the form takes: the longest submission). */
const adultsOf = (n: number) =>
  Array.from({ length: MAX_OTHER_ADULTS }, (_, i) => ({
    name: `Adult ${i + 1} of ${n}`,
    email: `adult${i + 1}.household${n}@example.com`,
  }));

/** Every step of household `n`'s application, up to 'Review and submit'. */
function stepsOf(n: number): [string, Record<string, string>][] {
  const adults: Record<string, string> = {};
  for (const [i, adult] of adultsOf(n).entries()) {
    adults[`adult.${i}.name`] = adult.name;
    adults[`adult.${i}.email`] = adult.email;
  }
  return [
    [
      "applicant",
      {
        fullName: `Main Applicant ${n}`,
        email: `main.household${n}@example.com`,
        phone: "703-555-0142",
        dateOfBirth: "1985-07-14",
        moveIn: `${new Date().getUTCFullYear() + 1}-03-01`,
        occupants: String(MAX_OTHER_ADULTS + 1),
      },
    ],
    ["residence", { address: `${n} Crash Court`, since: "2018-09-01" }],
    ["employment", { employer: "Crash Test Dummies", monthlyIncome: "6100" }],
    [
      "references",
      {
        "reference.0.name": "Rita Ref",
        "reference.0.phone": "703-555-0101",
        "reference.1.name": "Rob Ref",
        "reference.1.phone": "703-555-0102",
      },
    ],
    ["adults", adults],
    ["documents", {}],
  ];
}

function form(fields: Record<string, string>) {
  return new URLSearchParams(fields);
}

/** Fills in household `n`'s application up to 'Review and submit'; returns its private link's token. */
async function draftUpToReview(base: string, n: number): Promise<string> {
  let url = `${base}/rental-application/apply`;
  let token = "";
  for (const [step, fields] of stepsOf(n)) {
    const res = await fetch(url, {
      method: "POST",
      body: form({ ...fields, step, intent: "next" }),
      redirect: "manual",
    });
    const text = await res.text();
    expect(res.status, `${step}: ${text.slice(0, 2000)}`).toBe(303);
    if (step === "applicant") {
      token = /token=([\w-]{43})/.exec(res.headers.get("location") ?? "")?.[1] ?? "";
      url = `${base}/rental-application/continue?token=${token}`;
    }
  }
  expect(token).not.toBe("");
  return token;
}

/** 'Submit application' on the review step: resolves with the status, rejects if the server died. */
async function submit(base: string, token: string): Promise<number> {
  const res = await fetch(`${base}/rental-application/continue?token=${token}`, {
    method: "POST",
    body: form({ step: "review", intent: "submit", confirm: "on" }),
    redirect: "manual",
  });
  await res.arrayBuffer();
  return res.status;
}

type Outcome = "submitted" | "draft";

/**
 * What the database holds of household `n`'s application: "submitted" or "draft" when it is
 * wholly one or the other, else a description of the mix.
 */
async function outcomeOf(
  db: Awaited<ReturnType<typeof openDb>>,
  token: string,
  n: number,
): Promise<Outcome | string> {
  const [main] = await db.query<{ applicationId: number; completedAt: Date | null }>(
    `SELECT application_id::int AS "applicationId", completed_at AS "completedAt"
     FROM applicants WHERE token_hash = $1`,
    [tokenHash(token)],
  );
  if (!main) return `household ${n}: its main applicant is gone`;
  const [app] = await db.query<{ status: string; submittedAt: Date | null }>(
    `SELECT status, submitted_at AS "submittedAt" FROM applications WHERE id = $1`,
    [main.applicationId],
  );
  const people = await db.query<{ position: number }>(
    "SELECT position FROM applicants WHERE application_id = $1 ORDER BY position",
    [main.applicationId],
  );
  const mail = await db.query<{ kind: string; to: string[] }>(
    "SELECT kind, to_addresses AS to FROM outbox WHERE ref = $1 ORDER BY id",
    [`application:${main.applicationId}`],
  );
  const state = {
    status: app?.status,
    submitted: app?.submittedAt != null,
    completed: main.completedAt != null,
    positions: people.map((p) => p.position),
    mail: mail.map((m) => `${m.kind} ${m.to.join(",")}`),
  };
  const whole = {
    status: "received",
    submitted: true,
    completed: true,
    positions: Array.from({ length: MAX_OTHER_ADULTS + 1 }, (_, i) => i),
    mail: [
      `application-received main.household${n}@example.com`,
      ...adultsOf(n).map((a) => `application-adult ${a.email}`),
      // The staff's notice goes to the office (no INBOX_NOTIFY_EMAILS): any address will do.
      ...mail.filter((m) => m.kind === "application-staff").map((m) => `application-staff ${m.to}`),
    ],
  };
  const none = { status: "draft", submitted: false, completed: false, positions: [0], mail: [] };
  const staff = mail.filter((m) => m.kind === "application-staff").length;
  if (JSON.stringify(state) === JSON.stringify(whole) && staff === 1) return "submitted";
  if (JSON.stringify(state) === JSON.stringify(none)) return "draft";
  return `household ${n} is a mix: ${JSON.stringify(state)}`;
}

function environment(target: ServerProcessTarget, dataDir: string): Record<string, string> {
  return {
    NODE_ENV: "production",
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    DATABASE_URL: target.databaseUrl ?? "",
    SEED_DEMO: "false",
    // The same data key after every restart (production takes it from the environment).
    APPLICATION_DATA_KEY: randomBytes(32).toString("base64"),
    INQUIRY_RATE_LIMIT: "1000000",
    // Every household's e-mails go to new addresses: more than the default hourly cap in all.
    UNCONFIRMED_MAIL_PER_HOUR: "1000000",
    WRITE_RATE_LIMIT: "1000000",
    RENDER_RATE_LIMIT: "1000000",
  };
}

for (const target of await serverProcessTargets("appcrash")) {
  describe(`SIGKILL during 'Submit application' on ${target.name}`, () => {
    afterAll(() => target.cleanup());

    it(`leaves each application wholly submitted or still a draft, ${ROUNDS} rounds`, async () => {
      const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), `application-crash-${target.name}-`));
      const source = environment(target, dataDir);
      const env = readEnv(source);
      const stored = () =>
        openDb({ databaseUrl: env.databaseUrl, dataDir: path.join(env.dataDir, "db") });
      const households: { n: number; token: string; answered: number | null }[] = [];
      const tally = { submitted: 0, draft: 0, answeredBeforeKill: 0 };
      let server: Awaited<ReturnType<typeof startServerProcess>> | undefined;
      // The kill comes within this many ms of the submissions: widened while every kill found
      // them all still drafts, narrowed while it found them all submitted, so that the kills
      // spread over the submissions' own time on this machine.
      let killWindow = 80;
      const delays: number[] = [];
      try {
        for (let round = 1; round <= ROUNDS; round++) {
          server = await startServerProcess(source);
          const base = server.base;
          const batch: typeof households = [];
          for (let i = 0; i < HOUSEHOLDS; i++) {
            const n = households.length + batch.length + 1;
            batch.push({ n, token: await draftUpToReview(base, n), answered: null });
          }
          // The submissions go out together; the server dies a moment later (from at once to
          // well after the first is answered).
          const delay = Math.floor(random() * killWindow);
          delays.push(delay);
          const running = batch.map((h) =>
            submit(base, h.token).then(
              (status) => {
                h.answered = status;
              },
              () => undefined,
            ),
          );
          await new Promise((r) => setTimeout(r, delay));
          server.kill("SIGKILL");
          await once(server, "exit");
          server = undefined;
          await Promise.all(running);
          households.push(...batch);

          const db = await stored();
          try {
            const wrong: string[] = [];
            for (const h of batch) {
              const outcome = await outcomeOf(db, h.token, h.n);
              if (outcome === "submitted" || outcome === "draft") tally[outcome]++;
              else wrong.push(outcome);
              // An answered submission was kept: the applicant was told 'Application received'.
              if (h.answered !== null) {
                tally.answeredBeforeKill++;
                expect.soft(h.answered, `household ${h.n}`).toBe(303);
                if (outcome !== "submitted") wrong.push(`household ${h.n} was answered but lost`);
              }
            }
            expect(wrong, `round ${round} (killed after ${delay} ms)`).toEqual([]);
            const outcomes = await Promise.all(batch.map((h) => outcomeOf(db, h.token, h.n)));
            if (outcomes.every((o) => o === "draft")) killWindow = Math.min(killWindow * 1.6, 5000);
            if (outcomes.every((o) => o === "submitted"))
              killWindow = Math.max(killWindow / 1.6, 10);
          } finally {
            await db.close();
          }
        }

        // A restart on the same DATA_DIR: every draft left is whole, and submits whole.
        server = await startServerProcess(source);
        for (const h of households) {
          const status = await fetch(`${server.base}/rental-application/continue?token=${h.token}`);
          expect(status.status, `household ${h.n}`).toBe(200);
          await status.arrayBuffer();
          if (h.answered === null) {
            const again = await submit(server.base, h.token);
            // 303: submitted now; 409: it had been submitted before the kill.
            expect([303, 409], `household ${h.n}`).toContain(again);
          }
        }
        await stopServerProcess(server);
        server = undefined;
        const db = await stored();
        try {
          for (const h of households) {
            expect(await outcomeOf(db, h.token, h.n), `household ${h.n}`).toBe("submitted");
          }
        } finally {
          await db.close();
        }
      } finally {
        await stopServerProcess(server);
        await fs.rm(dataDir, { recursive: true, force: true });
      }
      console.log(
        `application crash ${target.name}: ${ROUNDS} rounds, ${households.length} submissions; at the kill ${tally.submitted} were submitted (${tally.answeredBeforeKill} of them answered) and ${tally.draft} still drafts; killed after (ms) ${delays.join(", ")}`,
      );
    });

    if (target.databaseUrl) {
      const databaseUrl = target.databaseUrl;
      it.each([
        ["its status is set, the adults not yet added", "applicants", /UPDATE applicants/],
        ["the adults are added, no e-mail written yet", "outbox", /INSERT INTO outbox/],
      ])("leaves a draft when killed inside the submission: %s", async (_, table, statement) => {
        const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "application-crash-held-"));
        const source = environment(target, dataDir);
        const env = readEnv(source);
        const locker = new pg.Client({ connectionString: databaseUrl });
        const watcher = new pg.Client({ connectionString: databaseUrl });
        await locker.connect();
        await watcher.connect();
        let server: Awaited<ReturnType<typeof startServerProcess>> | undefined;
        try {
          server = await startServerProcess(source);
          const token = await draftUpToReview(server.base, 1);
          // The submission runs until it needs the table another connection holds.
          await locker.query("BEGIN");
          await locker.query(`LOCK TABLE ${table} IN EXCLUSIVE MODE`);
          const submitting = submit(server.base, token).catch(() => null);
          let held: { pid: number; query: string } | undefined;
          await expect
            .poll(
              async () => {
                const waiting = await watcher.query<{ pid: number; query: string }>(
                  `SELECT pid, query FROM pg_stat_activity
                     WHERE wait_event_type = 'Lock' AND datname = current_database()`,
                );
                held = waiting.rows.find((r) => statement.test(r.query));
                return held?.query ?? waiting.rows.map((r) => r.query).join(" | ");
              },
              { timeout: 15_000 },
            )
            .toMatch(statement);
          server.kill("SIGKILL");
          await once(server, "exit");
          server = undefined;
          expect(await submitting).toBeNull();
          // The lock goes; the dead server's connection is seen closed and its work undone.
          await locker.query("ROLLBACK");
          await expect
            .poll(
              async () =>
                (await watcher.query("SELECT 1 FROM pg_stat_activity WHERE pid = $1", [held?.pid]))
                  .rowCount,
              { timeout: 30_000 },
            )
            .toBe(0);

          const db = await openDb({
            databaseUrl: env.databaseUrl,
            dataDir: path.join(env.dataDir, "db"),
          });
          try {
            expect(await outcomeOf(db, token, 1)).toBe("draft");
          } finally {
            await db.close();
          }
          // After a restart the applicant submits again, and all of it is there.
          server = await startServerProcess(source);
          const page = await fetch(`${server.base}/rental-application/continue?token=${token}`);
          expect(page.status).toBe(200);
          expect(await page.text()).toContain("Submit application");
          expect(await submit(server.base, token)).toBe(303);
          await stopServerProcess(server);
          server = undefined;
          const after = await openDb({
            databaseUrl: env.databaseUrl,
            dataDir: path.join(env.dataDir, "db"),
          });
          try {
            expect(await outcomeOf(after, token, 1)).toBe("submitted");
          } finally {
            await after.close();
          }
        } finally {
          await stopServerProcess(server);
          await locker.end().catch(() => undefined);
          await watcher.end();
          await fs.rm(dataDir, { recursive: true, force: true });
        }
      });
    }
  });
}
