// 'Calendar feed' (docs/behaviour.md §33): a private iCalendar address per staff member, to
// subscribe to in Google Calendar or Outlook. Every booked showing of the listings they may see
// (not the cancelled ones), in UTC, with the renter's name but never their e-mail or phone.
// Only the token's SHA-256 is kept, so the address is shown once, when made; 'Reset link' makes
// a new one and the old one stops. Who may read it is decided at each fetch, by the role the
// user has then: a removed person, or one no longer allowed the inbox, gets nothing.
import type { AppLoadContext } from "react-router";
import { SHOWING_STATUS_LABELS } from "~/domain/showing-booking";
import { can, staffAccessOf } from "~/features/auth/index.server";
import { getSiteContent } from "~/features/site-settings/index.server";
import type { Queryable } from "~/shared/db.server";
import { durationLine, escapeText, fold, utcStamp } from "./invitation.server";
import { isToken, makeToken, showingsBetween, tokenHash } from "./showings.server";

export interface FeedOwner {
  issuer: string;
  sub: string;
}

const DAY = 86_400_000;
/** Past showings stay in the calendar this long. */
const PAST_DAYS = 30;
/** Further than anyone can book ('Book up to' is at most 90 days). */
const AHEAD_DAYS = 366;

/** The address's path: the token in the query, which the logs redact (docs/behaviour.md §24). */
export const calendarFeedPath = (token: string) => `/showings/calendar.ics?token=${token}`;

/** A new private address for the user (the old one, if any, stops at once): its token. */
export async function resetCalendarFeed(db: Queryable, owner: FeedOwner): Promise<string> {
  const token = makeToken();
  await db.query(
    `INSERT INTO showing_calendar_feeds (user_issuer, user_sub, token_hash) VALUES ($1, $2, $3)
     ON CONFLICT (user_issuer, user_sub) DO UPDATE
       SET token_hash = EXCLUDED.token_hash, created_at = now(), last_fetched_at = NULL`,
    [owner.issuer, owner.sub, tokenHash(token)],
  );
  return token;
}

/** When the user's address was made and last fetched, or null before they made one. */
export async function calendarFeedOf(db: Queryable, owner: FeedOwner) {
  const [row] = await db.query<{ createdAt: Date; lastFetchedAt: Date | null }>(
    `SELECT created_at AS "createdAt", last_fetched_at AS "lastFetchedAt"
     FROM showing_calendar_feeds WHERE user_issuer = $1 AND user_sub = $2`,
    [owner.issuer, owner.sub],
  );
  return row
    ? {
        createdAt: new Date(row.createdAt).toISOString(),
        lastFetchedAt: row.lastFetchedAt ? new Date(row.lastFetchedAt).toISOString() : null,
      }
    : null;
}

/**
 * The calendar a feed's token opens, or null: an unknown token, or a user who is no longer
 * staff allowed the inbox.
 */
export async function calendarFeed(
  db: Queryable,
  token: string,
  site: { name: string; publicUrl: string },
  now = new Date(),
): Promise<string | null> {
  if (!isToken(token)) return null;
  const [owner] = await db.query<FeedOwner & { createdAt: Date }>(
    `UPDATE showing_calendar_feeds SET last_fetched_at = now() WHERE token_hash = $1
     RETURNING user_issuer AS issuer, user_sub AS sub, created_at AS "createdAt"`,
    [tokenHash(token)],
  );
  if (!owner) return null;
  const access = await staffAccessOf(db, owner);
  if (!access || !can(access, "leads")) return null;
  // Made before the person's grant (removed, then added again): it ended with the old grant.
  if (new Date(owner.createdAt) < access.grantedAt) return null;
  const showings = (
    await showingsBetween(
      db,
      new Date(now.getTime() - PAST_DAYS * DAY),
      new Date(now.getTime() + AHEAD_DAYS * DAY),
      access.listings,
    )
  ).filter((s) => s.status !== "cancelled");
  const stamp = utcStamp(now);
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    `PRODID:-//${escapeText(site.name)}//Showings//EN`,
    "CALSCALE:GREGORIAN",
    "METHOD:PUBLISH",
    `X-WR-CALNAME:${escapeText(`${site.name}: showings`)}`,
    "REFRESH-INTERVAL;VALUE=DURATION:PT15M",
    "X-PUBLISHED-TTL:PT15M",
    ...showings.flatMap((s) => [
      "BEGIN:VEVENT",
      `UID:showing-${s.id}@leasing-site`,
      `DTSTAMP:${stamp}`,
      `DTSTART:${utcStamp(s.start)}`,
      durationLine(s.start, s.end),
      `SUMMARY:${escapeText(`Showing: ${s.listing.address} (${s.name})`)}`,
      `LOCATION:${escapeText(s.listing.address)}`,
      `DESCRIPTION:${escapeText(`${SHOWING_STATUS_LABELS[s.status]}. ${site.publicUrl}/admin/showings`)}`,
      // Only what is still to happen has a status; a past one's is in its description.
      ...(s.status === "booked" ? ["STATUS:TENTATIVE"] : []),
      ...(s.status === "confirmed" ? ["STATUS:CONFIRMED"] : []),
      "END:VEVENT",
    ]),
    "END:VCALENDAR",
  ];
  return `${lines.map(fold).join("\r\n")}\r\n`;
}

/** The feed as the route answers it: the calendar, never kept or indexed; null when none. */
export async function serveCalendarFeed(
  context: Pick<AppLoadContext, "db" | "env">,
  token: string,
): Promise<Response | null> {
  const site = await getSiteContent(context.db);
  const ics = await calendarFeed(context.db, token, {
    name: site.name,
    publicUrl: context.env.publicUrl,
  });
  if (ics === null) return null;
  return new Response(ics, {
    headers: {
      "content-type": "text/calendar; charset=utf-8",
      "cache-control": "no-store",
      "referrer-policy": "no-referrer",
      "x-robots-tag": "noindex",
    },
  });
}
