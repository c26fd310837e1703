import { data, Form, useNavigation } from "react-router";
import {
  actorOf,
  grantAdmin,
  listAdmins,
  requireStaff,
  revokeAdmin,
} from "~/features/auth/index.server";
import { pageMeta } from "~/features/layout";
import { isValidationError } from "~/shared/http-error.server";
import { pageFault } from "~/shared/page-fault.server";
import { isForm, readForm } from "~/shared/read-form.server";
import type { Route } from "./+types/manage-admins";

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta("Manage admins", "Admin: who may manage listings.", matches),
  { name: "robots", content: "noindex" },
];

export async function loader({ context }: Route.LoaderArgs) {
  requireStaff(context, "staff");
  return { admins: await listAdmins(context.db) };
}

export async function action({ context, request }: Route.ActionArgs) {
  const viewer = requireStaff(context, "staff");
  const form = await readForm(request);
  if (!isForm(form)) return data({ error: form.message }, { status: form.status });
  const email = String(form.get("email") ?? "");
  try {
    if (form.get("intent") === "revoke") {
      const removed = await revokeAdmin(
        context.db,
        email,
        context.env.adminEmails,
        actorOf(viewer),
      );
      if (removed === 0) return data({ error: `${email} is not an admin.` }, { status: 400 });
      return { ok: `${email} is no longer an admin.` };
    }
    const address = email.trim().toLowerCase();
    const added = await grantAdmin(context.db, email, actorOf(viewer) ?? undefined);
    return { ok: added ? `${address} is now an admin.` : `${address} is already an admin.` };
  } catch (error) {
    // Only a refusal of the input (an address that is none, the last admin, one listed in
    // ADMIN_EMAILS) is shown with the form. Anything else is a fault, never shown: the error
    // page answers 500 with the request's id as its reference, and the cause is logged with it
    // (docs/decisions/0058-one-error-model.md).
    if (isValidationError(error)) return data({ error: error.message }, { status: 400 });
    pageFault(error, { request, context });
  }
}

export default function ManageAdmins({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  return (
    <section className="prose">
      <h1>Manage admins</h1>
      <p>
        Admins can add, edit and delete listings. A grant by e-mail takes effect when someone signs
        in with that verified e-mail address.
      </p>
      {actionData && "error" in actionData ? (
        <p role="alert" className="alert-error">
          {actionData.error}
        </p>
      ) : null}
      {actionData && "ok" in actionData ? <p role="status">{actionData.ok}</p> : null}
      <table className="table">
        <thead>
          <tr>
            <th scope="col">E-mail</th>
            <th scope="col">Name</th>
            <th scope="col">Granted</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {loaderData.admins.map((admin) => (
            <tr key={`${admin.email ?? ""}/${admin.uid ?? ""}`}>
              <td>{admin.email ?? "—"}</td>
              <td>{admin.name ?? "—"}</td>
              <td>{new Date(admin.grantedAt).toLocaleDateString("en-US")}</td>
              <td>
                {admin.email ? (
                  <Form method="post">
                    <input type="hidden" name="intent" value="revoke" />
                    <input type="hidden" name="email" value={admin.email} />
                    <button type="submit" className="btn btn-outline btn-sm" disabled={busy}>
                      Revoke
                    </button>
                  </Form>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <Form method="post" className="admin-form">
        <input type="hidden" name="intent" value="grant" />
        <div>
          <label className="form-label" htmlFor="grant-email">
            E-mail address
          </label>
          <input id="grant-email" name="email" type="email" required className="form-control" />
        </div>
        <div className="form-actions">
          <button type="submit" className="btn btn-primary" disabled={busy}>
            Grant admin
          </button>
        </div>
      </Form>
    </section>
  );
}
