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
  SubmitButton,
  TextField,
} from "~/ui";

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
        <TextField
          id={`${id}-name`}
          name="name"
          label={INQUIRY_LABELS.name}
          autoComplete="name"
          defaultValue={values?.name ?? ""}
          error={errors.name}
        />
        <TextField
          id={`${id}-email`}
          name="email"
          label={INQUIRY_LABELS.email}
          type="email"
          autoComplete="email"
          defaultValue={values?.email ?? ""}
          error={errors.email}
        />
        <TextField
          id={`${id}-phone`}
          name="phone"
          label={INQUIRY_LABELS.phone}
          type="tel"
          autoComplete="tel"
          defaultValue={values?.phone ?? ""}
          error={errors.phone}
        />
        <TextField
          id={`${id}-message`}
          name="message"
          label={INQUIRY_LABELS.message}
          rows={4}
          defaultValue={values?.message ?? (listing ? prefilledMessage(listing.address) : "")}
          error={errors.message}
        />
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
                    {...invalidField(`${id}-times-error`, errors.times)}
                  />
                </div>
              ))}
              <FieldError id={`${id}-times-error`} message={errors.times} />
            </div>
          </>
        ) : null}
        <SubmitButton pending={busy}>{INQUIRY_LABELS.send}</SubmitButton>
        <p className="form-hint">
          <Link to="/privacy">{INQUIRY_LABELS.privacy}</Link>
        </p>
      </fetcher.Form>
    </section>
  );
}
