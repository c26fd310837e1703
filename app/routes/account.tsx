// /account, 'Your account' (docs/behaviour.md §6, "Staff sign-in"): who is signed in, in which
// role, and 'Sign out everywhere', which ends every session of theirs on every device.
import { Form, redirect, useNavigation } from "react-router";
import { ROLE_LABELS } from "~/features/auth";
import {
  clearedSessionCookie,
  endSessionsOfUser,
  requireStaff,
} from "~/features/auth/index.server";
import { pageMeta } from "~/features/layout";
import { logEvent } from "~/shared/events.server";
import type { Route } from "./+types/account";

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta("Your account", "Your staff sign-in.", matches),
  { name: "robots", content: "noindex" },
];

export function loader({ context }: Route.LoaderArgs) {
  const viewer = requireStaff(context, "account");
  return { email: viewer.user?.email ?? null, name: viewer.user?.name ?? null, role: viewer.role };
}

export async function action({ context }: Route.ActionArgs) {
  const viewer = requireStaff(context, "account");
  if (viewer.user) await endSessionsOfUser(context.db, viewer.user);
  logEvent("signed out everywhere", viewer.user?.email ?? viewer.user?.sub ?? null);
  return redirect("/", { headers: { "Set-Cookie": clearedSessionCookie(context.env.session) } });
}

export default function Account({ loaderData }: Route.ComponentProps) {
  const busy = useNavigation().state !== "idle";
  return (
    <section className="prose">
      <h1>Your account</h1>
      <dl>
        <dt>E-mail</dt>
        <dd>{loaderData.email ?? "—"}</dd>
        <dt>Name</dt>
        <dd>{loaderData.name ?? "—"}</dd>
        <dt>Role</dt>
        <dd>{loaderData.role ? ROLE_LABELS[loaderData.role] : "—"}</dd>
      </dl>
      <h2>Sessions</h2>
      <p>
        Signing out everywhere ends your sign-in on every device and browser, this one included.
      </p>
      <Form method="post">
        <button type="submit" className="btn btn-outline" disabled={busy}>
          Sign out everywhere
        </button>
      </Form>
    </section>
  );
}
