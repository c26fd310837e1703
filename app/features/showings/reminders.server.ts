// The work a booked showing planned (reminder-plan.server.ts), run by the scheduler once at its
// time (docs/behaviour.md §33, "Reminders and confirmation"): a reminder with 'Confirm I'm
// coming' and 'Cancel' links, and the cancellation of a showing nobody confirmed. Each runs in
// one transaction with its e-mail, against the showing as it is then and the 'Showing hours' as
// they are then (a reminder taken out of 'Reminders' since is not sent).
import type { AppLoadContext } from "react-router";
import { SHOWING_LABELS } from "~/domain/showing-booking";
import { longDayLabel, type ShowingHours, slotOf, timeLabel } from "~/domain/showing-slots";
import { linkCollector } from "~/features/applications/index.server";
import { enqueueMail } from "~/features/mail/index.server";
import { getSiteContent } from "~/features/site-settings/index.server";
import type { Db } from "~/shared/db.server";
import { log } from "~/shared/logger.server";
import { getShowingHours } from "./hours.server";
import { showingNoticeMail } from "./manage.server";
import type { ExpireData, RemindData } from "./reminder-plan.server";
import { cancelUnconfirmed, manageUrl, type Showing, takeReminder } from "./showings.server";

type Services = { db: Db } & Pick<AppLoadContext, "env" | "applications">;

const HOUR = 3_600_000;

const when = (hours: ShowingHours, at: Date) => {
  const slot = slotOf(hours, at);
  return { day: longDayLabel(slot.date), time: timeLabel(slot.time) };
};

/** The reminder's e-mail, in the company's words only (docs/behaviour.md §33). */
function reminderBody(
  showing: Showing,
  hours: ShowingHours,
  links: { confirm: string; cancel: string },
  site: { name: string; office: { email: string; phone: string } },
  confirmBy: Date | null,
): string {
  const { day, time } = when(hours, showing.start);
  const confirmed = showing.status === "confirmed";
  const by = confirmBy && !confirmed ? when(hours, confirmBy) : null;
  return [
    "Hello,",
    "",
    `Your showing is on ${day} at ${time}.`,
    `Where: ${showing.listing.address}`,
    "",
    confirmed
      ? "You have confirmed that you're coming. Thank you."
      : `${SHOWING_LABELS.confirm}: ${links.confirm}`,
    by
      ? `Please confirm by ${by.day} at ${by.time}: a showing not confirmed by then is cancelled and the time offered to others.`
      : null,
    `${SHOWING_LABELS.cancelLink}: ${links.cancel}`,
    "",
    site.name,
    `${site.office.phone} · ${site.office.email}`,
  ]
    .filter((line) => line !== null)
    .join("\n");
}

/**
 * A reminder `hoursBefore` a showing: sent once (its row in `showing_reminders` is taken in the
 * transaction that writes the e-mail), and not for a showing cancelled, moved or past.
 */
export async function sendShowingReminder(
  services: Services,
  { id, hoursBefore, confirmBy = false }: RemindData,
  now = new Date(),
): Promise<string | undefined> {
  const hours = await getShowingHours(services.db);
  if (!hours.reminderHours.includes(hoursBefore)) return undefined;
  const site = await getSiteContent(services.db);
  const sent = await services.db.transaction(async (tx) => {
    const taken = await takeReminder(tx, id, hoursBefore, now);
    if (!taken) return false;
    const { showing, token } = taken;
    // 'Please confirm by …' only where a cancellation was planned and its time (as the hours say
    // now) is still ahead.
    const deadline = hours.cancelIfNotConfirmedHours;
    const by = deadline === null ? null : new Date(showing.start.getTime() - deadline * HOUR);
    const asks = confirmBy && by !== null && by > now ? by : null;
    const manage = manageUrl(services.env.publicUrl, token);
    const key = services.applications.key;
    const links = linkCollector();
    // The links are sealed in the outbox when the site has its data key (docs/decisions/0074).
    const link = (url: string) => (key ? links.add(url) : url);
    const ref = `showing:${showing.id}`;
    await enqueueMail(tx, {
      kind: "showing reminder",
      ref,
      to: [showing.email],
      replyTo: site.office.email,
      subject: `Reminder: your showing of ${showing.listing.address}`,
      body: reminderBody(
        showing,
        hours,
        { confirm: link(`${manage}&intent=confirm`), cancel: link(`${manage}&intent=cancel`) },
        site,
        asks,
      ),
      unconfirmed: services.env.mail.unconfirmed,
      sealedLinks: key ? links.sealed(key, ref) : null,
    });
    return true;
  });
  if (!sent) return undefined;
  log().info({ event: "showing reminded", showingId: id, hoursBefore }, "showing reminded");
  return `Sent the ${hoursBefore}-hour reminder of showing ${id}.`;
}

/**
 * 'Cancel if not confirmed': a showing still unconfirmed at its deadline is cancelled, its seat
 * free at once; the renter is told (the invitation withdrawn) and so are staff. Nothing happens
 * when the setting was turned off since, or the showing was confirmed, cancelled or moved.
 */
export async function cancelIfUnconfirmed(
  services: Services,
  { id }: ExpireData,
  now = new Date(),
): Promise<string | undefined> {
  const hours = await getShowingHours(services.db);
  const deadline = hours.cancelIfNotConfirmedHours;
  if (deadline === null) return undefined;
  // Not before the deadline as the hours say now (it may have been shortened since), give or
  // take the scheduler's minute.
  const latestStart = new Date(now.getTime() + deadline * HOUR + 60_000);
  const cancelled = await services.db.transaction(async (tx) => {
    const showing = await cancelUnconfirmed(tx, id, now, latestStart);
    if (showing) await showingNoticeMail(services, tx, showing, hours, "unconfirmed");
    return showing;
  });
  if (!cancelled) return undefined;
  log().info({ event: "showing not confirmed", showingId: id }, "showing not confirmed");
  return `Cancelled showing ${id}: not confirmed.`;
}
