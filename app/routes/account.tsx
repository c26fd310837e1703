// /account, 'Your account' (docs/behaviour.md §6, "Staff sign-in"): who is signed in, in which
// role, their passkeys ('Add a passkey', each with its name, when it was added and last used,
// and 'Remove'), and 'Sign out everywhere', which ends every session of theirs on every device.
import { Form, redirect, useNavigation } from "react-router";
import { z } from "zod";
import { AddPasskeyButton, ROLE_LABELS } from "~/features/auth";
import {
  actorOf,
  clearedSessionCookie,
  endSessionsOfUser,
  listPasskeys,
  removePasskey,
  requireStaff,
} from "~/features/auth/index.server";
import { ConfirmedForm } from "~/features/dialogs";
import { pageMeta } from "~/features/layout";
import { parseForm, refused, succeeded } from "~/shared/action-result.server";
import { logEvent } from "~/shared/events.server";
import { formatWhen } from "~/shared/format-when";
import { ActionAnswer } from "~/ui";
import type { Route } from "./+types/account";

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta("Your account", "Your staff sign-in.", matches),
  { name: "robots", content: "noindex" },
];

export function headers() {
  return { "Cache-Control": "no-store" };
}

export async function loader({ context }: Route.LoaderArgs) {
  const viewer = requireStaff(context, "account");
  return {
    email: viewer.user?.email ?? null,
    name: viewer.user?.name ?? null,
    role: viewer.role,
    passkeys: viewer.user ? await listPasskeys(context.db, viewer.user) : [],
  };
}

// A form from before passkeys (no intent) meant 'Sign out everywhere'.
const AccountForm = z.preprocess(
  (fields) => ({ intent: "sign-out-everywhere", ...(fields as object) }),
  z.discriminatedUnion("intent", [
    z.object({ intent: z.literal("sign-out-everywhere") }),
    // A credential id is base64url (WebAuthn): anything else names no passkey, and a NUL
    // character would not even reach the database as text.
    z.object({
      intent: z.literal("remove-passkey"),
      id: z.string().regex(/^[\w-]{1,1400}$/),
    }),
  ]),
);

export async function action({ context, request }: Route.ActionArgs) {
  const viewer = requireStaff(context, "account");
  const parsed = await parseForm(request, AccountForm, { invalid: "Nothing to do." });
  if (!parsed.ok) return refused(context, parsed.status, parsed.message);
  if (!viewer.user) return refused(context, 400, "Nothing to do.");
  if (parsed.data.intent === "remove-passkey") {
    const name = await removePasskey(context.db, viewer.user, parsed.data.id);
    // Removed already (another tab, a double click): the list shows it is gone.
    if (name !== null) logEvent("passkey removed", actorOf(viewer), { name });
    return succeeded();
  }
  await endSessionsOfUser(context.db, viewer.user);
  logEvent("signed out everywhere", actorOf(viewer));
  return redirect("/", { headers: { "Set-Cookie": clearedSessionCookie(context.env.session) } });
}

export default function Account({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state !== "idle";
  return (
    <section className="prose">
      <h1>Your account</h1>
      <ActionAnswer answer={actionData} />
      <dl>
        <dt>E-mail</dt>
        <dd>{loaderData.email ?? "—"}</dd>
        <dt>Name</dt>
        <dd>{loaderData.name ?? "—"}</dd>
        <dt>Role</dt>
        <dd>{loaderData.role ? ROLE_LABELS[loaderData.role] : "—"}</dd>
      </dl>
      <h2>Passkeys</h2>
      <p>
        A passkey signs you in with this device's screen lock or a security key, without an e-mailed
        code.
      </p>
      {loaderData.passkeys.length === 0 ? (
        <p>No passkeys yet.</p>
      ) : (
        <table className="table passkeys">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Added</th>
              <th scope="col">Last used</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {loaderData.passkeys.map((passkey) => (
              <tr key={passkey.id}>
                <td>{passkey.name}</td>
                <td>{formatWhen(passkey.createdAt)}</td>
                <td>{passkey.lastUsedAt ? formatWhen(passkey.lastUsedAt) : "Never"}</td>
                <td>
                  <ConfirmedForm>
                    <input type="hidden" name="intent" value="remove-passkey" />
                    <input type="hidden" name="id" value={passkey.id} />
                    <button
                      type="submit"
                      className="btn btn-outline btn-sm"
                      disabled={busy}
                      aria-label={`Remove ${passkey.name}`}
                    >
                      Remove
                    </button>
                  </ConfirmedForm>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <AddPasskeyButton />
      <h2>Sessions</h2>
      <p>
        Signing out everywhere ends your sign-in on every device and browser, this one included.
      </p>
      <Form method="post">
        <input type="hidden" name="intent" value="sign-out-everywhere" />
        <button type="submit" className="btn btn-outline" disabled={busy}>
          Sign out everywhere
        </button>
      </Form>
    </section>
  );
}
