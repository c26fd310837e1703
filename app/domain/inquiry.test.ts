import { describe, expect, it } from "vitest";
import {
  checkInquiry,
  describeLocalTime,
  INQUIRY_ERRORS,
  inboxFilterOf,
  isLocalDateTime,
  prefilledMessage,
} from "./inquiry";

const good = { name: "Ana Renter", email: "ana@example.com", message: "Is it still free?" };

describe("checkInquiry", () => {
  it("accepts a filled-in form and keeps every value as typed", () => {
    const { values, errors } = checkInquiry({ ...good, phone: " 703-555-0199 " });
    expect(errors).toEqual({});
    expect(values).toEqual({ ...good, phone: " 703-555-0199 ", showing: false, times: [] });
  });

  it("gives each refused field the issue's message", () => {
    const { errors } = checkInquiry({ name: " ", email: "ana@", message: "\n " });
    expect(errors).toEqual({
      name: INQUIRY_ERRORS.name,
      email: INQUIRY_ERRORS.email,
      message: INQUIRY_ERRORS.message,
    });
    expect(INQUIRY_ERRORS.name).toBe("Enter your name.");
    expect(INQUIRY_ERRORS.email).toBe("Enter a valid e-mail address.");
    expect(INQUIRY_ERRORS.message).toBe("Write a message.");
  });

  it("refuses what is too long, control characters, and header injection in the name", () => {
    expect(checkInquiry({ ...good, name: "x".repeat(101) }).errors.name).toMatch(/at most 100/);
    expect(checkInquiry({ ...good, message: "x".repeat(5001) }).errors.message).toMatch(/5000/);
    expect(checkInquiry({ ...good, name: "Ana\r\nBcc: x@y.z" }).errors.name).toBeDefined();
    expect(checkInquiry({ ...good, message: "a\u0000b" }).errors.message).toBeDefined();
    expect(checkInquiry({ ...good, message: "line one\r\nline two\tend" }).errors).toEqual({});
    expect(checkInquiry({ ...good, email: `${"a".repeat(250)}@example.com` }).errors.email).toBe(
      INQUIRY_ERRORS.email,
    );
  });

  it("takes up to three preferred times, only real dates and times, only for a showing", () => {
    const times = ["2027-03-01T10:00", "", "2027-03-02T17:30", "2027-03-03T09:00"];
    const showing = checkInquiry({ ...good, showing: "on", times });
    expect(showing.errors).toEqual({});
    expect(showing.values.times).toEqual(times.slice(0, 3));
    expect(checkInquiry({ ...good, showing: "on", times: ["2027-02-30T10:00"] }).errors.times).toBe(
      INQUIRY_ERRORS.time,
    );
    // Without 'I'd like to see it' the times are not looked at.
    expect(checkInquiry({ ...good, times: ["nonsense"] }).errors).toEqual({});
    expect(isLocalDateTime("2027-03-01T24:00")).toBe(false);
    expect(describeLocalTime("2027-03-02T17:30")).toBe("Tuesday, March 2, 2027 at 17:30");
  });

  it("prefills the message with the listing's address", () => {
    expect(prefilledMessage("3233 4th Street N ")).toBe("I'm interested in 3233 4th Street N.");
  });

  it("reads the inbox's filters, dropping values it does not take", () => {
    const params = new URLSearchParams(
      "status=closed&kind=showing&listing=properties/3233-4th-street-n",
    );
    expect(inboxFilterOf(params)).toEqual({
      status: "closed",
      kind: "showing",
      listing: "properties/3233-4th-street-n",
    });
    expect(inboxFilterOf(new URLSearchParams("status=x&kind=&listing=users/1"))).toEqual({});
  });
});
