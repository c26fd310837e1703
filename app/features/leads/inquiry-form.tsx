// 'Ask about this listing' on detail pages and 'Send us a message' on the contact page
// (docs/behaviour.md §27). A plain form posted to /inquiries, so it works without JavaScript;
// with it, it is sent in place and the answer replaces the form. The server checks everything
// and writes every message shown here; the browser's own validation is off (noValidate).
// Showing the 'Preferred time' inputs when 'I'd like to see it' is ticked is CSS alone.
import { useId } from "react";
import { Link, useFetcher } from "react-router";
import {
  INQUIRY_LABELS,
  type InquiryField,
  type InquiryValues,
  MAX_PREFERRED_TIMES,
  prefilledMessage,
} from "~/domain/inquiry";
import {
  FieldError,
  FormError,
  invalidField,
  recordElapsed,
  SpamGuardFields,
} from "~/features/listings";

/** What /inquiries answered (app/features/leads/submit.server.ts's InquiryResult). */
export type InquiryAnswer =
  | { ok: true }
  | {
      ok: false;
      errors: Partial<Record<InquiryField | "form", string>>;
      values: InquiryValues;
      /** The refused form's own start, kept when it is sent again. */
      started?: number;
    };

export interface InquiryFormProps {
  /** The listing asked about; none on the contact page. */
  listing?: { collection: string; id: string; address: string } | null;
  /** The page's render time (ms), for the time check when the page's script does not run. */
  renderedAt: number;
  /** What the server answered a form posted without JavaScript. */
  answer?: InquiryAnswer | null;
}

export function InquiryForm({ listing, renderedAt, answer: posted }: InquiryFormProps) {
  const id = useId();
  const fetcher = useFetcher<InquiryAnswer>();
  const answer = fetcher.data ?? posted ?? null;
  const heading = listing ? INQUIRY_LABELS.heading : INQUIRY_LABELS.contactHeading;
  if (answer?.ok) {
    return (
      <section className="inquiry" aria-labelledby={`${id}-h`}>
        <h2 id={`${id}-h`}>{heading}</h2>
        <p role="status" className="inquiry-sent">
          {INQUIRY_LABELS.sent}
        </p>
      </section>
    );
  }
  const errors = answer && !answer.ok ? answer.errors : {};
  const values = answer && !answer.ok ? answer.values : null;
  const invalid = (field: InquiryField) => invalidField(`${id}-${field}-error`, errors[field]);
  const error = (field: InquiryField) => (
    <FieldError id={`${id}-${field}-error`} message={errors[field]} />
  );
  const busy = fetcher.state !== "idle";
  return (
    <section className="inquiry" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{heading}</h2>
      <fetcher.Form method="post" action="/inquiries" noValidate onSubmit={recordElapsed}>
        {listing ? (
          <input type="hidden" name="listing" value={`${listing.collection}/${listing.id}`} />
        ) : null}
        <SpamGuardFields
          id={id}
          started={(answer && !answer.ok ? answer.started : undefined) ?? renderedAt}
        />
        <FormError message={errors.form} />
        <label className="form-label" htmlFor={`${id}-name`}>
          {INQUIRY_LABELS.name}
        </label>
        <input
          id={`${id}-name`}
          className="form-control"
          name="name"
          autoComplete="name"
          defaultValue={values?.name ?? ""}
          {...invalid("name")}
        />
        {error("name")}
        <label className="form-label" htmlFor={`${id}-email`}>
          {INQUIRY_LABELS.email}
        </label>
        <input
          id={`${id}-email`}
          className="form-control"
          name="email"
          type="email"
          autoComplete="email"
          defaultValue={values?.email ?? ""}
          {...invalid("email")}
        />
        {error("email")}
        <label className="form-label" htmlFor={`${id}-phone`}>
          {INQUIRY_LABELS.phone}
        </label>
        <input
          id={`${id}-phone`}
          className="form-control"
          name="phone"
          type="tel"
          autoComplete="tel"
          defaultValue={values?.phone ?? ""}
          {...invalid("phone")}
        />
        {error("phone")}
        <label className="form-label" htmlFor={`${id}-message`}>
          {INQUIRY_LABELS.message}
        </label>
        <textarea
          id={`${id}-message`}
          className="form-control"
          name="message"
          rows={4}
          defaultValue={values?.message ?? (listing ? prefilledMessage(listing.address) : "")}
          {...invalid("message")}
        />
        {error("message")}
        {listing ? (
          <>
            <div className="form-check inquiry-showing">
              <input
                id={`${id}-showing`}
                type="checkbox"
                name="showing"
                defaultChecked={values?.showing ?? false}
              />
              <label htmlFor={`${id}-showing`}>{INQUIRY_LABELS.showing}</label>
            </div>
            <div className="preferred-times">
              {Array.from({ length: MAX_PREFERRED_TIMES }, (_, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: a fixed set of inputs
                <div key={i}>
                  <label className="form-label" htmlFor={`${id}-time-${i}`}>
                    {INQUIRY_LABELS.time}
                  </label>
                  <input
                    id={`${id}-time-${i}`}
                    className="form-control"
                    type="datetime-local"
                    name="time"
                    defaultValue={values?.times[i] ?? ""}
                    {...invalid("times")}
                  />
                </div>
              ))}
              {error("times")}
            </div>
          </>
        ) : null}
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {INQUIRY_LABELS.send}
        </button>
        <p className="form-hint">
          <Link to="/privacy">{INQUIRY_LABELS.privacy}</Link>
        </p>
      </fetcher.Form>
    </section>
  );
}
