// One way to write a moment on the admin pages (history, listings, inbox, outbox).

/** "Nov 23, 2026, 11:40 PM UTC": the same text on the server and in any browser. */
export function formatWhen(iso: string | Date): string {
  return `${new Date(iso).toLocaleString("en-US", {
    timeZone: "UTC",
    dateStyle: "medium",
    timeStyle: "short",
  })} UTC`;
}
