// 'First reply' in the inbox (docs/behaviour.md §33): how long a question waited for a person's
// answer. A person answered with the first answer sent from the inbox ('Reply', 'Confirm
// showing', 'Decline') or the first status that says they did ('Contacted', 'Showing
// scheduled'), whichever came first. The automatic reply is counted apart: it is the site's.

/** The history's actions of an answer sent from the inbox. */
export const ANSWER_ACTIONS = ["reply", "confirm", "decline"] as const;
/** Statuses that say someone answered outside the inbox (by phone, from their own e-mail). */
export const ANSWERED_STATUSES = ["contacted", "showing-scheduled"] as const;

interface HistoryEvent {
  at: string;
  byEmail: string | null;
  action: string;
  detail: Record<string, unknown>;
}

/** Whether an event of an item's history is a person's reply. */
export function isPersonReply(e: Pick<HistoryEvent, "byEmail" | "action" | "detail">) {
  if (e.byEmail === null) return false;
  if ((ANSWER_ACTIONS as readonly string[]).includes(e.action)) return true;
  return e.action === "status" && (ANSWERED_STATUSES as readonly unknown[]).includes(e.detail.to);
}

/** When a person first replied, from the item's history (oldest first); null: not yet. */
export function firstReplyAt(events: readonly HistoryEvent[]): string | null {
  return events.find(isPersonReply)?.at ?? null;
}

/** '45 min', '3 h 5 min', '2 d 4 h': a wait as staff read it (under a minute: '< 1 min'). */
export function waitText(ms: number): string {
  const minutes = Math.floor(Math.max(0, ms) / 60_000);
  if (minutes < 1) return "< 1 min";
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
  const days = Math.floor(hours / 24);
  return hours % 24 ? `${days} d ${hours % 24} h` : `${days} d`;
}
