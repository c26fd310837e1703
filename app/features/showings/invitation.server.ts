// The invitation sent with a booked showing (docs/behaviour.md §33): iCalendar (RFC 5545),
// METHOD:REQUEST, start and end in the company's time zone (TZID) with a VTIMEZONE that holds
// that zone's offset at the showing, the listing's address as its location. Written here, not
// by the `ics` library the inbox uses: that library writes UTC or floating times only.
import { localParts, offsetMinutes, pad } from "~/domain/showing-slots";

/** Text escaped for an iCalendar TEXT value (RFC 5545 §3.3.11). */
export const escapeText = (text: string) =>
  text.replace(/[\\;,]/g, (c) => `\\${c}`).replace(/\r\n|\r|\n/g, "\\n");

/** Lines folded at 75 octets (RFC 5545 §3.1), never inside a character. */
export function fold(line: string): string {
  const parts: string[] = [];
  let part = "";
  let bytes = 0;
  let limit = 75;
  for (const char of line) {
    const size = Buffer.byteLength(char, "utf8");
    if (bytes + size > limit) {
      parts.push(part);
      part = "";
      bytes = 0;
      limit = 74; // a continuation line starts with a space
    }
    part += char;
    bytes += size;
  }
  parts.push(part);
  return parts.join("\r\n ");
}

/** 'YYYYMMDDTHHMMSS' of an instant in a zone. */
function localStamp(instant: Date, timeZone: string): string {
  const { date, minutes } = localParts(instant, timeZone);
  return `${date.replaceAll("-", "")}T${pad(Math.floor(minutes / 60))}${pad(minutes % 60)}00`;
}

export const utcStamp = (instant: Date) =>
  `${instant.toISOString().slice(0, 19).replace(/[-:]/g, "")}Z`;

/** The event's length in whole minutes (at least one), as iCalendar writes it. */
export const durationLine = (start: Date, end: Date) =>
  `DURATION:PT${Math.max(1, Math.round((end.getTime() - start.getTime()) / 60_000))}M`;

/** '-0400' style offset of the zone at an instant. */
function offsetAt(instant: Date, timeZone: string): string {
  const offset = offsetMinutes(instant.getTime(), timeZone);
  const abs = Math.abs(offset);
  return `${offset < 0 ? "-" : "+"}${pad(Math.floor(abs / 60))}${pad(abs % 60)}`;
}

export function showingInvitation(input: {
  uid: string;
  sequence: number;
  start: Date;
  end: Date;
  timeZone: string;
  address: string;
  companyName: string;
  officeEmail: string;
  officePhone: string;
  /** CANCEL withdraws an invitation sent before (same UID, higher sequence). */
  method?: "REQUEST" | "CANCEL";
  now?: Date;
}): string {
  const method = input.method ?? "REQUEST";
  const zone = input.timeZone;
  const offset = offsetAt(input.start, zone);
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    `PRODID:-//${escapeText(input.companyName)}//Showings//EN`,
    "CALSCALE:GREGORIAN",
    `METHOD:${method}`,
    "BEGIN:VTIMEZONE",
    `TZID:${zone}`,
    "BEGIN:STANDARD",
    "DTSTART:19700101T000000",
    `TZOFFSETFROM:${offset}`,
    `TZOFFSETTO:${offset}`,
    "END:STANDARD",
    "END:VTIMEZONE",
    "BEGIN:VEVENT",
    `UID:${input.uid}`,
    `SEQUENCE:${input.sequence}`,
    `DTSTAMP:${utcStamp(input.now ?? new Date())}`,
    `DTSTART;TZID=${zone}:${localStamp(input.start, zone)}`,
    // A duration, not a local end: on the night clocks go back, 01:30 EDT plus 30 minutes is
    // 01:00 EST, which a local DTEND under one fixed offset would put before the start.
    durationLine(input.start, input.end),
    `SUMMARY:${escapeText(`Showing: ${input.address}`)}`,
    `LOCATION:${escapeText(input.address)}`,
    `DESCRIPTION:${escapeText(
      `${input.companyName} · ${input.officePhone} · ${input.officeEmail}`,
    )}`,
    `ORGANIZER;CN="${input.companyName.replace(/["\\;,:]/g, "")}":mailto:${input.officeEmail}`,
    `STATUS:${method === "CANCEL" ? "CANCELLED" : "CONFIRMED"}`,
    "END:VEVENT",
    "END:VCALENDAR",
  ];
  return `${lines.map(fold).join("\r\n")}\r\n`;
}
