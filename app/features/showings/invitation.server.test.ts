// The invitation of a booked showing (docs/behaviour.md §33): the company's time zone, a
// duration that holds on the night clocks go back, and lines folded between characters.
import { describe, expect, it } from "vitest";
import { showingInvitation } from "./invitation.server";

const base = {
  uid: "showing-1@leasing-site",
  sequence: 0,
  timeZone: "America/New_York",
  companyName: "Northern Virginia Family Leasing",
  officeEmail: "office@example.com",
  officePhone: "703-555-0100",
  now: new Date("2027-11-01T00:00:00Z"),
};

describe("the showing invitation", () => {
  it("starts at the local time with its zone and lasts the slot, also at 01:30 EDT on 2027-11-07", () => {
    const ics = showingInvitation({
      ...base,
      address: "1 Elm St",
      start: new Date("2027-11-07T05:30:00Z"),
      end: new Date("2027-11-07T06:00:00Z"),
    });
    expect(ics).toContain("METHOD:REQUEST\r\n");
    expect(ics).toContain("DTSTART;TZID=America/New_York:20271107T013000\r\n");
    expect(ics).toContain("DURATION:PT30M\r\n");
    expect(ics).not.toContain("DTEND");
    expect(ics).toContain("TZOFFSETTO:-0400\r\n");
    expect(ics).toContain("LOCATION:1 Elm St\r\n");
  });

  it("folds long lines at 75 octets without cutting a character, and escapes text", () => {
    const address = `${"🏠".repeat(30)}, Suite 5; Floor 2`;
    const ics = showingInvitation({
      ...base,
      address,
      start: new Date("2027-03-01T15:00:00Z"),
      end: new Date("2027-03-01T15:30:00Z"),
    });
    for (const line of ics.split("\r\n"))
      expect(Buffer.byteLength(line, "utf8")).toBeLessThanOrEqual(75);
    expect(ics).not.toContain("\uFFFD");
    const location = ics.split("\r\n").findIndex((l) => l.startsWith("LOCATION:"));
    const unfolded = ics
      .split("\r\n")
      .slice(location)
      .join("\r\n")
      .replace(/\r\n /g, "")
      .split("\r\n")[0];
    expect(unfolded).toBe(`LOCATION:${"🏠".repeat(30)}\\, Suite 5\\; Floor 2`);
  });
});
