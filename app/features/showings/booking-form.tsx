// 'Schedule a showing' (docs/behaviour.md §33): the next free times grouped by day, then the
// renter's details and 'Book showing'. A plain form posted to /showings/book, so it works
// without JavaScript; with it, it is sent in place (on-demand-form.tsx) and the answer replaces
// it. The server checks everything and writes every message shown here.
import { useId } from "react";
import { Link, useFetcher } from "react-router";
import {
  type BookingField,
  type BookingValues,
  type OfferedTime,
  SHOWING_LABELS,
  timesByDay,
} from "~/domain/showing-booking";
import { shortDayLabel, timeLabel } from "~/domain/showing-slots";
import {
  FieldError,
  FormError,
  invalidField,
  recordElapsed,
  SpamGuardFields,
  SubmitButton,
  TextField,
} from "~/ui";

/** What /showings/book answered (book.server.ts's BookingAnswer, without its status). */
export type BookingFormAnswer =
  | { ok: true; message: string }
  | {
      ok: false;
      errors: Partial<Record<BookingField | "form", string>>;
      values: BookingValues;
      slots?: OfferedTime[];
      started?: number;
    };

export interface BookingFormProps {
  listing: { collection: string; id: string; address: string };
  times: OfferedTime[];
  renderedAt: number;
  /** The time chosen on the listing's page. */
  chosen?: string | null;
  answer?: BookingFormAnswer | null;
}

export function BookingForm({
  listing,
  times,
  renderedAt,
  chosen,
  answer: posted,
}: BookingFormProps) {
  const id = useId();
  const fetcher = useFetcher<BookingFormAnswer>();
  const answer = fetcher.data ?? posted ?? null;
  const heading = (
    <h2 id={`${id}-h`} className="h4">
      {SHOWING_LABELS.heading}
    </h2>
  );
  if (answer?.ok) {
    return (
      <section className="showings" aria-labelledby={`${id}-h`}>
        {heading}
        <p role="status" className="inquiry-sent">
          {answer.message}
        </p>
      </section>
    );
  }
  const errors = answer && !answer.ok ? answer.errors : {};
  const values = answer && !answer.ok ? answer.values : null;
  // After a time was taken, the times as they are now.
  const shown = (answer && !answer.ok ? answer.slots : undefined) ?? times;
  const days = timesByDay(shown);
  const field = (
    name: Exclude<BookingField, "start">,
    label: string,
    input: { type?: string; autoComplete?: string; min?: number; max?: number },
  ) => (
    <TextField
      id={`${id}-${name}`}
      name={name}
      label={label}
      defaultValue={values?.[name] ?? ""}
      error={errors[name]}
      {...input}
    />
  );
  return (
    <section className="showings" aria-labelledby={`${id}-h`}>
      {heading}
      {days.length === 0 ? (
        <p>{SHOWING_LABELS.noTimes}</p>
      ) : (
        <fetcher.Form method="post" action="/showings/book" noValidate onSubmit={recordElapsed}>
          <input type="hidden" name="listing" value={`${listing.collection}/${listing.id}`} />
          <SpamGuardFields
            id={id}
            started={(answer && !answer.ok ? answer.started : undefined) ?? renderedAt}
          />
          <FormError message={errors.form} />
          <FieldError id={`${id}-start-error`} message={errors.start} />
          {days.map(([date, slots]) => (
            <fieldset
              key={date}
              className="showing-day"
              {...invalidField(`${id}-start-error`, errors.start)}
            >
              <legend>{shortDayLabel(date)}</legend>
              {slots.map((slot) => (
                <label key={slot.start} className="showing-time">
                  <input
                    type="radio"
                    name="start"
                    value={slot.start}
                    defaultChecked={(values?.start ?? chosen) === slot.start}
                  />{" "}
                  {timeLabel(slot.time)}
                </label>
              ))}
            </fieldset>
          ))}
          {field("name", SHOWING_LABELS.name, { autoComplete: "name" })}
          {field("email", SHOWING_LABELS.email, { type: "email", autoComplete: "email" })}
          {field("phone", SHOWING_LABELS.phone, { type: "tel", autoComplete: "tel" })}
          {field("moveIn", SHOWING_LABELS.moveIn, { type: "date" })}
          {field("people", SHOWING_LABELS.people, { type: "number", min: 1, max: 20 })}
          <SubmitButton pending={fetcher.state !== "idle"}>{SHOWING_LABELS.book}</SubmitButton>
          <p className="form-hint">
            <Link to="/privacy">How we use your details</Link>
          </p>
        </fetcher.Form>
      )}
    </section>
  );
}
