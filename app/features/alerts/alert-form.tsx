// 'Notify me when it's available' (a property that is not available) and 'E-mail me new matches'
// (a list page with filters): one form, posted to /alerts (docs/behaviour.md §31). It works
// without JavaScript; with it the answer replaces the form in place. The server checks
// everything, as for inquiries (app/features/leads/inquiry-form.tsx).
import { useId } from "react";
import { Link, useFetcher } from "react-router";
import { INQUIRY_LABELS } from "~/domain/inquiry";
import { ALERT_LABELS } from "~/domain/listing-alerts";
import { FormError, recordElapsed, SpamGuardFields, SubmitButton, TextField } from "~/ui";

/** What /alerts answered (alert-submit.server.ts's AlertResult). */
export type AlertAnswer =
  | { ok: true }
  | { ok: false; errors: { email?: string; form?: string }; email: string };

export type AlertTarget =
  | { listing: { collection: string; id: string } }
  | { collection: string; search: string };

export interface AlertFormProps {
  target: AlertTarget;
  renderedAt: number;
  answer?: AlertAnswer | null;
}

export function AlertForm({ target, renderedAt, answer: posted }: AlertFormProps) {
  const id = useId();
  const fetcher = useFetcher<AlertAnswer>();
  const answer = fetcher.data ?? posted ?? null;
  const forListing = "listing" in target;
  const heading = forListing ? ALERT_LABELS.listingHeading : ALERT_LABELS.searchHeading;
  if (answer?.ok) {
    return (
      <section className="alert-form" aria-labelledby={`${id}-h`}>
        <h2 id={`${id}-h`}>{heading}</h2>
        <p role="status">{ALERT_LABELS.sent}</p>
      </section>
    );
  }
  const errors = answer && !answer.ok ? answer.errors : {};
  return (
    <section className="alert-form" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{heading}</h2>
      <p>{forListing ? ALERT_LABELS.listingIntro : ALERT_LABELS.searchIntro}</p>
      <fetcher.Form method="post" action="/alerts" noValidate onSubmit={recordElapsed}>
        {forListing ? (
          <input
            type="hidden"
            name="listing"
            value={`${target.listing.collection}/${target.listing.id}`}
          />
        ) : (
          <>
            <input type="hidden" name="collection" value={target.collection} />
            <input type="hidden" name="search" value={target.search} />
          </>
        )}
        <SpamGuardFields id={id} started={renderedAt} />
        <FormError message={errors.form} />
        <TextField
          id={`${id}-email`}
          name="email"
          label={ALERT_LABELS.email}
          type="email"
          autoComplete="email"
          defaultValue={answer && !answer.ok ? answer.email : ""}
          error={errors.email}
        />
        <SubmitButton pending={fetcher.state !== "idle"}>
          {forListing ? ALERT_LABELS.listingButton : ALERT_LABELS.searchButton}
        </SubmitButton>
        <p className="form-hint">
          {/* The same words as the inquiry form's link (docs/behaviour.md §31). */}
          <Link to="/privacy">{INQUIRY_LABELS.privacy}</Link>
        </p>
      </fetcher.Form>
    </section>
  );
}
