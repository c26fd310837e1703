// Answers from the inbox on both databases (docs/behaviour.md §27): each one
// writes its e-mail to the outbox, keeps itself in the item's thread and moves the status, all
// or nothing; a showing's confirmation carries an iCalendar invitation read back here with a
// real iCalendar parser (ical.js).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "~/shared/db.server";
import { readInvitation } from "../../../tests/support/calendar";
import { dbTargets } from "../../../tests/support/db-targets";
import { answerLead, showingInvitation } from "./answer.server";
import { storeLead } from "./leads.server";
import { TEST_LEAD_MAIL } from "./test-lead-mail";

const mail = TEST_LEAD_MAIL;
// Commas, a semicolon and a backslash: each must be escaped in the invitation and read back.
const ADDRESS = "12 Main St, Apt 3; Arlington, VA 22201 \\ rear";

for (const target of dbTargets) {
  describe(`answers from the inbox (${target.name})`, () => {
    let db: Db;
    let cleanup: () => Promise<void>;
    beforeAll(async () => {
      ({ db, cleanup } = await target.open());
    });
    afterAll(async () => cleanup?.());

    const store = (showing: boolean, times: string[] = []) =>
      storeLead(
        db,
        {
          collection: "properties",
          listingId: "12-main",
          listingAddress: ADDRESS,
          values: {
            name: "Ana Díaz",
            email: "ana@example.com",
            phone: "",
            message: "Can I see it?\nThanks",
            showing,
            times,
          },
        },
        mail,
      );
    const sentFor = (id: number) =>
      db.query<{ kind: string; to: string[]; subject: string; body: string; calendar: string }>(
        `SELECT kind, to_addresses AS "to", subject, body, calendar FROM outbox
         WHERE ref = $1 AND kind NOT LIKE 'lead%' ORDER BY id`,
        [`lead:${id}`],
      );
    const stateOf = async (id: number) => {
      const [lead] = await db.query<{ status: string }>("SELECT status FROM leads WHERE id = $1", [
        id,
      ]);
      const events = await db.query<{ action: string; by_email: string; detail: object }>(
        "SELECT action, by_email, detail FROM lead_events WHERE lead_id = $1 ORDER BY id",
        [id],
      );
      return { status: lead?.status, events };
    };

    it("'Reply' e-mails the renter, keeps the reply in the thread and marks a new item contacted", async () => {
      const id = await store(false);
      const result = await answerLead(
        db,
        id,
        { kind: "reply", text: "  Yes, it is still available.  " },
        "boss@example.com",
        mail,
      );
      expect(result).toEqual({ ok: true });
      const [sent, ...more] = await sentFor(id);
      expect(more).toEqual([]);
      expect(sent?.kind).toBe("reply");
      expect(sent?.to).toEqual(["ana@example.com"]);
      expect(sent?.subject).toBe(`Re: ${ADDRESS}`);
      expect(sent?.body).toMatch(/^Yes, it is still available\.\n\nTest Leasing\n/);
      expect(sent?.body).toContain("> Can I see it?\n> Thanks");
      expect(sent?.calendar).toBeNull();
      expect(await stateOf(id)).toEqual({
        status: "contacted",
        events: [
          { action: "received", by_email: null, detail: {} },
          {
            action: "reply",
            by_email: "boss@example.com",
            detail: { subject: `Re: ${ADDRESS}`, text: "Yes, it is still available." },
          },
          {
            action: "status",
            by_email: "boss@example.com",
            detail: { from: "new", to: "contacted" },
          },
        ],
      });
    });

    it("refuses an empty reply, an inquiry's confirmation and a missing item, and keeps nothing", async () => {
      const id = await store(false);
      const before = await stateOf(id);
      expect(await answerLead(db, id, { kind: "reply", text: " \n " }, "b", mail)).toEqual({
        ok: false,
        status: 400,
        error: "Write a reply.",
      });
      expect(
        await answerLead(
          db,
          id,
          { kind: "confirm", time: "2027-03-01T10:00", text: "" },
          "b",
          mail,
        ),
      ).toEqual({
        ok: false,
        status: 400,
        error: "Only a showing request can be confirmed or declined.",
      });
      expect(await answerLead(db, id, { kind: "decline", text: "" }, "b", mail)).toMatchObject({
        ok: false,
        status: 400,
      });
      expect(await answerLead(db, 987654, { kind: "reply", text: "Hi" }, "b", mail)).toMatchObject({
        ok: false,
        status: 404,
      });
      expect(await sentFor(id)).toEqual([]);
      expect(await stateOf(id)).toEqual(before);
    });

    it("'Confirm showing' sends an invitation for the chosen time at the listing's address", async () => {
      const id = await store(true, ["2027-03-01T10:00", "2027-03-02T17:30"]);
      const refused = await answerLead(
        db,
        id,
        { kind: "confirm", time: "2027-02-30T10:00", text: "" },
        "boss@example.com",
        mail,
      );
      expect(refused).toMatchObject({ ok: false, status: 400 });
      expect(await sentFor(id)).toEqual([]);

      const result = await answerLead(
        db,
        id,
        { kind: "confirm", time: "2027-03-02T17:30", text: "Ring the bell at the side door." },
        "boss@example.com",
        mail,
      );
      expect(result).toEqual({ ok: true });
      const [sent] = await sentFor(id);
      expect(sent?.kind).toBe("showing-confirm");
      expect(sent?.subject).toBe(`Showing confirmed: ${ADDRESS}, Tuesday, March 2, 2027 at 17:30`);
      expect(sent?.body).toContain("Ring the bell at the side door.");

      const { method, event } = readInvitation(sent?.calendar ?? "");
      expect(method).toBe("REQUEST");
      expect(event.location).toBe(ADDRESS);
      expect(event.summary).toBe(`Showing: ${ADDRESS}`);
      expect(event.uid).toBe(`showing-${id}@leasing.example`);
      expect(event.sequence).toBe(0);
      // A floating local time (no zone): the time the renter proposed, as they wrote it.
      expect(event.startDate.toString()).toBe("2027-03-02T17:30:00");
      expect(event.startDate.zone?.tzid).toBe("floating");
      expect(event.duration.toSeconds()).toBe(30 * 60);
      expect(String(event.organizer).toLowerCase()).toBe("mailto:office@example.com");
      expect(event.attendees.map((a) => String(a.getFirstValue()).toLowerCase())).toEqual([
        "mailto:ana@example.com",
      ]);

      const state = await stateOf(id);
      expect(state.status).toBe("showing-scheduled");
      expect(state.events.map((e) => e.action)).toEqual(["received", "confirm", "status"]);
      expect(state.events[1]?.detail).toMatchObject({ time: "2027-03-02T17:30" });

      // Another time later: the same event, the next sequence.
      await answerLead(
        db,
        id,
        { kind: "confirm", time: "2027-03-04T09:00", text: "" },
        "boss@example.com",
        mail,
      );
      const again = (await sentFor(id))[1];
      const second = readInvitation(again?.calendar ?? "").event;
      expect(second.uid).toBe(`showing-${id}@leasing.example`);
      expect(second.sequence).toBe(1);
      expect(second.startDate.toString()).toBe("2027-03-04T09:00:00");
    });

    it("'Decline' sends a polite note and closes the request", async () => {
      const id = await store(true, ["2027-03-01T10:00"]);
      expect(
        await answerLead(db, id, { kind: "decline", text: "" }, "boss@example.com", mail),
      ).toEqual({ ok: true });
      const [sent] = await sentFor(id);
      expect(sent?.kind).toBe("showing-decline");
      expect(sent?.to).toEqual(["ana@example.com"]);
      expect(sent?.body).toContain("Hello Ana Díaz,");
      expect(sent?.body).toContain("We're sorry, but we can't arrange a showing at this time.");
      expect(sent?.calendar).toBeNull();
      const state = await stateOf(id);
      expect(state.status).toBe("closed");
      expect(state.events.map((e) => e.action)).toEqual(["received", "decline", "status"]);
    });
  });
}

describe("the showing invitation", () => {
  const input = {
    uid: "showing-1@leasing.example",
    sequence: 0,
    time: "2027-03-01T10:00",
    address: "1 Main St",
    mail,
  };
  it("names the renter without a double quote a calendar could not read", () => {
    const text = showingInvitation({
      ...input,
      renter: { name: 'Ana "Annie" Díaz', email: "ana@example.com" },
    });
    const { event } = readInvitation(text);
    expect(event.attendees[0]?.getParameter("cn")).toBe("Ana 'Annie' Díaz");
  });

  it("still invites when the renter's address is one the calendar library refuses", () => {
    const text = showingInvitation({
      ...input,
      renter: { name: "Åsa", email: "åsa@exämple.com" },
    });
    const { event } = readInvitation(text);
    expect(event.location).toBe("1 Main St");
    expect(event.attendees).toEqual([]);
    expect(String(event.organizer).toLowerCase()).toBe("mailto:office@example.com");
  });
});
