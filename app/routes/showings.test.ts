// Showings that book themselves, through the whole app (docs/behaviour.md §33), as a browser
// without JavaScript does it: 'Showing hours' saved by a Manager (and refused to a Leasing
// agent), the detail page's 'Schedule a showing' with the hours' free times, 'Book showing'
// with its e-mails and invitation, the same time refused to the next renter with the times
// refreshed, field errors as the inquiry form's, the private 'Change or cancel' link with
// 'Confirm I'm coming', the reminders each booking plans, and the staff's agenda buttons.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listingKey } from "~/domain/listing";
import { grantAdmin } from "~/features/auth/admins.server";
import { insertListing } from "~/features/listings/queries.server";
import { bookShowing } from "~/features/showings/showings.server";
import { jobSchema } from "~/shared/scheduler.server";
import { startTestApp, type TestApp } from "../../tests/support/test-app";

const ADDRESS = "7 Showing Street";
const ID = listingKey(ADDRESS);
const EVERY_DAY = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];

describe("showings", () => {
  let t: TestApp;
  let manager = "";
  beforeAll(async () => {
    t = await startTestApp({ scheduler: true });
    manager = await t.signIn("manager@example.com", { role: "manager" });
    await insertListing(t.db, "properties", ID, {
      address: ADDRESS,
      bedrooms: 2,
      bathrooms: 1,
      description: "",
      image_urls: [],
      thumbnail_description: "",
      property_type: "Residential",
      currently_available: true,
      price: "1900",
      reserve_url: null,
    });
  });
  afterAll(async () => t?.close());

  const post = (path: string, fields: Record<string, string>, cookie = "") =>
    fetch(`${t.base}${path}`, {
      method: "POST",
      body: new URLSearchParams(fields),
      headers: { "content-type": "application/x-www-form-urlencoded", origin: t.base, cookie },
      redirect: "manual",
    });
  const hoursForm = (more: Record<string, string> = {}) => {
    const fields: Record<string, string> = {
      slotMinutes: "30",
      minimumNoticeHours: "0",
      bookUpToDays: "14",
      bufferMinutes: "0",
      visitorsPerSlot: "1",
      closedDates: "",
      timeZone: "America/New_York",
      reminderHours: "24, 2",
      cancelIfNotConfirmedHours: "",
    };
    // Open all day, every day: a time is always free whatever the hour the test runs.
    for (const day of EVERY_DAY) {
      fields[`from-${day}`] = "00:00";
      fields[`to-${day}`] = "23:30";
    }
    return { ...fields, ...more };
  };
  const detailTimes = async () => {
    const html = await (await fetch(`${t.base}/properties/${ID}`)).text();
    return [...html.matchAll(/href="\/showings\/book\?listing=[^"]*?start=([^"&]+)"/g)].map((m) =>
      decodeURIComponent((m[1] as string).replaceAll("&amp;", "&")),
    );
  };
  const booking = (start: string, more: Record<string, string> = {}) => ({
    listing: `properties/${ID}`,
    start,
    started: String(Date.now() - 10_000),
    name: "Ana Renter",
    email: "ana@example.com",
    phone: "",
    moveIn: "",
    people: "",
    website: "",
    ...more,
  });

  /** A showing booked straight in the database (its e-mail holds the link sealed): its link. */
  const bookedLink = async (name: string, start: Date) => {
    const booked = await bookShowing(
      t.db,
      {
        listing: { collection: "properties", id: ID, address: ADDRESS },
        start,
        end: new Date(start.getTime() + 30 * 60_000),
        person: {
          name,
          email: `${name.toLowerCase()}@example.com`,
          phone: "",
          moveIn: null,
          people: null,
        },
      },
      { visitorsPerSlot: 1 },
    );
    if (!booked.ok) throw new Error("not booked");
    return `/showings/manage?token=${booked.token}`;
  };

  it("offers no times until 'Showing hours' has an open day", async () => {
    const html = await (await fetch(`${t.base}/properties/${ID}`)).text();
    expect(html).not.toContain("Schedule a showing");
  });

  it("saves 'Showing hours' for a Manager, refuses a Leasing agent, and checks each field", async () => {
    const agent = await t.signIn("agent@example.com", { role: "leasing-agent" });
    expect(
      (await fetch(`${t.base}/admin/showings/hours`, { headers: { cookie: agent } })).status,
    ).toBe(404);
    expect((await post("/admin/showings/hours", hoursForm(), agent)).status).toBe(404);
    const refused = await post(
      "/admin/showings/hours",
      hoursForm({ timeZone: "Mars/Olympus", "to-Monday": "" }),
      manager,
    );
    expect(refused.status).toBe(400);
    const text = await refused.text();
    expect(text).toContain("Enter a time zone such as America/New_York.");
    expect(text).toContain("Mars/Olympus");
    const saved = await post("/admin/showings/hours", hoursForm(), manager);
    expect(saved.status).toBe(200);
    expect(await saved.text()).toContain("Showing hours saved.");
    const page = await (
      await fetch(`${t.base}/admin/showings/hours`, { headers: { cookie: manager } })
    ).text();
    expect(page).toContain("<h1>Showing hours</h1>");
  });

  it("lists free times on the detail page and books one, with the renter's e-mail and invitation", async () => {
    // The page was kept for visitors before the hours were saved: saving them dropped it.
    const html = await (await fetch(`${t.base}/properties/${ID}`)).text();
    expect(html).toContain("Schedule a showing");
    const times = await detailTimes();
    expect(times.length).toBeGreaterThan(0);
    const start = times[0] as string;
    const res = await post("/showings/book", booking(start));
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(/You&#x27;re booked for \w+day, \w+ \d+ at \d+:\d\d [AP]M\./);
    const mail = await t.db.query<{
      kind: string;
      to: string[];
      replyTo: string;
      body: string;
      calendar: string;
    }>(
      `SELECT kind, to_addresses AS "to", reply_to AS "replyTo", body, calendar FROM outbox
       WHERE kind LIKE 'showing booked%' ORDER BY id`,
    );
    expect(mail.map((m) => m.kind)).toEqual(["showing booked", "showing booked (staff)"]);
    const renter = mail[0];
    expect(renter?.to).toEqual(["ana@example.com"]);
    // To an address nobody confirmed: the company's words, not the name the renter typed.
    expect(renter?.body).not.toContain("Ana Renter");
    expect(renter?.body).toContain(ADDRESS);
    expect(renter?.body).toContain("Change or cancel: ");
    expect(renter?.calendar).toContain("METHOD:REQUEST");
    expect(renter?.calendar).toContain("DTSTART;TZID=America/New_York:");
    expect(renter?.calendar).toContain(`LOCATION:${ADDRESS}`);
    expect(mail[1]?.body).toContain("Ana Renter");
    // Staff's copy answers the renter, so 'Erase this person' takes it too.
    expect(mail[1]?.replyTo).toBe("ana@example.com");
    // Taken now: the detail page no longer offers it.
    expect(await detailTimes()).not.toContain(start);
  });

  it("tells the next renter the time was just taken, with the times as they are now", async () => {
    const times = await detailTimes();
    const start = times[0] as string;
    expect((await post("/showings/book", booking(start))).status).toBe(200);
    const second = await post("/showings/book", booking(start, { email: "ben@example.com" }));
    expect(second.status).toBe(409);
    const text = await second.text();
    expect(text).toContain("That time was just taken. Please choose another.");
    expect(text).toContain("ben@example.com");
    expect(text).not.toContain(`value="${start}"`);
  });

  it("refuses wrong fields with the inquiry form's messages, booking nothing", async () => {
    const [before] = await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM showings");
    const times = await detailTimes();
    const res = await post(
      "/showings/book",
      booking(times[0] as string, { name: "", email: "not-an-address", people: "99" }),
    );
    expect(res.status).toBe(400);
    const text = await res.text();
    expect(text).toContain("Enter your name.");
    expect(text).toContain("Enter a valid e-mail address.");
    expect(text).toContain("Enter a number from 1 to 20, or leave it empty.");
    const [after] = await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM showings");
    expect(after?.n).toBe(before?.n);
  });

  it("opens 'Your showing' by its private link, asks 'Are you sure?', and cancels it", async () => {
    const times = await detailTimes();
    const start = new Date(times[0] as string);
    const link = await bookedLink("Cy", start);
    const page = await fetch(`${t.base}${link}`);
    expect(page.status).toBe(200);
    expect(page.headers.get("cache-control")).toBe("no-store");
    expect(page.headers.get("referrer-policy")).toBe("no-referrer");
    const html = await page.text();
    expect(html).toContain("Your showing");
    expect(html).toContain(ADDRESS);
    expect(html).toContain("Cancel showing");
    expect((await fetch(`${t.base}/showings/manage?token=${"x".repeat(43)}`)).status).toBe(404);
    const ask = await post(link, { intent: "ask" });
    expect(await ask.text()).toContain("Are you sure?");
    expect(await detailTimes()).not.toContain(start.toISOString());
    const done = await post(link, { intent: "cancel" });
    expect(done.status).toBe(200);
    expect(await done.text()).toContain("Your showing is cancelled.");
    // Free again at once; opening the link again says so.
    expect(await detailTimes()).toContain(start.toISOString());
    expect(await (await fetch(`${t.base}${link}`)).text()).toContain("Your showing is cancelled.");
    const [told] = await t.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM outbox WHERE kind = 'showing cancelled (staff)'",
    );
    expect(told?.n).toBe(1);
  });

  it("moves a showing to another time once; the spent link moves nothing more", async () => {
    const times = await detailTimes();
    const start = new Date(times[0] as string);
    const link = await bookedLink("Dee", start);
    const page = await (await fetch(`${t.base}${link}`)).text();
    expect(page).toContain("Choose another time");
    const to = times[1] as string;
    const moved = await post(link, { intent: "move", start: to });
    expect(moved.status).toBe(200);
    expect(await moved.text()).toMatch(/You&#x27;re booked for \w+day, \w+ \d+ at/);
    const now = await detailTimes();
    expect(now).toContain(start.toISOString());
    expect(now).not.toContain(to);
    const again = await post(link, { intent: "move", start: times[2] as string });
    expect(again.status).toBe(409);
    expect(await again.text()).toContain("This showing cannot be changed any more.");
  });

  it("shows a Leasing agent limited to other listings none of these showings", async () => {
    const limited = await t.signIn("limited@example.com", { role: "leasing-agent" });
    await t.db.query(
      "INSERT INTO staff_listings (email, collection, listing_id) VALUES ($1, 'properties', 'elsewhere')",
      ["limited@example.com"],
    );
    const html = await (
      await fetch(`${t.base}/admin/showings`, { headers: { cookie: limited } })
    ).text();
    expect(html).toContain("<h1>Showings</h1>");
    expect(html).not.toContain("ana@example.com");
  });

  it("lists booked showings on 'Showings' for staff who read the inbox", async () => {
    const viewer = await t.signIn("viewer@example.com", { role: "viewer" });
    expect((await fetch(`${t.base}/admin/showings`, { headers: { cookie: viewer } })).status).toBe(
      404,
    );
    const html = await (
      await fetch(`${t.base}/admin/showings`, { headers: { cookie: manager } })
    ).text();
    expect(html).toContain("<h1>Showings</h1>");
    expect(html).toContain("Next 7 days");
    expect(html).toContain("ana@example.com");
  });

  it("plans the booking's reminders as jobs due before it", async () => {
    const times = await detailTimes();
    // Two days ahead at least: both reminders (24 and 2 hours before) are still to come.
    const start = times.find((x) => Date.parse(x) > Date.now() + 48 * 3_600_000) as string;
    expect(
      (await post("/showings/book", booking(start, { email: "eve@example.com" }))).status,
    ).toBe(200);
    const [showing] = await t.db.query<{ id: number }>(
      "SELECT id::int AS id FROM showings WHERE email = 'eve@example.com'",
    );
    const schema = await jobSchema(t.db);
    const jobs = await t.db.query<{ at: Date }>(
      `SELECT start_after AS at FROM ${schema}.job
       WHERE name = 'showings.remind' AND (data->>'id')::int = $1 ORDER BY start_after`,
      [showing?.id],
    );
    expect(jobs.map((j) => (Date.parse(start) - new Date(j.at).getTime()) / 3_600_000)).toEqual([
      24, 2,
    ]);
  });

  it("confirms by 'Confirm I'm coming'; a reminder's 'Cancel' link opens at 'Are you sure?'", async () => {
    const times = await detailTimes();
    const link = await bookedLink("Fay", new Date(times[0] as string));
    const asked = await (await fetch(`${t.base}${link}&intent=cancel`)).text();
    expect(asked).toContain("Are you sure?");
    // Following the link changed nothing.
    const page = await (await fetch(`${t.base}${link}`)).text();
    expect(page).not.toContain("Are you sure?");
    expect(page).toContain("Confirm I&#x27;m coming");
    const confirmed = await post(link, { intent: "confirm" });
    expect(confirmed.status).toBe(200);
    const html = await confirmed.text();
    expect(html).toContain("Thank you: your showing is confirmed.");
    expect(html).toContain("You have confirmed that you&#x27;re coming.");
    const [row] = await t.db.query<{ status: string }>(
      "SELECT status FROM showings WHERE name = 'Fay'",
    );
    expect(row?.status).toBe("confirmed");
  });

  it("marks a showing 'Completed', 'No-show' or 'Cancel' from 'Showings', e-mailing a cancellation", async () => {
    const times = await detailTimes();
    const ids: number[] = [];
    for (const [n, name] of ["Gus", "Hal", "Ivy"].entries()) {
      await bookedLink(name, new Date(times[n] as string));
      const [row] = await t.db.query<{ id: number }>(
        "SELECT id::int AS id FROM showings WHERE name = $1",
        [name],
      );
      ids.push(row?.id as number);
    }
    const [gus, hal, ivy] = ids.map(String) as [string, string, string];
    // Gus's and Hal's showings began a moment ago (set by hand: the test's clock); Ivy's is ahead.
    for (const [name, minutes] of [
      ["Gus", 5],
      ["Hal", 10],
    ] as const) {
      await t.db.query(
        `UPDATE showings SET starts_at = now() - make_interval(mins => $2),
           ends_at = now() + interval '20 minutes' WHERE name = $1`,
        [name, minutes],
      );
    }
    const agenda = await (
      await fetch(`${t.base}/admin/showings`, { headers: { cookie: manager } })
    ).text();
    for (const label of [">Completed<", ">No-show<", ">Cancel<"]) expect(agenda).toContain(label);
    // Not before its day: a showing days ahead is not 'Completed' (its seat would go unseen),
    // and one that has begun is not cancelled (the renter would be told after the fact).
    const later = times.find((x) => Date.parse(x) > Date.now() + 72 * 3_600_000) as string;
    await bookedLink("Jay", new Date(later));
    const [jay] = await t.db.query<{ id: number }>(
      "SELECT id::int AS id FROM showings WHERE name = 'Jay'",
    );
    const early = await post(
      "/admin/showings",
      { intent: "completed", id: String(jay?.id) },
      manager,
    );
    expect(early.status).toBe(409);
    expect(await early.text()).toContain("This showing cannot be changed any more.");
    expect((await post("/admin/showings", { intent: "cancelled", id: gus }, manager)).status).toBe(
      409,
    );
    // A form without its id is a form that could not be read.
    expect((await post("/admin/showings", { intent: "completed" }, manager)).status).toBe(400);

    // Out of reach: a Viewer (404), and a Leasing agent limited to other listings (nothing changes).
    const viewer = await t.signIn("viewer2@example.com", { role: "viewer" });
    expect((await post("/admin/showings", { intent: "completed", id: gus }, viewer)).status).toBe(
      404,
    );
    const limited = await t.signIn("limited2@example.com", { role: "leasing-agent" });
    await t.db.query(
      "INSERT INTO staff_listings (email, collection, listing_id) VALUES ($1, 'properties', 'elsewhere')",
      ["limited2@example.com"],
    );
    expect((await post("/admin/showings", { intent: "completed", id: gus }, limited)).status).toBe(
      409,
    );

    const done = await post("/admin/showings", { intent: "completed", id: gus }, manager);
    expect(done.status).toBe(200);
    expect(await done.text()).toContain("Status saved: Completed.");
    expect((await post("/admin/showings", { intent: "no-show", id: hal }, manager)).status).toBe(
      200,
    );
    expect((await post("/admin/showings", { intent: "cancelled", id: ivy }, manager)).status).toBe(
      200,
    );
    // A showing no longer live changes no more.
    const again = await post("/admin/showings", { intent: "cancelled", id: gus }, manager);
    expect(again.status).toBe(409);
    const statuses = await t.db.query<{ name: string; status: string }>(
      "SELECT name, status FROM showings WHERE name IN ('Gus', 'Hal', 'Ivy') ORDER BY name",
    );
    expect(statuses).toEqual([
      { name: "Gus", status: "completed" },
      { name: "Hal", status: "no-show" },
      { name: "Ivy", status: "cancelled" },
    ]);
    const told = await t.db.query<{ body: string; calendar: string }>(
      "SELECT body, calendar FROM outbox WHERE kind = 'showing cancelled' AND 'ivy@example.com' = ANY(to_addresses)",
    );
    expect(told).toHaveLength(1);
    expect(told[0]?.body).toContain("Your showing is cancelled.");
    expect(told[0]?.calendar).toContain("METHOD:CANCEL");
    // The seat is free again at once.
    expect(await detailTimes()).toContain(times[2]);
  });

  it("offers no times for a listing shown 'By request only' or with 'No showings'", async () => {
    const put = (address: string, showings: string | null) =>
      insertListing(t.db, "newConstruction", listingKey(address), {
        address,
        bedrooms: 3,
        bathrooms: 2,
        description: "",
        image_urls: [],
        thumbnail_description: "",
        property_type: "Residential",
        currently_available: null,
        price: null,
        reserve_url: null,
        showings: showings as "request" | "none" | null,
      });
    await put("8 Open Row", null);
    await put("9 Request Row", "request");
    await put("10 Closed Row", "none");
    const page = async (address: string) =>
      (await fetch(`${t.base}/new-construction/${listingKey(address)}`)).text();
    expect(await page("8 Open Row")).toContain("Schedule a showing");
    const request = await page("9 Request Row");
    expect(request).not.toContain("Schedule a showing");
    expect(request).toContain("I&#x27;d like to see it");
    const closed = await page("10 Closed Row");
    expect(closed).not.toContain("Schedule a showing");
    expect(closed).toContain('class="no-showings"');
    // Booking by hand is refused, and a showing request is taken as a question.
    const [time] = await detailTimes();
    const refused = await post(
      "/showings/book",
      booking(time as string, { listing: `newConstruction/${listingKey("10 Closed Row")}` }),
    );
    expect(refused.status).toBe(404);
    const asked = await post("/inquiries", {
      listing: `newConstruction/${listingKey("10 Closed Row")}`,
      started: String(Date.now() - 10_000),
      name: "Jo Renter",
      email: "jo@example.com",
      phone: "",
      message: "Can I see it?",
      showing: "on",
      time: "2027-01-05T10:00",
      website: "",
    });
    expect(asked.status).toBeLessThan(400);
    const [lead] = await t.db.query<{ kind: string }>(
      "SELECT kind FROM leads WHERE email = 'jo@example.com'",
    );
    expect(lead?.kind).toBe("inquiry");
  });

  it("lists bookings in the Inbox as items of kind 'Showing', an agent's listings only", async () => {
    const inbox = async (cookie: string) =>
      (await fetch(`${t.base}/admin/inbox`, { headers: { cookie } })).text();
    const html = await inbox(manager);
    expect(html).toContain('aria-label="Showings"');
    expect(html.replaceAll("<!-- -->", "")).toMatch(
      /<span class="inbox-kind">Showing<\/span> Ivy · /,
    );
    const limited = await t.signIn("limited3@example.com", { role: "leasing-agent" });
    await t.db.query(
      "INSERT INTO staff_listings (email, collection, listing_id) VALUES ($1, 'properties', 'elsewhere')",
      ["limited3@example.com"],
    );
    expect(await inbox(limited)).not.toContain("inbox-showings");
  });

  it("gives each staff member a private calendar feed, without renters' e-mail or phone", async () => {
    const feedOf = async (cookie: string) => {
      const res = await post("/admin/showings", { intent: "calendar" }, cookie);
      expect(res.status).toBe(200);
      const url = /value="(http[^"]+\.ics\?token=[^"]+)"/.exec(await res.text())?.[1];
      expect(url).toMatch(/\/showings\/calendar\.ics\?token=[A-Za-z0-9_-]{43}$/);
      return url as string;
    };
    const first = await feedOf(manager);
    const res = await fetch(first);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/calendar; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("no-store");
    const ics = await res.text();
    expect(ics).toContain("METHOD:PUBLISH");
    expect(ics).toMatch(/SUMMARY:Showing: 7 Showing Street \(Ana Renter\)/);
    expect(ics).not.toMatch(/SUMMARY:Showing: 7 Showing Street \(Ivy\)/); // cancelled
    expect(ics).not.toContain("@example.com");
    // The page says when it was made, no more; 'Reset link' ends the old address.
    const page = await (
      await fetch(`${t.base}/admin/showings`, { headers: { cookie: manager } })
    ).text();
    expect(page).toContain("Reset link");
    expect(page).not.toContain(first);
    const second = await feedOf(manager);
    expect((await fetch(first)).status).toBe(404);
    expect((await fetch(second)).status).toBe(200);
    // A Leasing agent limited to other listings sees none of these; a Viewer gets no feed.
    const limited = await t.signIn("limited4@example.com", { role: "leasing-agent" });
    await t.db.query(
      "INSERT INTO staff_listings (email, collection, listing_id) VALUES ($1, 'properties', 'elsewhere')",
      ["limited4@example.com"],
    );
    const agentFeed = await (await fetch(await feedOf(limited))).text();
    expect(agentFeed).toContain("BEGIN:VCALENDAR");
    expect(agentFeed).not.toContain("BEGIN:VEVENT");
    const viewer = await t.signIn("viewer3@example.com", { role: "viewer" });
    expect((await post("/admin/showings", { intent: "calendar" }, viewer)).status).toBe(404);
    // A person whose role no longer reads the inbox: the address answers nothing any more.
    await t.db.query("UPDATE admins SET role = 'viewer' WHERE email = 'manager@example.com'");
    expect((await fetch(second)).status).toBe(404);
    await t.db.query("UPDATE admins SET role = 'manager' WHERE email = 'manager@example.com'");
    expect((await fetch(second)).status).toBe(200);
    // Removed from the staff and added again: the old address stays ended; a new one works.
    await t.db.query("DELETE FROM admins WHERE email = 'manager@example.com'");
    await grantAdmin(t.db, "manager@example.com", "test", "manager");
    expect((await fetch(second)).status).toBe(404);
    expect((await fetch(await feedOf(manager))).status).toBe(200);
    expect((await fetch(`${t.base}/showings/calendar.ics?token=${"x".repeat(43)}`)).status).toBe(
      404,
    );
  });

  it("answers every question about a listing at once with the 'Automatic reply', in the company's words", async () => {
    const ask = (listing: string, email: string) =>
      post("/inquiries", {
        listing,
        started: String(Date.now() - 10_000),
        name: "Kim Asker",
        email,
        phone: "571-555-0142",
        message: "Is the yard fenced?",
        website: "",
      });
    const replyTo = async (email: string) =>
      t.db.query<{ kind: string; subject: string; body: string }>(
        "SELECT kind, subject, body FROM outbox WHERE $1 = ANY(to_addresses) ORDER BY id",
        [email],
      );
    expect((await ask(`properties/${ID}`, "kim@example.com")).status).toBe(200);
    const [reply, ...more] = await replyTo("kim@example.com");
    expect(more).toHaveLength(0);
    expect(reply?.kind).toBe("lead auto-reply");
    expect(reply?.subject).toBe(`Your question about ${ADDRESS}`);
    for (const line of [
      `Thank you for asking about ${ADDRESS}.`,
      "Rent: $1,900",
      "Bedrooms: 2",
      "Bathrooms: 1",
      "Available from: now",
      `Schedule a showing: ${t.base}/properties/${ID}#schedule-h`,
      "Screening criteria: We look for a household income of about three times the monthly rent",
      "703-555-0100",
      "office@example.com",
    ]) {
      expect(reply?.body).toContain(line);
    }
    // Nothing the sender typed.
    for (const typed of ["Kim Asker", "571-555-0142", "Is the yard fenced?"]) {
      expect(reply?.body).not.toContain(typed);
    }
    // A listing shown by request only: no link to book.
    expect(
      (await ask(`newConstruction/${listingKey("9 Request Row")}`, "lee@example.com")).status,
    ).toBe(200);
    const [byRequest] = await replyTo("lee@example.com");
    expect(byRequest?.body).toContain("Thank you for asking about 9 Request Row.");
    expect(byRequest?.body).not.toContain("Schedule a showing");
    // Turned off: the plain confirmation, as before.
    await t.db.query(
      `INSERT INTO site_settings (id, content) VALUES (true, '{"autoReply":{"enabled":false,"text":""}}')
       ON CONFLICT (id) DO UPDATE SET content = EXCLUDED.content`,
    );
    try {
      expect((await ask(`properties/${ID}`, "max@example.com")).status).toBe(200);
      expect((await replyTo("max@example.com")).map((m) => m.subject)).toEqual([
        "We received your message",
      ]);
    } finally {
      await t.db.query("UPDATE site_settings SET content = '{}' WHERE id");
    }
  });

  it("shows each inbox item's first reply and the median over the last 30 days", async () => {
    const [lead] = await t.db.query<{ id: number }>(
      "SELECT id::int AS id FROM leads WHERE email = 'kim@example.com'",
    );
    const inbox = async () =>
      (
        await (await fetch(`${t.base}/admin/inbox`, { headers: { cookie: manager } })).text()
      ).replaceAll("<!-- -->", "");
    let html = await inbox();
    expect(html).toContain("Median time to a first reply, last 30 days: no replies yet");
    expect(html).toContain("First reply: not yet · Automatic reply: ");
    // Answered 90 minutes after it came (the history's times set by hand: the test's clock).
    await t.db.query("UPDATE leads SET created_at = now() - interval '2 hours' WHERE id = $1", [
      lead?.id,
    ]);
    expect(
      (
        await post(
          "/admin/inbox",
          { intent: "status", id: String(lead?.id), status: "contacted" },
          manager,
        )
      ).status,
    ).toBe(200);
    await t.db.query(
      "UPDATE lead_events SET at = now() - interval '30 minutes' WHERE lead_id = $1 AND action = 'status'",
      [lead?.id],
    );
    html = await inbox();
    expect(html).toMatch(/Median time to a first reply, last 30 days: 1 h 30 min \(1 item\)/);
    expect(html).toMatch(/First reply: <time[^>]*>[^<]+<\/time>, after 1 h 30 min/);
  });
});
