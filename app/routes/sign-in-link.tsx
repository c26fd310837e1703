// /sign-in/link?token=…: the single-use link `npm run admin -- sign-in-link <email>` prints
// (docs/behaviour.md §6, "Staff sign-in"). Opening it signs nobody in: mail scanners and link
// previews open links too. Its 'Sign in' button does, once, within 15 minutes.
import { Form, redirect, useNavigation } from "react-router";
import { z } from "zod";
import { sessionCookie, signInWithLink } from "~/features/auth/index.server";
import { pageMeta } from "~/features/layout";
import { parseForm, refused } from "~/shared/action-result.server";
import { ActionAnswer } from "~/ui";
import type { Route } from "./+types/sign-in-link";

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta("Staff sign-in", "Sign in with a link.", matches),
  { name: "robots", content: "noindex" },
];

export function headers() {
  // The token is in the address: never kept, never sent onwards as a referrer.
  return { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" };
}

export function loader({ request }: Route.LoaderArgs) {
  return { token: new URL(request.url).searchParams.get("token") ?? "" };
}

const ENDED =
  "This sign-in link has been used or has ended. Ask for a new one with npm run admin -- sign-in-link <email>.";

const LinkForm = z.object({ token: z.string() });

export async function action({ context, request }: Route.ActionArgs) {
  const parsed = await parseForm(request, LinkForm, { invalid: ENDED });
  if (!parsed.ok) return refused(context, parsed.status, parsed.message);
  const result = await signInWithLink(context.db, parsed.data.token, context.env.session);
  if (!result.ok) return refused(context, 400, ENDED);
  return redirect("/", {
    headers: { "Set-Cookie": sessionCookie(context.env.session, result.session) },
  });
}

export default function SignInWithLink({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state !== "idle";
  return (
    <section className="prose">
      <h1>Staff sign-in</h1>
      {actionData ? (
        <ActionAnswer answer={actionData} />
      ) : (
        <p>This link signs you in once, within 15 minutes of being made.</p>
      )}
      <Form method="post">
        <input type="hidden" name="token" value={loaderData.token} />
        <button type="submit" className="btn btn-primary" disabled={busy}>
          Sign in
        </button>
      </Form>
    </section>
  );
}
