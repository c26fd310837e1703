// The weekly 'stale listings' e-mail (docs/behaviour.md §30): available properties whose
// availability nobody confirmed for STALE_AFTER_DAYS, sent to INBOX_NOTIFY_EMAILS (else the
// office e-mail) through the outbox. Once a week across every instance: a run is taken by
// moving `scheduled_runs.last_run` on in the same transaction that writes the e-mail.
import { longDate } from "~/domain/listing-facts";
import { listingPath } from "~/domain/listing-kinds";
import { type StaleProperty, staleProperties } from "~/features/listings/index.server";
import { enqueueMail } from "~/features/mail/index.server";
import { getSiteContent } from "~/features/site-settings/index.server";
import type { Db } from "~/shared/db.server";
import { takeScheduledRun } from "~/shared/scheduled-runs.server";
import type { PeriodicJob } from "~/shared/scheduler.server";

export const STALE_DIGEST_EVERY_DAYS = 7;
const RUN_NAME = "stale-digest";

export interface StaleDigestOptions {
  /** The clock (tests fix it). */
  now: Date;
  staleAfterDays: number;
  /** INBOX_NOTIFY_EMAILS; empty: the office e-mail of the site settings. */
  notify: readonly string[];
  publicUrl: string;
}

/**
 * Runs the digest when a week has passed since the last run (of any instance): the stale
 * properties it found (an e-mail is written only when there are some), or null when it was not
 * due.
 */
export async function runStaleDigest(
  db: Db,
  options: StaleDigestOptions,
): Promise<StaleProperty[] | null> {
  const site = await getSiteContent(db);
  return db.transaction(async (tx) => {
    const hours = STALE_DIGEST_EVERY_DAYS * 24;
    if (!(await takeScheduledRun(tx, RUN_NAME, options.now, hours))) return null;
    const stale = await staleProperties(tx, options.now, options.staleAfterDays);
    if (stale.length === 0) return stale;
    const to = options.notify.length > 0 ? [...options.notify] : [site.office.email];
    await enqueueMail(tx, {
      kind: "stale-digest",
      to: to.filter(Boolean),
      subject: staleSubject(stale.length),
      body: staleBody(stale, options, site.name),
    });
    return stale;
  });
}

export function staleSubject(count: number): string {
  return count === 1
    ? "1 available property may be out of date"
    : `${count} available properties may be out of date`;
}

function staleBody(stale: StaleProperty[], options: StaleDigestOptions, company: string): string {
  const base = options.publicUrl.replace(/\/+$/, "");
  return [
    `These properties are shown as Available, but nobody has confirmed that for more than ${options.staleAfterDays} days:`,
    "",
    ...stale.map(
      (p) =>
        `- ${p.address} (availability checked ${longDate(p.checked)}): ${base}${listingPath("properties", p.id)}`,
    ),
    "",
    "If a property is still available, press 'Still available' in the staff table; if it is let, toggle it to Not Available:",
    `${base}/admin/listings?stale=1`,
    "",
    `— ${company}`,
  ].join("\n");
}

/** Looks every hour whether the weekly digest is due (one instance takes it). */
export function staleDigestJob(db: Db, options: Omit<StaleDigestOptions, "now">): PeriodicJob {
  return {
    name: "listings.stale-digest",
    everySeconds: 3600,
    run: async () => {
      const stale = await runStaleDigest(db, { ...options, now: new Date() });
      return stale && stale.length > 0
        ? `Stale listings e-mail written (${stale.length} properties).`
        : undefined;
    },
  };
}
