// The invitation sent with a booked showing (docs/behaviour.md §33): iCalendar (RFC 5545),
// METHOD:REQUEST, start and end in the company's time zone (TZID) with a VTIMEZONE that holds
// that zone's offset at the showing, the listing's address as its location. Written here, not
// by the `ics` library the inbox uses: that library writes UTC or floating times only.
import { localParts } from "~/domain/showing-slots";

/** Text escaped for an iCalendar TEXT value (RFC 5545 §3.3.11). */
const escapeText = (text: string) =>
  text.replace(/[\\;,]/g, (c) => `\\${c}`).replace(/\r?\n/g, "\\n");

/** Lines folded at 75 octets (RFC 5545 §3.1). */
function fold(line: string): string {
  const bytes = Buffer.from(line, "utf8");
  if (bytes.length <= 75) return line;
  const parts: string[] = [];
  let rest = line;
  let limit = 75;
  while (Buffer.byteLength(rest, "utf8") > limit) {
    let cut = limit;
    while (Buffer.byteLength(rest.slice(0, cut), "utf8") > limit) cut--;
    parts.push(rest.slice(0, cut));
    rest = rest.slice(cut);
    limit = 74;
  }
  parts.push(rest);
  return parts.join("\r\n ");
}

const pad = (n: number) => String(n).padStart(2, "0");

/** 'YYYYMMDDTHHMMSS' of an instant in a zone. */
function localStamp(instant: Date, timeZone: string): string {
  const { date, minutes } = localParts(instant, timeZone);
  return `${date.replaceAll("-", "")}T${pad(Math.floor(minutes / 60))}${pad(minutes % 60)}00`;
}

const utcStamp = (instant: Date) => `${instant.toISOString().slice(0, 19).replace(/[-:]/g, "")}Z`;

/** '+0500' style offset of the zone at an instant. */
function offsetAt(instant: Date, timeZone: string): string {
  const { date, minutes } = localParts(instant, timeZone);
  const local = Date.parse(`${date}T00:00:00Z`) + minutes * 60_000;
  const offset = Math.round((local - Math.floor(instant.getTime() / 60_000) * 60_000) / 60_000);
  const sign = offset < 0 ? "-" : "+";
  const abs = Math.abs(offset);
  return `${sign}${pad(Math.floor(abs / 60))}${pad(abs % 60)}`;
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
    `DTEND;TZID=${zone}:${localStamp(input.end, zone)}`,
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
