// 'Ask about this listing' on detail pages and 'Send us a message' on the contact page
// (docs/behaviour.md §27), posted to /inquiries and sent in place (app/ui/public-form.tsx).
// Showing the 'Preferred time' inputs when 'I'd like to see it' is ticked is CSS alone.
import { useId } from "react";
import {
  INQUIRY_LABELS,
  type InquiryField,
  type InquiryValues,
  MAX_PREFERRED_TIMES,
  prefilledMessage,
} from "~/domain/inquiry";
import { FieldError, invalidField, PublicForm, TextField } from "~/ui";

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

export function InquiryForm({ listing, renderedAt, answer }: InquiryFormProps) {
  const id = useId();
  return (
    <PublicForm<InquiryAnswer>
      id={id}
      className="inquiry"
      heading={listing ? INQUIRY_LABELS.heading : INQUIRY_LABELS.contactHeading}
      sent={INQUIRY_LABELS.sent}
      action="/inquiries"
      hidden={listing ? { listing: `${listing.collection}/${listing.id}` } : {}}
      renderedAt={renderedAt}
      submit={INQUIRY_LABELS.send}
      privacy={INQUIRY_LABELS.privacy}
      posted={answer}
    >
      {(refused) => {
        const errors = refused?.errors ?? {};
        const values = refused?.values ?? null;
        return (
          <>
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
          </>
        );
      }}
    </PublicForm>
  );
}
