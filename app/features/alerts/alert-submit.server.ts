// A submitted 'Notify me when it's available' or 'E-mail me new matches' form (docs/behaviour.md
// §31): the same spam checks as inquiries (a honeypot, the time since the page loaded, the
// client's hourly limit), the address, what is watched; then the alert and its confirmation
// e-mail in one transaction. A refused submission stores and sends nothing.
import type { AppLoadContext } from "react-router";
import { z } from "zod";
import { tooManyFromNetwork } from "~/domain/inquiry";
import { ALERT_ERRORS, checkAlertEmail } from "~/domain/listing-alerts";
import { isCollection, parseListingRef } from "~/domain/listing-kinds";
import { SPAM_GUARD_FIELDS, spamCheck } from "~/domain/spam-guard";
import { getListing } from "~/features/listings/index.server";
import { readFields, textFields } from "~/shared/action-result.server";
import { log } from "~/shared/logger.server";
import { createAlert, type NewAlert } from "./alerts.server";

export type AlertResult =
  | { ok: true }
  | { ok: false; status: number; errors: { email?: string; form?: string }; email: string };

/** The form as sent: any form parses, and the checks below say what is wrong with it. */
const alertForm = z.object(
  textFields("email", "listing", "collection", "search", ...SPAM_GUARD_FIELDS),
);
type AlertFields = z.output<typeof alertForm>;

/** What the form watches: a property that is not available, or a list page's search. */
async function watched(context: AppLoadContext, fields: AlertFields): Promise<NewAlert | null> {
  const ref = parseListingRef(fields.listing);
  if (ref) {
    const listing = await getListing(context.db, ref.collection, ref.id);
    // Only a property that is not available can become available.
    if (!listing || ref.collection !== "properties" || listing.currently_available !== false) {
      return null;
    }
    return {
      kind: "listing",
      collection: ref.collection,
      listingId: ref.id,
      address: listing.address,
    };
  }
  const { collection } = fields;
  if (!isCollection(collection)) return null;
  const search = fields.search.replace(/^\?/, "");
  if (search.length > 2000) return null;
  const params = new URLSearchParams(search);
  // Decoded, no value may hold a control character (a NUL is no text to PostgreSQL).
  if ([...params.values()].some((v) => /[\p{Cc}\p{Cs}]/u.test(v))) return null;
  return { kind: "search", collection, search: params };
}

export async function submitAlert(
  context: AppLoadContext,
  form: FormData,
  now = Date.now(),
): Promise<AlertResult> {
  const fields = readFields(form, alertForm);
  const { email, error } = checkAlertEmail(fields.email);
  if (error) return { ok: false, status: 400, errors: { email: error }, email };
  const alert = await watched(context, fields);
  if (!alert) {
    return {
      ok: false,
      status: 400,
      errors: { form: "There is nothing to watch here: the property is available or gone." },
      email,
    };
  }
  // A person never fills the hidden field: a script that did is told it worked.
  const spam = spamCheck(fields, now);
  if (spam === "honeypot") {
    log().info({ event: "alert refused", reason: "honeypot" }, "alert refused");
    return { ok: true };
  }
  if (spam === "too-fast") {
    return { ok: false, status: 400, errors: { form: ALERT_ERRORS.tooFast }, email };
  }
  const wait = (await context.limit?.("alert")) ?? 0;
  if (wait > 0) {
    return {
      ok: false,
      status: 429,
      errors: { form: tooManyFromNetwork("alerts asked for", wait) },
      email,
    };
  }
  try {
    const kept = await createAlert(context.db, email, alert, {
      publicUrl: context.env.publicUrl,
      unconfirmed: context.env.mail.unconfirmed,
    });
    if (!kept) {
      return { ok: false, status: 429, errors: { form: ALERT_ERRORS.mailCapped }, email };
    }
  } catch (err) {
    log().error({ err }, "Storing an alert failed");
    return { ok: false, status: 503, errors: { form: ALERT_ERRORS.failed }, email };
  }
  log().info({ event: "alert asked", kind: alert.kind }, "alert asked");
  return { ok: true };
}
