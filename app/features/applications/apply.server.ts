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
import {
  addressOf,
  availablePropertyChoices,
  listingAtAddress,
} from "~/features/listings/index.server";
import { enqueueMail } from "~/features/mail/index.server";
import { getSiteContent } from "~/features/site-settings/index.server";
import { refused as refusedAnswer } from "~/shared/action-result.server";
import type { Queryable } from "~/shared/db.server";
import { scheduleScrub } from "~/shared/db-scrub.server";
import { log } from "~/shared/logger.server";
import { FORM_UNREADABLE, isForm, readForm } from "~/shared/read-form.server";
import { readLimitedForm } from "~/shared/request-body.server";
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
import { APPLY_MESSAGES, type ApplyAnswer, type ApplyView, continueUrl } from "./apply-view";
import { DATA_KEY_MISSING } from "./data-key.server";
import { DOCUMENT_ERRORS, DocumentRejectedError } from "./documents.server";
import { removeQueued } from "./file-deletions.server";
import { applicationRef } from "./names.server";
import { linkCollector } from "./outbox-links.server";
import type { DataKeys } from "./seal.server";

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

/** `/rental-application/apply`: the first step. */
export async function applyLoader(context: AppLoadContext, url: URL): Promise<ApplyView> {
  if (!context.applications.key) return { kind: "closed", message: DATA_KEY_MISSING };
  // The listing an address names (the 'Apply online' button keeps 'How to Apply''s `address`);
  // else the available properties to choose from.
  const listing = await listingAtAddress(context.db, url.searchParams.get("address"));
  return {
    kind: "steps",
    token: null,
    step: "applicant",
    steps: stepsOf(0),
    coApplicant: false,
    values: {},
    listing,
    choices: listing ? [] : await availablePropertyChoices(context.db),
    documents: [],
    ...(await siteTexts(context.db)),
    saved: null,
  };
}

/** A refusal of the application's forms, in every action's answer shape (docs/architecture.md). */
const refuse = (context: AppLoadContext, { errors, ...more }: ApplyAnswer, status = 400) =>
  refusedAnswer(context, status, errors, more);
/** A refused body: what the form shows, and the status. */
interface ApplyRefusal {
  errors: FieldErrors;
  status: 400 | 413;
}

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
): Promise<boolean> {
  // To an address nobody confirmed: fixed text, capped (docs/behaviour.md §26); false if refused.
  // The link itself is sealed, not in the stored body (docs/decisions/0074).
  const ref = applicationRef(link.applicationId);
  const links = linkCollector();
  const url = links.add(
    new URL(continueUrl(link.token, { step: link.step }), context.env.publicUrl).href,
  );
  const id = await enqueueMail(tx, {
    kind: "application-link",
    ref,
    sealedLinks: links.sealed(context.applications.key as DataKeys, ref),
    to: [link.to],
    replyTo: mail.officeEmail,
    subject: "Your rental application: finish later",
    unconfirmed: context.env.mail.unconfirmed,
    body: [
      "Hello,",
      "",
      "Here is the private link to your rental application. It continues where you stopped and works for 30 days from your last change:",
      "",
      url,
      "",
      "Do not share this link: it opens your answers.",
      "",
      mail.signature,
    ].join("\n"),
  });
  return id !== null;
}

/** The saved page's query after 'Save and finish later': '1' the link went out, '0' it could not. */
const savedFlag = (sent: boolean) => (sent ? "1" : "0");

/** The listing chosen on the first step, as stored (never the form's word for its address). */
async function chosenListing(context: AppLoadContext, value: unknown) {
  const ref = parseListingRef(typeof value === "string" ? value : "");
  if (!ref) return null;
  const address = await addressOf(context.db, ref);
  return address === null ? null : { ...ref, address };
}

/** The first step's 'Next' or 'Save and finish later': the application begins. */
export async function applyAction(context: AppLoadContext, request: Request) {
  const key = context.applications.key;
  if (!key) return refuse(context, { errors: { form: DATA_KEY_MISSING } }, 503);
  const form = await readForm(request);
  if (!isForm(form)) return refuse(context, { errors: { form: form.message } }, form.status);
  const answers = answersFrom("applicant", (name) => form.get(name));
  const listingValue = String(form.get("listing") ?? "");
  const listing = await chosenListing(context, listingValue);
  const errors = checkStep("applicant", answers, today());
  const later = form.get("intent") === "later";
  if (later) {
    // Only the address matters for the link; everything else is kept as typed.
    for (const name of Object.keys(errors)) if (name !== "email") delete errors[name];
    // The link goes to that address: say why nothing was sent (docs/behaviour.md §32).
    if (errors.email) errors.form = APPLY_MESSAGES.emailFirst;
  }
  if (!listing && (await availablePropertyChoices(context.db)).length > 0) {
    errors.listing = APPLY_MESSAGES.pickListing;
  }
  if (later && errors.listing) delete errors.listing;
  if (Object.keys(errors).length > 0) {
    return refuse(context, { errors, values: answers, listing: listingValue });
  }
  const wait = (await context.limit?.("application")) ?? 0;
  if (wait > 0) {
    return refuse(
      context,
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
  let sent = false;
  const { token, applicationId } = await startApplication(
    context.db,
    key,
    { listing, answers, step },
    mail
      ? async (tx, started) => {
          sent = await mailLink(tx, context, mail, {
            applicationId: started.applicationId,
            to: answers.email ?? "",
            token: started.token,
            step,
          });
        }
      : undefined,
  );
  log().info({ event: "application started", applicationId }, "application started");
  return redirect(continueUrl(token, later ? { step, saved: savedFlag(sent) } : { step }), 303);
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
    coApplicant,
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
    saved: !opened.answers.email
      ? null
      : params.get("saved") === "1"
        ? APPLICATION_LABELS.savedLater(opened.answers.email)
        : params.get("saved") === "0"
          ? APPLICATION_LABELS.savedNotSent(opened.answers.email)
          : null,
  } satisfies ApplyView;
}

const MB = 1024 * 1024;
/**
 * A document upload's whole request: one file of 10 MB and the form's few fields
 * (server/body-limits.ts caps the route's multipart bodies at the same figure).
 */
export const UPLOAD_REQUEST_BYTES = DOCUMENT_LIMITS.bytes + MB;

/**
 * The form of a post to the private link, read with a limit counted as it arrives
 * (docs/decisions/0072-request-body-limits.md): an upload's is the document's own, any other
 * form's the small one of every page form.
 */
async function readStepForm(request: Request): Promise<FormData | ApplyRefusal> {
  const type = request.headers.get("content-type") ?? "";
  const form = type.startsWith("multipart/form-data")
    ? await readLimitedForm(
        request,
        UPLOAD_REQUEST_BYTES,
        { status: 400, message: FORM_UNREADABLE },
        { status: 413, message: DOCUMENT_ERRORS.tooBig },
      )
    : await readForm(request);
  if (isForm(form)) return form;
  const tooBigFile = form.status === 413 && type.startsWith("multipart/form-data");
  return {
    errors: tooBigFile ? { file: form.message } : { form: form.message },
    status: form.status,
  };
}

/** Every post to a private link: what was typed is saved first, then the button's action. */
export async function continueAction(context: AppLoadContext, request: Request) {
  const { key, vault } = context.applications;
  if (!key || !vault) return refuse(context, { errors: { form: DATA_KEY_MISSING } }, 503);
  const url = new URL(request.url);
  const token = url.searchParams.get("token") ?? "";
  const opened = await openApplication(context.db, key, token);
  if (!opened) return refuse(context, { errors: { form: APPLY_MESSAGES.gone } }, 404);
  const form = await readStepForm(request);
  if (!(form instanceof FormData)) return refuse(context, { errors: form.errors }, form.status);
  const intent = form.get("intent");
  const position = opened.applicant.position;

  if (intent === "withdraw") {
    const withdrawn = await withdrawApplication(context.db, token);
    if (!withdrawn) return refuse(context, { errors: { form: APPLY_MESSAGES.closed } }, 409);
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
    return refuse(context, { errors: { form: FORM_UNREADABLE } });
  }
  const step = stepValue;
  const at = steps.indexOf(step);

  if (intent === "upload" || intent === "remove") {
    return documentAction(context, opened, token, form, intent);
  }
  // A file chosen on 'Documents' goes with 'Next', 'Back' or 'Save and finish later' too: a
  // renter who never pressed 'Upload' loses nothing (docs/behaviour.md §32).
  const chosen = form.get("file");
  if (step === "documents" && chosen instanceof File && chosen.size > 0) {
    const refused = await uploadChosen(context, opened, token, form);
    if (refused) return refused;
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
    return refuse(context, { errors: { form: APPLY_MESSAGES.emailFirst }, values: merged });
  }
  if (intent === "later") {
    const wait = (await context.limit?.("application")) ?? 0;
    if (wait > 0) {
      return refuse(
        context,
        { errors: { form: tooManyFromNetwork("applications", wait) }, values: merged },
        429,
      );
    }
  }
  const mail = intent === "later" ? await mailOf(context) : null;
  let sent = false;
  const saved = await saveAnswers(
    context.db,
    key,
    token,
    answers,
    next,
    undefined,
    mail
      ? async (tx, s) => {
          sent = await mailLink(tx, context, mail, {
            applicationId: s.applicationId,
            to: s.answers.email ?? "",
            token,
            step,
          });
        }
      : undefined,
  );
  if (!saved) return refuse(context, { errors: { form: APPLY_MESSAGES.closed } }, 409);
  if (refused) return refuse(context, { errors, values: merged });
  if (intent === "later") {
    return redirect(continueUrl(token, { step, saved: savedFlag(sent) }), 303);
  }
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
  if (!key || !vault) return refuse(context, { errors: { form: DATA_KEY_MISSING } }, 503);
  if (intent === "remove") {
    const id = Number(form.get("document"));
    if (Number.isSafeInteger(id)) await removeDocument(context.db, vault, token, id);
    return redirect(continueUrl(token, { step: "documents" }), 303);
  }
  return (
    (await uploadChosen(context, opened, token, form)) ??
    redirect(continueUrl(token, { step: "documents" }), 303)
  );
}

/** Stores the form's chosen file: null when it is kept, else the refusal to answer. */
async function uploadChosen(
  context: AppLoadContext,
  opened: OpenedApplication,
  token: string,
  form: FormData,
) {
  const { key, vault } = context.applications;
  if (!key || !vault) return refuse(context, { errors: { form: DATA_KEY_MISSING } }, 503);
  const kind = form.get("kind");
  const file = form.get("file");
  if (typeof kind !== "string" || !Object.hasOwn(DOCUMENT_KINDS, kind)) {
    return refuse(context, { errors: { kind: APPLY_MESSAGES.chooseKind } });
  }
  if (!(file instanceof File) || file.size === 0) {
    return refuse(context, { errors: { file: APPLY_MESSAGES.chooseFile } });
  }
  try {
    await addDocument(
      context.db,
      key,
      vault,
      token,
      {
        kind: kind as keyof typeof DOCUMENT_KINDS,
        name: file.name,
        bytes: Buffer.from(await file.arrayBuffer()),
      },
      undefined,
      context.env.applications.documentQuotaMb,
    );
  } catch (error) {
    if (error instanceof DocumentRejectedError) {
      return refuse(context, { errors: { file: error.message } }, error.status);
    }
    throw error;
  }
  log().info({ event: "application document", applicationId: opened.applicationId }, "document");
  return null;
}

/** 'Submit application': every step checked again, then the household's part or one adult's. */
async function submit(
  context: AppLoadContext,
  opened: OpenedApplication,
  token: string,
  form: FormData,
) {
  const key = context.applications.key as DataKeys;
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
  if (Object.keys(errors).length > 0) return refuse(context, { errors });
  if (opened.applicant.position > 0) {
    if (!(await completeApplicant(context.db, token))) {
      return refuse(context, { errors: { form: APPLY_MESSAGES.closed } }, 409);
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
      // Each private link is sealed apart from the stored body (docs/decisions/0074).
      const mainLinks = linkCollector();
      const link = (t: string, into = mainLinks) =>
        into.add(new URL(continueUrl(t), context.env.publicUrl).href);
      // The household's addresses are not confirmed: fixed text (the stored listing's address,
      // no typed name) and the caps (docs/behaviour.md §26). Over them the application is still
      // submitted; the refusal is logged.
      const receivedBody = [
        "Hello,",
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
      ].join("\n");
      await enqueueMail(tx, {
        kind: "application-received",
        ref,
        to: [opened.answers.email ?? ""],
        replyTo: mail.officeEmail,
        subject: `Application received${about}`,
        unconfirmed: context.env.mail.unconfirmed,
        sealedLinks: mainLinks.sealed(key, ref),
        body: receivedBody,
      });
      for (const adult of adults) {
        const adultLinks = linkCollector();
        const adultLink = link(adult.token, adultLinks);
        await enqueueMail(tx, {
          kind: "application-adult",
          ref,
          to: [adult.email],
          replyTo: mail.officeEmail,
          subject: `Your part of the rental application${about}`,
          unconfirmed: context.env.mail.unconfirmed,
          sealedLinks: adultLinks.sealed(key, ref),
          body: [
            "Hello,",
            "",
            `Someone applied${about} and named you as an adult who will live with them. Every adult fills in their own part: your details, where you live now, your employment and income, and your documents.`,
            "",
            "If you do not know about this application, ignore this e-mail.",
            "",
            "Your private link (do not share it: it opens your answers):",
            "",
            adultLink,
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
  if (!submitted) return refuse(context, { errors: { form: APPLY_MESSAGES.closed } }, 409);
  log().info(
    { event: "application submitted", applicationId: submitted.applicationId },
    "submitted",
  );
  return redirect(continueUrl(token, { done: "1" }), 303);
}
