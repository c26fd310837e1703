// The online application's pages (docs/behaviour.md §32): `/rental-application/apply` (the first
// step, before there is a private link) and `/rental-application/continue?token=…` (every later
// step, 'Review and submit', the status page, withdrawal). Plain forms with a button per action,
// so every step works without JavaScript; every post saves what was typed before anything else,
// so nothing is lost on 'Back', on a refused step or on a reload.
import { type AppLoadContext, data, redirect } from "react-router";
import { EMAIL_PATTERN, tooManyFromNetwork } from "~/domain/inquiry";
import { parseListingRef } from "~/domain/listing-kinds";
import {
  APPLICATION_ERRORS,
  APPLICATION_LABELS,
  APPLICATION_STEPS,
  answersFrom,
  CO_APPLICANT_STEPS,
  checkStep,
  DOCUMENT_KINDS,
  DOCUMENT_LIMITS,
  type FieldErrors,
  isStepId,
  type StepId,
} from "~/domain/rental-application";
import { leadMailOf } from "~/features/leads/index.server";
import { enqueueMail } from "~/features/mail/index.server";
import { getSiteContent } from "~/features/site-settings/index.server";
import type { Queryable } from "~/shared/db.server";
import { scheduleScrub } from "~/shared/db-scrub.server";
import { log } from "~/shared/logger.server";
import { FORM_UNREADABLE, readForm } from "~/shared/read-form.server";
import {
  addDocument,
  completeApplicant,
  householdProgress,
  listOwnDocuments,
  type OpenedApplication,
  openApplication,
  removeDocument,
  saveAnswers,
  startApplication,
  submitApplication,
  withdrawApplication,
} from "./applications.server";
import {
  APPLY_MESSAGES,
  type ApplyAnswer,
  type ApplyView,
  continueUrl,
  type ListingChoice,
} from "./apply-view";
import { DATA_KEY_MISSING } from "./data-key.server";
import { DOCUMENT_ERRORS, DocumentRejectedError } from "./documents.server";
import { removeQueued } from "./file-deletions.server";
import { applicationRef } from "./names.server";

const today = () => new Date().toISOString().slice(0, 10);

/** The steps this adult fills in: all of them for the main applicant, four for another adult. */
export function stepsOf(position: number): StepId[] {
  return position === 0
    ? APPLICATION_STEPS.map((s) => s.id)
    : [...CO_APPLICANT_STEPS.filter((s) => s !== "review"), "review"];
}

async function siteTexts(db: Queryable) {
  const { application } = await getSiteContent(db);
  return { fee: application.fee, criteria: application.screeningCriteria };
}

/** Available properties to apply for (the first step, when no address named one). */
async function listingChoices(db: Queryable): Promise<ListingChoice[]> {
  return db.query<ListingChoice>(
    `SELECT collection || '/' || id AS value, address FROM listings
     WHERE collection = 'properties' AND currently_available IS TRUE
     ORDER BY address, id LIMIT 1000`,
  );
}

/** The listing an address names (the 'Apply online' button keeps 'How to Apply''s `address`). */
async function listingOfAddress(db: Queryable, address: string | null) {
  // (A NUL is no text to PostgreSQL: an address with a control character names no listing.)
  if (!address?.trim() || /\p{Cc}/u.test(address)) return null;
  const [row] = await db.query<ListingChoice>(
    `SELECT collection || '/' || id AS value, address FROM listings
     WHERE address = $1 ORDER BY (collection = 'properties') DESC, currently_available DESC NULLS LAST
     LIMIT 1`,
    [address.trim()],
  );
  return row ?? null;
}

/** `/rental-application/apply`: the first step. */
export async function applyLoader(context: AppLoadContext, url: URL): Promise<ApplyView> {
  if (!context.applications.key) return { kind: "closed", message: DATA_KEY_MISSING };
  const listing = await listingOfAddress(context.db, url.searchParams.get("address"));
  return {
    kind: "steps",
    token: null,
    step: "applicant",
    steps: stepsOf(0),
    values: {},
    listing,
    choices: listing ? [] : await listingChoices(context.db),
    documents: [],
    ...(await siteTexts(context.db)),
    saved: null,
  };
}

const refuse = (answer: ApplyAnswer, status = 400) => data(answer, { status });
const formRefused = () => refuse({ errors: { form: FORM_UNREADABLE } });

/** Who is told of new applications, and what e-mails to applicants are signed with. */
async function mailOf(context: AppLoadContext) {
  const mail = await leadMailOf(context);
  const signature = `${mail.companyName}\n${mail.officePhone} · ${mail.officeEmail}`;
  return { ...mail, signature };
}

/**
 * Writes the 'finish later' e-mail in the caller's transaction. `mail` is read before that
 * transaction: on PGlite every query waits for the open transaction, so reading the site
 * settings through `context.db` inside it would wait for ever.
 */
async function mailLink(
  tx: Queryable,
  context: AppLoadContext,
  mail: Awaited<ReturnType<typeof mailOf>>,
  link: { applicationId: number; to: string; token: string; step: StepId },
) {
  await enqueueMail(tx, {
    kind: "application-link",
    ref: applicationRef(link.applicationId),
    to: [link.to],
    replyTo: mail.officeEmail,
    subject: "Your rental application: finish later",
    body: [
      "Hello,",
      "",
      "Here is the private link to your rental application. It continues where you stopped and works for 30 days from your last change:",
      "",
      new URL(continueUrl(link.token, { step: link.step }), context.env.publicUrl).href,
      "",
      "Do not share this link: it opens your answers.",
      "",
      mail.signature,
    ].join("\n"),
  });
}

/** The listing chosen on the first step, as stored (never the form's word for its address). */
async function chosenListing(context: AppLoadContext, value: unknown) {
  const ref = parseListingRef(typeof value === "string" ? value : "");
  if (!ref) return null;
  const [row] = await context.db.query<{ address: string }>(
    "SELECT address FROM listings WHERE collection = $1 AND id = $2",
    [ref.collection, ref.id],
  );
  return row ? { ...ref, address: row.address } : null;
}

/** The first step's 'Next' or 'Save and finish later': the application begins. */
export async function applyAction(context: AppLoadContext, request: Request) {
  const key = context.applications.key;
  if (!key) return refuse({ errors: { form: DATA_KEY_MISSING } }, 503);
  const form = await readForm(request);
  if (!form) return formRefused();
  const answers = answersFrom("applicant", (name) => form.get(name));
  const listingValue = String(form.get("listing") ?? "");
  const listing = await chosenListing(context, listingValue);
  const errors = checkStep("applicant", answers, today());
  const later = form.get("intent") === "later";
  if (later) {
    // Only the address matters for the link; everything else is kept as typed.
    for (const name of Object.keys(errors)) if (name !== "email") delete errors[name];
  }
  if (!listing && (await listingChoices(context.db)).length > 0) {
    errors.listing = APPLY_MESSAGES.pickListing;
  }
  if (later && errors.listing) delete errors.listing;
  if (Object.keys(errors).length > 0) {
    return refuse({ errors, values: answers, listing: listingValue });
  }
  const wait = context.limitApplication ? await context.limitApplication() : 0;
  if (wait > 0) {
    return refuse(
      {
        errors: { form: tooManyFromNetwork("applications", wait) },
        values: answers,
        listing: listingValue,
      },
      429,
    );
  }
  const step: StepId = later ? "applicant" : "residence";
  const mail = later ? await mailOf(context) : null;
  const { token, applicationId } = await startApplication(
    context.db,
    key,
    { listing, answers, step },
    mail
      ? (tx, started) =>
          mailLink(tx, context, mail, {
            applicationId: started.applicationId,
            to: answers.email ?? "",
            token: started.token,
            step,
          })
      : undefined,
  );
  log().info({ event: "application started", applicationId }, "application started");
  return redirect(continueUrl(token, later ? { step, saved: "1" } : { step }), 303);
}

/** `/rental-application/continue?token=…`: a step, the status page or what is left of it. */
export async function continueLoader(context: AppLoadContext, url: URL) {
  const key = context.applications.key;
  if (!key) return { kind: "closed", message: DATA_KEY_MISSING } satisfies ApplyView;
  const params = url.searchParams;
  const token = params.get("token") ?? "";
  const opened = await openApplication(context.db, key, token);
  if (!opened) return data({ kind: "gone", message: APPLY_MESSAGES.gone } satisfies ApplyView, 404);
  const coApplicant = opened.applicant.position > 0;
  if (opened.status === "withdrawn") {
    return { kind: "withdrawn", statusAt: opened.statusAt } satisfies ApplyView;
  }
  const finished = coApplicant ? opened.applicant.completedAt !== null : opened.status !== "draft";
  if (finished) {
    if (params.get("done") === "1") {
      return { kind: "received", token, coApplicant } satisfies ApplyView;
    }
    return {
      kind: "status",
      token,
      coApplicant,
      status: opened.status,
      statusAt: opened.statusAt,
      address: opened.listing?.address ?? null,
      household: (await householdProgress(context.db, key, opened.applicationId)).filter(
        (p) => p.position > 0,
      ),
      confirmWithdraw: !coApplicant && params.get("withdraw") === "1",
    } satisfies ApplyView;
  }
  const steps = stepsOf(opened.applicant.position);
  const asked = params.get("step");
  const step =
    isStepId(asked) && steps.includes(asked)
      ? asked
      : steps.includes(opened.applicant.step)
        ? opened.applicant.step
        : "applicant";
  return {
    kind: "steps",
    token,
    step,
    steps,
    values: opened.answers,
    listing: opened.listing
      ? {
          value: `${opened.listing.collection}/${opened.listing.id}`,
          address: opened.listing.address,
        }
      : null,
    choices: [],
    documents:
      step === "documents" || step === "review"
        ? await listOwnDocuments(context.db, key, opened.applicant.id)
        : [],
    ...(await siteTexts(context.db)),
    saved:
      params.get("saved") === "1" && opened.answers.email
        ? APPLICATION_LABELS.savedLater(opened.answers.email)
        : null,
  } satisfies ApplyView;
}

const MB = 1024 * 1024;
/** A document upload's whole request: one file of 10 MB and the form's few fields. */
const UPLOAD_REQUEST_BYTES = DOCUMENT_LIMITS.bytes + MB;

/**
 * The form of a post to the private link. An upload is read with a cap (a page action's body is
 * otherwise read whole): a larger one is refused before it is read.
 */
async function readStepForm(request: Request): Promise<FormData | "too-big" | null> {
  const type = request.headers.get("content-type") ?? "";
  if (!type.startsWith("multipart/form-data")) return readForm(request);
  const declared = Number(request.headers.get("content-length") ?? "NaN");
  if (declared > UPLOAD_REQUEST_BYTES) return "too-big";
  if (!request.body) return null;
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
    if (done || !value) break;
    total += value.length;
    if (total > UPLOAD_REQUEST_BYTES) {
      await reader.cancel().catch(() => undefined);
      return "too-big";
    }
    chunks.push(value);
  }
  return new Response(Buffer.concat(chunks), { headers: { "content-type": type } })
    .formData()
    .catch(() => null);
}

/** Every post to a private link: what was typed is saved first, then the button's action. */
export async function continueAction(context: AppLoadContext, request: Request) {
  const { key, vault } = context.applications;
  if (!key || !vault) return refuse({ errors: { form: DATA_KEY_MISSING } }, 503);
  const url = new URL(request.url);
  const token = url.searchParams.get("token") ?? "";
  const opened = await openApplication(context.db, key, token);
  if (!opened) return refuse({ errors: { form: APPLY_MESSAGES.gone } }, 404);
  const form = await readStepForm(request);
  if (form === "too-big") {
    return refuse({ errors: { file: DOCUMENT_ERRORS.tooBig } }, 413);
  }
  if (!form) return formRefused();
  const intent = form.get("intent");
  const position = opened.applicant.position;

  if (intent === "withdraw") {
    const withdrawn = await withdrawApplication(context.db, token);
    if (!withdrawn) return refuse({ errors: { form: APPLY_MESSAGES.closed } }, 409);
    await removeQueued(context.db, vault, withdrawn.storageKeys);
    scheduleScrub(context.db);
    log().info(
      { event: "application withdrawn", applicationId: opened.applicationId },
      "withdrawn",
    );
    return redirect(continueUrl(token), 303);
  }

  const steps = stepsOf(position);
  const stepValue = form.get("step");
  if (!isStepId(stepValue) || !steps.includes(stepValue)) {
    return refuse({ errors: { form: FORM_UNREADABLE } });
  }
  const step = stepValue;
  const at = steps.indexOf(step);

  if (intent === "upload" || intent === "remove") {
    return documentAction(context, opened, token, form, intent);
  }
  if (intent === "submit") return submit(context, opened, token, form);

  const answers = answersFrom(step, (name) => form.get(name));
  const merged = { ...opened.answers, ...answers };
  const errors = intent === "next" ? checkStep(step, merged, today()) : {};
  const refused = Object.keys(errors).length > 0;
  const next =
    intent === "next" && !refused
      ? (steps[at + 1] ?? step)
      : intent === "back"
        ? (steps[at - 1] ?? step)
        : step;
  // The link goes to the address on the first step: a valid one is needed first.
  if (intent === "later" && !EMAIL_PATTERN.test((merged.email ?? "").trim())) {
    return refuse({ errors: { form: APPLY_MESSAGES.emailFirst }, values: merged });
  }
  if (intent === "later") {
    const wait = context.limitApplication ? await context.limitApplication() : 0;
    if (wait > 0) {
      return refuse(
        { errors: { form: tooManyFromNetwork("applications", wait) }, values: merged },
        429,
      );
    }
  }
  const mail = intent === "later" ? await mailOf(context) : null;
  const saved = await saveAnswers(
    context.db,
    key,
    token,
    answers,
    next,
    undefined,
    mail
      ? (tx, s) =>
          mailLink(tx, context, mail, {
            applicationId: s.applicationId,
            to: s.answers.email ?? "",
            token,
            step,
          })
      : undefined,
  );
  if (!saved) return refuse({ errors: { form: APPLY_MESSAGES.closed } }, 409);
  if (refused) return refuse({ errors, values: merged });
  if (intent === "later") return redirect(continueUrl(token, { step, saved: "1" }), 303);
  return redirect(continueUrl(token, { step: next }), 303);
}

async function documentAction(
  context: AppLoadContext,
  opened: OpenedApplication,
  token: string,
  form: FormData,
  intent: "upload" | "remove",
) {
  const { key, vault } = context.applications;
  if (!key || !vault) return refuse({ errors: { form: DATA_KEY_MISSING } }, 503);
  if (intent === "remove") {
    const id = Number(form.get("document"));
    if (Number.isSafeInteger(id)) await removeDocument(context.db, vault, token, id);
    return redirect(continueUrl(token, { step: "documents" }), 303);
  }
  const kind = form.get("kind");
  const file = form.get("file");
  if (typeof kind !== "string" || !Object.hasOwn(DOCUMENT_KINDS, kind)) {
    return refuse({ errors: { kind: APPLY_MESSAGES.chooseKind } });
  }
  if (!(file instanceof File) || file.size === 0) {
    return refuse({ errors: { file: APPLY_MESSAGES.chooseFile } });
  }
  try {
    await addDocument(context.db, key, vault, token, {
      kind: kind as keyof typeof DOCUMENT_KINDS,
      name: file.name,
      bytes: Buffer.from(await file.arrayBuffer()),
    });
  } catch (error) {
    if (error instanceof DocumentRejectedError) {
      return refuse({ errors: { file: error.message } });
    }
    throw error;
  }
  log().info({ event: "application document", applicationId: opened.applicationId }, "document");
  return redirect(continueUrl(token, { step: "documents" }), 303);
}

/** 'Submit application': every step checked again, then the household's part or one adult's. */
async function submit(
  context: AppLoadContext,
  opened: OpenedApplication,
  token: string,
  form: FormData,
) {
  const key = context.applications.key as Buffer;
  const errors: FieldErrors = {};
  if (form.get("confirm") !== "on") errors.confirm = APPLICATION_ERRORS.confirm;
  const steps = stepsOf(opened.applicant.position);
  for (const step of steps) {
    if (Object.keys(checkStep(step, opened.answers, today())).length > 0) {
      const title = APPLICATION_STEPS.find((s) => s.id === step)?.title ?? step;
      errors.form = APPLY_MESSAGES.stepIncomplete(title);
      errors.step = step;
      break;
    }
  }
  if (Object.keys(errors).length > 0) return refuse({ errors });
  if (opened.applicant.position > 0) {
    if (!(await completeApplicant(context.db, token))) {
      return refuse({ errors: { form: APPLY_MESSAGES.closed } }, 409);
    }
    return redirect(continueUrl(token, { done: "1" }), 303);
  }
  const mail = await mailOf(context);
  const address = opened.listing?.address ?? null;
  const about = address ? ` for ${address}` : "";
  const submitted = await submitApplication(
    context.db,
    key,
    token,
    undefined,
    async (tx, { applicationId, adults }) => {
      const ref = applicationRef(applicationId);
      const link = (t: string) => new URL(continueUrl(t), context.env.publicUrl).href;
      await enqueueMail(tx, {
        kind: "application-received",
        ref,
        to: [opened.answers.email ?? ""],
        replyTo: mail.officeEmail,
        subject: `Application received${about}`,
        body: [
          `Hello ${opened.answers.fullName ?? ""},`,
          "",
          `We received your rental application${about}. You can follow it, or withdraw it, at its private status page:`,
          "",
          link(token),
          "",
          ...(adults.length > 0
            ? [
                "We have e-mailed each of the other adults you named a link to fill in their own part.",
                "",
              ]
            : []),
          mail.signature,
        ].join("\n"),
      });
      for (const adult of adults) {
        await enqueueMail(tx, {
          kind: "application-adult",
          ref,
          to: [adult.email],
          replyTo: mail.officeEmail,
          subject: `Your part of the rental application${about}`,
          body: [
            `Hello ${adult.name},`,
            "",
            `${opened.answers.fullName ?? "Someone"} named you as an adult who will live with them and applied${about}. Every adult fills in their own part: your details, where you live now, your employment and income, and your documents.`,
            "",
            "Your private link (do not share it: it opens your answers):",
            "",
            link(adult.token),
            "",
            mail.signature,
          ].join("\n"),
        });
      }
      await enqueueMail(tx, {
        kind: "application-staff",
        ref,
        to: mail.notify,
        subject: `New rental application${about}`,
        body: [
          `A rental application${about} has arrived.`,
          "",
          new URL(`/admin/applications/${applicationId}`, context.env.publicUrl).href,
        ].join("\n"),
      });
    },
  );
  if (!submitted) return refuse({ errors: { form: APPLY_MESSAGES.closed } }, 409);
  log().info(
    { event: "application submitted", applicationId: submitted.applicationId },
    "submitted",
  );
  return redirect(continueUrl(token, { done: "1" }), 303);
}
