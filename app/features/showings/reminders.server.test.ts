// Reminders and confirmation of booked showings on both databases (docs/behaviour.md §33): the
// jobs a booking plans in its own transaction, each reminder sent once with its 'Confirm I'm
// coming' and 'Cancel' links, none for a showing cancelled or moved meanwhile, and 'Cancel if
// not confirmed'. Times are the test's own clock (`now`), except in the one test that lets the
// real scheduler run a reminder at its time.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { DEFAULT_SHOWING_HOURS, type ShowingHours } from "~/domain/showing-slots";
import type { Db } from "~/shared/db.server";
import { readEnv } from "~/shared/env.server";
import { jobSchema, type Scheduler, startScheduler } from "~/shared/scheduler.server";
import { dbTargets } from "../../../tests/support/db-targets";
import { showingsFeature } from "./feature.server";
import { saveShowingHours } from "./hours.server";
import { confirmShowing } from "./manage.server";
import { EXPIRE_JOB, planShowingJobs, REMIND_JOB } from "./reminder-plan.server";
import { cancelIfUnconfirmed, sendShowingReminder } from "./reminders.server";
import {
  bookShowing,
  cancelByToken,
  moveShowing,
  type ShowingListing,
  showingByToken,
} from "./showings.server";

const listing: ShowingListing = { collection: "properties", id: "1-elm", address: "1 Elm St" };
const person = {
  name: "Renter One",
  email: "renter@example.com",
  phone: "212-555-0199",
  moveIn: null,
  people: null,
};
const HOUR = 3_600_000;
const start = new Date("2026-12-01T15:00:00Z");
const end = new Date(start.getTime() + 30 * 60_000);
const hours = (over: Partial<ShowingHours> = {}): ShowingHours => ({
  ...DEFAULT_SHOWING_HOURS,
  week: { ...DEFAULT_SHOWING_HOURS.week, Tuesday: { from: "10:00", to: "11:00" } },
  minimumNoticeHours: 0,
  ...over,
});
const env = readEnv({ NODE_ENV: "development", PUBLIC_URL: "https://homes.example" });
/** The link of a line 'label: url' of a body. */
const linkOf = (body: string, label: string) =>
  body
    .split("\n")
    .find((line) => line.startsWith(`${label}: `))
    ?.slice(label.length + 2) ?? null;
const tokenOf = (url: string | null) =>
  new URL(url ?? "https://x/").searchParams.get("token") ?? "";

describe.each(dbTargets)("showing reminders on $name", (target) => {
  let db: Db;
  let cleanup: () => Promise<void>;
  const services = () => ({ db, env, applications: { key: null, vault: null } });
  beforeAll(async () => {
    ({ db, cleanup } = await target.open());
  });
  afterAll(async () => cleanup?.());
  beforeEach(async () => {
    await db.exec("DELETE FROM showings; DELETE FROM showing_hours; DELETE FROM outbox");
  });
  const book = async (h: ShowingHours, at = start) => {
    await saveShowingHours(db, h, null);
    const booked = await bookShowing(
      db,
      { listing, start: at, end: new Date(at.getTime() + 30 * 60_000), person },
      h,
    );
    if (!booked.ok) throw new Error("not booked");
    return booked;
  };
  const mailTo = (kind: string) =>
    db.query<{ subject: string; body: string; to: string[]; calendar: string | null }>(
      `SELECT subject, body, to_addresses AS "to", calendar FROM outbox WHERE kind = $1
       ORDER BY id`,
      [kind],
    );

  it("sends a reminder once, however often its job runs, with links that open the showing", async () => {
    const { showing, token } = await book(hours());
    const now = new Date(start.getTime() - 24 * HOUR);
    const run = () => sendShowingReminder(services(), { id: showing.id, hoursBefore: 24 }, now);
    const results = await Promise.all([run(), run(), run()]);
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await run()).toBeUndefined();
    const [mail, ...more] = await mailTo("showing reminder");
    expect(more).toHaveLength(0);
    expect(mail?.to).toEqual(["renter@example.com"]);
    expect(mail?.subject).toBe("Reminder: your showing of 1 Elm St");
    expect(mail?.body).toContain("Your showing is on Tuesday, December 1 at 10:00 AM.");
    // The company's words only: nothing the renter typed but the address it goes to.
    expect(mail?.body).not.toContain("Renter One");
    expect(mail?.body).not.toContain("212-555-0199");
    const confirm = linkOf(mail?.body ?? "", "Confirm I'm coming");
    const cancel = linkOf(mail?.body ?? "", "Cancel");
    expect(confirm).toMatch(
      /^https:\/\/homes\.example\/showings\/manage\?token=.+&intent=confirm$/,
    );
    expect(cancel).toMatch(/^https:\/\/homes\.example\/showings\/manage\?token=.+&intent=cancel$/);
    // The reminder's own link opens the same showing; the booking's link still does too.
    expect(tokenOf(confirm)).not.toBe(token);
    expect((await showingByToken(db, tokenOf(confirm)))?.id).toBe(showing.id);
    expect((await showingByToken(db, token))?.id).toBe(showing.id);
    // The 2-hour reminder is its own.
    expect(
      await sendShowingReminder(services(), { id: showing.id, hoursBefore: 2 }, now),
    ).toBeTruthy();
  });

  it("confirms by the reminder's link, and a later reminder says it is confirmed", async () => {
    const { showing } = await book(hours());
    const now = new Date(start.getTime() - 24 * HOUR);
    await sendShowingReminder(services(), { id: showing.id, hoursBefore: 24 }, now);
    const [first] = await mailTo("showing reminder");
    const link = tokenOf(linkOf(first?.body ?? "", "Confirm I'm coming"));
    const context = { db, env } as Parameters<typeof confirmShowing>[0];
    expect(await confirmShowing(context, link, now)).toEqual({
      ok: true,
      message: "Thank you: your showing is confirmed.",
    });
    // Twice is the same answer.
    expect((await confirmShowing(context, link, now)).ok).toBe(true);
    expect((await showingByToken(db, link))?.status).toBe("confirmed");
    await sendShowingReminder(services(), { id: showing.id, hoursBefore: 2 }, now);
    const [, second] = await mailTo("showing reminder");
    expect(second?.body).toContain("You have confirmed that you're coming.");
    expect(linkOf(second?.body ?? "", "Confirm I'm coming")).toBeNull();
    expect(linkOf(second?.body ?? "", "Cancel")).toMatch(/intent=cancel$/);
  });

  it("sends no reminder for a showing cancelled, moved or past, or a reminder taken out", async () => {
    const early = new Date(start.getTime() - 30 * HOUR);
    const cancelled = await book(hours());
    await cancelByToken(db, cancelled.token);
    expect(
      await sendShowingReminder(services(), { id: cancelled.showing.id, hoursBefore: 24 }, early),
    ).toBeUndefined();

    const moved = await book(hours());
    const later = new Date(start.getTime() + 30 * 60_000);
    const to = await moveShowing(
      db,
      moved.token,
      { start: later, end: new Date(later.getTime() + 30 * 60_000) },
      hours(),
      early,
    );
    expect(to.ok).toBe(true);
    expect(
      await sendShowingReminder(services(), { id: moved.showing.id, hoursBefore: 24 }, early),
    ).toBeUndefined();
    if (!to.ok) return;
    // The showing it became has its own.
    expect(
      await sendShowingReminder(services(), { id: to.to.id, hoursBefore: 24 }, early),
    ).toBeTruthy();
    // Past its start, nothing.
    expect(
      await sendShowingReminder(
        services(),
        { id: to.to.id, hoursBefore: 2 },
        new Date(later.getTime() + 1),
      ),
    ).toBeUndefined();
    // 'Reminders' changed to 24 only: the 2-hour job planned before sends nothing.
    await saveShowingHours(db, hours({ reminderHours: [24] }), null);
    expect(
      await sendShowingReminder(services(), { id: to.to.id, hoursBefore: 2 }, early),
    ).toBeUndefined();
    expect(await mailTo("showing reminder")).toHaveLength(1);
  });

  it("asks to confirm by the deadline only where a cancellation was planned and is ahead", async () => {
    const h = hours({ cancelIfNotConfirmedHours: 4 });
    const { showing } = await book(h);
    const day = new Date(start.getTime() - 24 * HOUR);
    await sendShowingReminder(
      services(),
      { id: showing.id, hoursBefore: 24, confirmBy: true },
      day,
    );
    const soon = new Date(start.getTime() - 2 * HOUR);
    await sendShowingReminder(
      services(),
      { id: showing.id, hoursBefore: 2, confirmBy: true },
      soon,
    );
    const [first, second] = await mailTo("showing reminder");
    expect(first?.body).toContain(
      "Please confirm by Tuesday, December 1 at 6:00 AM: a showing not confirmed by then is cancelled and the time offered to others.",
    );
    // The deadline has passed: no such line (and none where no cancellation was planned).
    expect(second?.body).not.toContain("Please confirm by");
  });

  it("cancels a showing not confirmed by 'Cancel if not confirmed', frees it and tells both", async () => {
    const h = hours({ cancelIfNotConfirmedHours: 4 });
    const unconfirmed = await book(h);
    const now = new Date(start.getTime() - 4 * HOUR);
    expect(await cancelIfUnconfirmed(services(), { id: unconfirmed.showing.id }, now)).toBeTruthy();
    expect((await showingByToken(db, unconfirmed.token))?.status).toBe("cancelled");
    const [renter] = await mailTo("showing cancelled");
    expect(renter?.to).toEqual(["renter@example.com"]);
    expect(renter?.body).toContain(
      "Your showing was cancelled because it was not confirmed in time. It was 1 Elm St, Tuesday, December 1 at 10:00 AM.",
    );
    expect(renter?.body).toContain("To book another time: https://homes.example/properties/1-elm");
    expect(renter?.calendar).toContain("METHOD:CANCEL");
    const [staff] = await mailTo("showing cancelled (staff)");
    expect(staff?.body).toContain("was not confirmed in time");
    // The seat is free: another renter books the same time.
    expect((await book(h)).ok).toBe(true);

    // A confirmed showing stays, and so does one when the setting was turned off since.
    const other = await book(h, new Date(start.getTime() + HOUR));
    await confirmShowing({ db, env } as Parameters<typeof confirmShowing>[0], other.token, now);
    expect(await cancelIfUnconfirmed(services(), { id: other.showing.id }, now)).toBeUndefined();
    const kept = await book(h, new Date(start.getTime() + 2 * HOUR));
    // The deadline shortened since it was planned: not yet (its job came 4 hours before).
    await saveShowingHours(db, hours({ cancelIfNotConfirmedHours: 1 }), null);
    const planned = new Date(kept.showing.start.getTime() - 4 * HOUR);
    expect(await cancelIfUnconfirmed(services(), { id: kept.showing.id }, planned)).toBeUndefined();
    // Turned off since: never.
    await saveShowingHours(db, hours(), null);
    expect(await cancelIfUnconfirmed(services(), { id: kept.showing.id }, now)).toBeUndefined();
    expect((await showingByToken(db, kept.token))?.status).toBe("booked");
  });

  describe("with the scheduler", () => {
    const open: Scheduler[] = [];
    afterEach(async () => {
      for (const s of open.splice(0)) await s.stop();
    });
    const scheduler = async () => {
      const s = await startScheduler(
        db,
        [],
        showingsFeature.delayedJobs?.({ ...services(), env }) ?? [],
        { pollSeconds: 0.5, retryDelaySeconds: 1 },
      );
      open.push(s);
      return s;
    };

    it("plans each reminder and the deadline in the booking's transaction, past times left out", async () => {
      const jobs = await scheduler();
      const h = hours({ reminderHours: [24, 2], cancelIfNotConfirmedHours: 3 });
      await saveShowingHours(db, h, null);
      const now = new Date(start.getTime() - 10 * HOUR);
      const booked = await bookShowing(db, { listing, start, end, person }, h, (tx, showing) =>
        planShowingJobs(jobs, tx, showing, h, now),
      );
      if (!booked.ok) throw new Error("not booked");
      const schema = await jobSchema(db);
      const planned = await db.query<{ name: string; at: Date; data: { id: number } }>(
        `SELECT name, start_after AS at, data FROM ${schema}.job
         WHERE name IN ($1, $2) AND (data->>'id')::int = $3 ORDER BY start_after`,
        [REMIND_JOB, EXPIRE_JOB, booked.showing.id],
      );
      // 24 hours before is already past when booked 10 hours ahead, and no reminder comes
      // before the deadline (3 hours before): it is not cancelled for want of confirmation.
      expect(planned.map((j) => [j.name, new Date(j.at).toISOString()])).toEqual([
        [REMIND_JOB, "2026-12-01T13:00:00.000Z"],
      ]);
      // Booked 30 hours ahead: the 24-hour reminder asks to confirm, then the deadline.
      const later = new Date(start.getTime() + 30 * 60_000);
      const early = await bookShowing(
        db,
        { listing, start: later, end: new Date(later.getTime() + 30 * 60_000), person },
        h,
        (tx, showing) =>
          planShowingJobs(jobs, tx, showing, h, new Date(later.getTime() - 30 * HOUR)),
      );
      if (!early.ok) throw new Error("not booked");
      const planned2 = await db.query<{ name: string; at: Date; data: { confirmBy?: boolean } }>(
        `SELECT name, start_after AS at, data FROM ${schema}.job
         WHERE name IN ($1, $2) AND (data->>'id')::int = $3 ORDER BY start_after`,
        [REMIND_JOB, EXPIRE_JOB, early.showing.id],
      );
      expect(
        planned2.map((j) => [j.name, new Date(j.at).toISOString(), j.data.confirmBy ?? null]),
      ).toEqual([
        [REMIND_JOB, "2026-11-30T15:30:00.000Z", true],
        [EXPIRE_JOB, "2026-12-01T12:30:00.000Z", null],
        [REMIND_JOB, "2026-12-01T13:30:00.000Z", false],
      ]);
    });

    it("runs a reminder at its time through the scheduler, once", async () => {
      const jobs = await scheduler();
      // A showing an hour and a few seconds from now, reminded an hour before: due in seconds.
      const soon = new Date(Date.now() + HOUR + 3000);
      const h = hours({ reminderHours: [1] });
      await saveShowingHours(db, h, null);
      const booked = await bookShowing(
        db,
        { listing, start: soon, end: new Date(soon.getTime() + 30 * 60_000), person },
        h,
        (tx, showing) => planShowingJobs(jobs, tx, showing, h, new Date()),
      );
      expect(booked.ok).toBe(true);
      expect(await mailTo("showing reminder")).toHaveLength(0);
      await vi.waitFor(async () => expect(await mailTo("showing reminder")).toHaveLength(1), {
        timeout: 20_000,
        interval: 250,
      });
    });
  });
});
