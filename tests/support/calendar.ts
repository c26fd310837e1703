// An iCalendar invitation as a calendar reads it (ical.js): its METHOD and its one event.
import ICAL from "ical.js";

export function readInvitation(text: string): { method: unknown; event: ICAL.Event } {
  const calendar = new ICAL.Component(ICAL.parse(text));
  return {
    method: calendar.getFirstPropertyValue("method"),
    event: new ICAL.Event(calendar.getFirstSubcomponent("vevent") ?? undefined),
  };
}
