// /admin/staff, 'Staff' (docs/behaviour.md §6, "Staff roles"): every person with their role and
// when they last signed in; 'Add staff'; a role per person with 'Save'; 'Remove' after 'Are you
// sure?'. The Owner's page; the last Owner is neither removed nor demoted.
import { Form, Link, useNavigation } from "react-router";
import { z } from "zod";
import { ROLE_LABELS, ROLES } from "~/features/auth";
import {
  actorOf,
  addStaff,
  listAdmins,
  requireStaff,
  revokeAdmin,
  setStaffRole,
} from "~/features/auth/index.server";
import { ConfirmedForm } from "~/features/dialogs";
import { pageMeta } from "~/features/layout";
import { getSiteContent } from "~/features/site-settings/index.server";
import { parseForm, refused, succeeded } from "~/shared/action-result.server";
import { isValidationError } from "~/shared/http-error.server";
import { pageFault } from "~/shared/page-fault.server";
import { ActionAnswer, SubmitButton, TextField } from "~/ui";
import type { Route } from "./+types/admin-staff";

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta("Staff", "Admin: who is staff, and in which role.", matches),
  { name: "robots", content: "noindex" },
];

export async function loader({ context }: Route.LoaderArgs) {
  requireStaff(context, "staff");
  return { staff: await listAdmins(context.db) };
}

const role = z.enum(ROLES, { error: "Choose one of the roles." });
const email = z.string().trim().min(1, "Enter an e-mail address.").max(254);
const StaffForm = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("add"), email, role }),
  z.object({ intent: z.literal("role"), email, role }),
  z.object({ intent: z.literal("remove"), email }),
]);

export async function action({ context, request }: Route.ActionArgs) {
  const viewer = requireStaff(context, "staff");
  const parsed = await parseForm(request, StaffForm);
  if (!parsed.ok) return refused(context, parsed.status, parsed.message);
  const input = parsed.data;
  const by = actorOf(viewer);
  const address = input.email.toLowerCase();
  try {
    if (input.intent === "add") {
      const added = await addStaff(context.db, {
        email: address,
        role: input.role,
        by,
        company: (await getSiteContent(context.db)).name,
        publicUrl: context.env.publicUrl,
        caps: context.env.mail.unconfirmed,
      });
      return added
        ? succeeded(`${address} is now staff, as ${ROLE_LABELS[input.role]}.`)
        : refused(context, 400, `${address} is already staff.`);
    }
    if (input.intent === "role") {
      const changed = await setStaffRole(context.db, address, input.role, by);
      if (changed === 0) return refused(context, 400, `${address} is not staff.`);
      return succeeded(`${address} is now ${ROLE_LABELS[input.role]}.`);
    }
    const removed = await revokeAdmin(context.db, address, context.env.adminEmails, by);
    if (removed === 0) return refused(context, 400, `${address} is not staff.`);
    return succeeded(`${address} is no longer staff.`);
  } catch (error) {
    // Only a refusal of the input (an address that is none, the last Owner, one listed in
    // ADMIN_EMAILS) is shown with the form; anything else is a fault with its reference
    // (docs/decisions/0058-one-error-model.md).
    if (isValidationError(error)) return refused(context, 400, error.message);
    pageFault(error, { request, context });
  }
}

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString("en-US") : "Never");

export default function Staff({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  return (
    <section className="prose">
      <h1>Staff</h1>
      <p>
        Each person's role decides what they may see and do. Someone added by e-mail gets their role
        when they sign in with that verified address. A Leasing agent may be limited to some
        listings on <Link to="/admin/leasing-agents">Leasing agents</Link>.
      </p>
      <ActionAnswer answer={actionData} />
      <table className="table">
        <thead>
          <tr>
            <th scope="col">E-mail</th>
            <th scope="col">Name</th>
            <th scope="col">Role</th>
            <th scope="col">Last signed in</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {loaderData.staff.map((person) => (
            <tr key={`${person.email ?? ""}/${person.uid ?? ""}`} data-testid="staff-row">
              <td>{person.email ?? "—"}</td>
              <td>{person.name ?? "—"}</td>
              <td>
                {person.email ? (
                  <Form method="post" className="inline-form">
                    <input type="hidden" name="intent" value="role" />
                    <input type="hidden" name="email" value={person.email} />
                    <RoleSelect
                      id={`role-${person.email}`}
                      label={`Role of ${person.email}`}
                      value={person.role}
                    />{" "}
                    <button type="submit" className="btn btn-secondary btn-sm" disabled={busy}>
                      Save
                    </button>
                  </Form>
                ) : (
                  ROLE_LABELS[person.role]
                )}
              </td>
              <td>{when(person.lastSignedInAt)}</td>
              <td>{person.email ? <RemoveButton email={person.email} busy={busy} /> : null}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h2>Add staff</h2>
      <Form method="post" className="admin-form">
        <input type="hidden" name="intent" value="add" />
        <div>
          <TextField id="staff-email" name="email" label="E-mail" type="email" required />
        </div>
        <div>
          <label className="form-label" htmlFor="staff-role">
            Role
          </label>
          <RoleSelect id="staff-role" value="leasing-agent" />
        </div>
        <div className="form-actions">
          <SubmitButton pending={busy}>Add</SubmitButton>
        </div>
      </Form>
    </section>
  );
}

function RoleSelect({ id, label, value }: { id: string; label?: string; value: string }) {
  return (
    <select
      id={id}
      name="role"
      className="form-select"
      defaultValue={value}
      aria-label={label}
      key={value}
    >
      {ROLES.map((r) => (
        <option key={r} value={r}>
          {ROLE_LABELS[r]}
        </option>
      ))}
    </select>
  );
}

/** 'Remove', after the spec's 'Are you sure?'. */
function RemoveButton({ email, busy }: { email: string; busy: boolean }) {
  return (
    <ConfirmedForm>
      <input type="hidden" name="intent" value="remove" />
      <input type="hidden" name="email" value={email} />
      <button
        type="submit"
        className="btn btn-outline btn-sm"
        disabled={busy}
        aria-label={`Remove ${email}`}
      >
        Remove
      </button>
    </ConfirmedForm>
  );
}
