// /admin/showings/hours, 'Showing hours' (docs/behaviour.md §33): when renters may book
// showings themselves, for the whole company. Staff who manage listings change them.
import { Form, Link, useNavigation } from "react-router";
import { WEEKDAYS } from "~/domain/showing-slots";
import { actorOf, requireStaff } from "~/features/auth/index.server";
import { pageMeta } from "~/features/layout";
import {
  checkHoursForm,
  getShowingHours,
  type HoursField,
  hoursValues,
  saveShowingHours,
} from "~/features/showings/index.server";
import { refused, succeeded } from "~/shared/action-result.server";
import { isForm, readForm } from "~/shared/read-form.server";
import { FieldError, FormError, invalidField, SubmitButton, TextField } from "~/ui";
import type { Route } from "./+types/admin-showing-hours";

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta("Showing hours", "Admin: when renters may book showings.", matches),
  { name: "robots", content: "noindex" },
];

export async function loader({ context }: Route.LoaderArgs) {
  requireStaff(context, "listings:write");
  return { values: hoursValues(await getShowingHours(context.db)) };
}

export async function action({ context, request }: Route.ActionArgs) {
  const viewer = requireStaff(context, "listings:write");
  const form = await readForm(request);
  if (!isForm(form)) return refused(context, form.status, form.message, { values: null });
  const checked = checkHoursForm(form);
  if (!checked.ok) return refused(context, 400, checked.errors, { values: checked.values });
  await saveShowingHours(context.db, checked.hours, actorOf(viewer));
  return succeeded("Showing hours saved.");
}

const SETTINGS: { name: HoursField; label: string; hint?: string; type?: string }[] = [
  { name: "minimumNoticeHours", label: "Minimum notice", hint: "Hours.", type: "number" },
  { name: "bookUpToDays", label: "Book up to", hint: "Days ahead.", type: "number" },
  {
    name: "bufferMinutes",
    label: "Buffer between showings",
    hint: "Minutes.",
    type: "number",
  },
  { name: "visitorsPerSlot", label: "Visitors per slot", type: "number" },
  {
    name: "closedDates",
    label: "Closed dates",
    hint: "YYYY-MM-DD, separated by commas.",
  },
  { name: "timeZone", label: "Time zone", hint: "Such as America/New_York." },
  {
    name: "reminderHours",
    label: "Reminders",
    hint: "Hours before, separated by commas.",
  },
  {
    name: "cancelIfNotConfirmedHours",
    label: "Cancel if not confirmed",
    hint: "Hours before; empty: off.",
    type: "number",
  },
];

export default function ShowingHours({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state !== "idle";
  const errors: Partial<Record<HoursField | "form", string>> =
    actionData && !actionData.ok ? actionData.errors : {};
  const values = (actionData && !actionData.ok ? actionData.values : null) ?? loaderData.values;
  const field = (name: HoursField) => ({
    id: `hours-${name}`,
    name,
    className: "form-control",
    defaultValue: values[name],
    ...invalidField(`hours-${name}-error`, errors[name]),
  });
  return (
    <section className="prose">
      <h1>Showing hours</h1>
      <p>
        <Link to="/admin/showings">Showings</Link>
      </p>
      {actionData?.ok ? <p role="status">{actionData.message}</p> : null}
      <Form method="post" noValidate key={JSON.stringify(values)}>
        <FormError message={errors.form} />
        <table className="table showing-hours">
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">From</th>
              <th scope="col">To</th>
            </tr>
          </thead>
          <tbody>
            {WEEKDAYS.map((day) => (
              <tr key={day}>
                <th scope="row">{day}</th>
                {(["from", "to"] as const).map((end) => {
                  const name = `${end}-${day}` as HoursField;
                  return (
                    <td key={end}>
                      <input
                        type="time"
                        aria-label={`${day} ${end === "from" ? "From" : "To"}`}
                        {...field(name)}
                      />
                      <FieldError id={`hours-${name}-error`} message={errors[name]} />
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
        <label className="form-label" htmlFor="hours-slotMinutes">
          Slot length
        </label>
        <select {...field("slotMinutes")} className="form-select">
          {[15, 30, 45, 60].map((m) => (
            <option key={m} value={m}>
              {m} minutes
            </option>
          ))}
        </select>
        <FieldError id="hours-slotMinutes-error" message={errors.slotMinutes} />
        {SETTINGS.map((s) => (
          <div key={s.name}>
            <TextField
              id={`hours-${s.name}`}
              name={s.name}
              label={s.label}
              type={s.type ?? "text"}
              hint={s.hint}
              defaultValue={values[s.name]}
              error={errors[s.name]}
            />
          </div>
        ))}
        <SubmitButton pending={busy}>Save</SubmitButton>
      </Form>
    </section>
  );
}
