// 'Notify me when it's available' (a property that is not available) and 'E-mail me new matches'
// (a list page with filters): one form, posted to /alerts (docs/behaviour.md §31), made as the
// inquiry form is (app/ui/public-form.tsx). The server checks everything, as for inquiries.
import { useId } from "react";
import { INQUIRY_LABELS } from "~/domain/inquiry";
import { ALERT_LABELS } from "~/domain/listing-alerts";
import { PublicForm, TextField } from "~/ui";

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

export function AlertForm({ target, renderedAt, answer }: AlertFormProps) {
  const id = useId();
  const forListing = "listing" in target;
  return (
    <PublicForm<AlertAnswer>
      id={id}
      className="alert-form"
      heading={forListing ? ALERT_LABELS.listingHeading : ALERT_LABELS.searchHeading}
      intro={<p>{forListing ? ALERT_LABELS.listingIntro : ALERT_LABELS.searchIntro}</p>}
      sent={ALERT_LABELS.sent}
      action="/alerts"
      hidden={
        forListing
          ? { listing: `${target.listing.collection}/${target.listing.id}` }
          : { collection: target.collection, search: target.search }
      }
      renderedAt={renderedAt}
      submit={forListing ? ALERT_LABELS.listingButton : ALERT_LABELS.searchButton}
      // The same words as the inquiry form's link (docs/behaviour.md §31).
      privacy={INQUIRY_LABELS.privacy}
      posted={answer}
    >
      {(refused) => (
        <TextField
          id={`${id}-email`}
          name="email"
          label={ALERT_LABELS.email}
          type="email"
          autoComplete="email"
          defaultValue={refused?.email ?? ""}
          error={refused?.errors.email}
        />
      )}
    </PublicForm>
  );
}
