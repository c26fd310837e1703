// A submitted 'Ask about this listing' or 'Send us a message' form (docs/behaviour.md §27): the
// spam checks (a honeypot, the time since the page loaded), the fields, the listing, the
// client's hourly limit, then the lead and its e-mails in one transaction. A refused
// submission stores and sends nothing, and gives back what was typed.
import type { AppLoadContext } from "react-router";
import { z } from "zod";
import {
  checkInquiry,
  INQUIRY_ERRORS,
  type InquiryField,
  type InquiryValues,
  tooManyFromNetwork,
} from "~/domain/inquiry";
import { type Collection, parseListingRef } from "~/domain/listing-kinds";
import { formStartOf, SPAM_GUARD_FIELDS, spamCheck } from "~/domain/spam-guard";
import { getListing } from "~/features/listings/index.server";
import { getSiteContent } from "~/features/site-settings/index.server";
import { formTexts, readFields, textFields } from "~/shared/action-result.server";
import { log } from "~/shared/logger.server";
import { autoReplyFor } from "./auto-reply.server";
import { type LeadMail, storeLead } from "./leads.server";

/** The listing a form is about, as the page gives it to the form. */
export interface InquiryListing {
  collection: "properties" | "newConstruction";
  id: string;
  address: string;
}

export type InquiryResult =
  | { ok: true; listing: InquiryListing | null }
  | {
      ok: false;
      status: number;
      errors: Partial<Record<InquiryField | "form", string>>;
      values: InquiryValues;
      listing: InquiryListing | null;
      /** When the form's page was made, given back so a form sent again keeps its start. */
      started: number;
    };

/** The form as sent: any form parses, and checkInquiry says what is wrong with it. */
const inquiryForm = z.object({
  ...textFields("name", "email", "phone", "message", "showing", "listing", ...SPAM_GUARD_FIELDS),
  time: formTexts,
});

/** What the page composing the form knows beyond the leads (the showings feature's link). */
export interface InquiryOptions {
  /** 'Schedule a showing' of a listing that has open hours: its address; else null. */
  scheduleUrl?: (listing: {
    collection: Collection;
    id: string;
    address: string;
    currently_available?: boolean | null;
    showings?: string | null;
  }) => Promise<string | null>;
}

export async function submitInquiry(
  context: AppLoadContext,
  form: FormData,
  now = Date.now(),
  options: InquiryOptions = {},
): Promise<InquiryResult> {
  const fields = readFields(form, inquiryForm, { repeated: ["time"] });
  const { values, errors } = checkInquiry({ ...fields, times: fields.time });

  // The listing, as stored (never the form's word for its address).
  let listing: InquiryListing | null = null;
  const ref = parseListingRef(fields.listing);
  const found = ref ? await getListing(context.db, ref.collection, ref.id) : null;
  if (ref) {
    if (found) listing = { ...ref, address: found.address };
    // 'No showings' (docs/behaviour.md §33): a showing request is taken as a question.
    if (found?.showings === "none") {
      values.showing = false;
      values.times = [];
      delete errors.times;
    }
  }

  const started = formStartOf(fields, now);
  if (Object.keys(errors).length > 0) {
    return { ok: false, status: 400, errors, values, listing, started };
  }

  // A person never fills the hidden field; a script that did is told it worked, and nothing is
  // kept or sent.
  const spam = spamCheck(fields, now);
  if (spam === "honeypot") {
    log().info({ event: "inquiry refused", reason: "honeypot" }, "inquiry refused");
    return { ok: true, listing };
  }
  if (spam === "too-fast") {
    const errors = { form: INQUIRY_ERRORS.tooFast };
    return { ok: false, status: 400, errors, values, listing, started };
  }

  const wait = (await context.limit?.("inquiry")) ?? 0;
  if (wait > 0) {
    return {
      ok: false,
      status: 429,
      errors: { form: tooManyFromNetwork("messages", wait) },
      values,
      listing,
      started,
    };
  }

  const site = await getSiteContent(context.db);
  const autoReply =
    ref && found && site.autoReply.enabled
      ? autoReplyFor(
          site,
          found,
          await options.scheduleUrl?.({ ...ref, ...found }).catch(() => null),
        )
      : null;
  const leadId = await storeLead(
    context.db,
    {
      collection: listing?.collection ?? null,
      listingId: listing?.id ?? null,
      listingAddress: listing?.address ?? null,
      values,
      autoReply,
    },
    await leadMailOf(context, site),
  );
  log().info({ event: "lead received", leadId }, "lead received");
  return { ok: true, listing };
}

/** Who hears of leads and what e-mails to renters are signed with, from the site settings. */
export async function leadMailOf(
  context: AppLoadContext,
  // The site settings when the caller has read them already (one read per request).
  known?: Awaited<ReturnType<typeof getSiteContent>>,
): Promise<LeadMail> {
  const site = known ?? (await getSiteContent(context.db));
  return {
    notify: context.env.leads.notify.length ? context.env.leads.notify : [site.office.email],
    companyName: site.name,
    officeEmail: site.office.email,
    officePhone: site.office.phone,
    publicUrl: context.env.publicUrl,
    unconfirmed: context.env.mail.unconfirmed,
  };
}
