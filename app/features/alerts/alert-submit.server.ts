// A submitted 'Notify me when it's available' or 'E-mail me new matches' form (docs/behaviour.md
// §31): the same spam checks as inquiries (a honeypot, the time since the page loaded, the
// client's hourly limit), the address, what is watched; then the alert and its confirmation
// e-mail in one transaction. A refused submission stores and sends nothing.
import type { AppLoadContext } from "react-router";
import { HONEYPOT_FIELD, MIN_SUBMIT_MS, tooManyFromNetwork } from "~/domain/inquiry";
import { ALERT_ERRORS, checkAlertEmail } from "~/domain/listing-alerts";
import { isCollection, parseListingRef } from "~/domain/listing-kinds";
import { getListing } from "~/features/listings/index.server";
import { log } from "~/shared/logger.server";
import { createAlert, type NewAlert } from "./alerts.server";

export type AlertResult =
  | { ok: true }
  | { ok: false; status: number; errors: { email?: string; form?: string }; email: string };

const text = (form: FormData, name: string) => {
  const v = form.get(name);
  return typeof v === "string" ? v : "";
};

/** What the form watches: a property that is not available, or a list page's search. */
async function watched(context: AppLoadContext, form: FormData): Promise<NewAlert | null> {
  const ref = parseListingRef(text(form, "listing"));
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
  const collection = text(form, "collection");
  if (!isCollection(collection)) return null;
  const search = text(form, "search").replace(/^\?/, "");
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
  const { email, error } = checkAlertEmail(form.get("email"));
  if (error) return { ok: false, status: 400, errors: { email: error }, email };
  const alert = await watched(context, form);
  if (!alert) {
    return {
      ok: false,
      status: 400,
      errors: { form: "There is nothing to watch here: the property is available or gone." },
      email,
    };
  }
  // A person never fills the hidden field: a script that did is told it worked.
  if (text(form, HONEYPOT_FIELD) !== "") {
    log().info({ event: "alert refused", reason: "honeypot" }, "alert refused");
    return { ok: true };
  }
  const elapsed = Number(text(form, "elapsed"));
  const started = Number(text(form, "started"));
  const waited =
    Number.isFinite(elapsed) && elapsed > 0
      ? elapsed
      : Number.isFinite(started) && started > 0
        ? now - started
        : 0;
  if (waited < MIN_SUBMIT_MS) {
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
