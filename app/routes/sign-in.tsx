// /sign-in, 'Staff sign-in' (docs/behaviour.md §6, "Staff sign-in"): an e-mailed 6-digit code
// for staff, 'Sign in with a passkey' (with JavaScript), and the identity provider's 'Login with
// Google'. The code works without JavaScript.
import { Form, redirect, useNavigation } from "react-router";
import { z } from "zod";
import { tooManyFromNetwork } from "~/domain/inquiry";
import { PasskeySignInButton } from "~/features/auth";
import { sendSignInCode, sessionCookie, signInWithCode } from "~/features/auth/index.server";
import { pageMeta, SignInLink } from "~/features/layout";
import { getSiteContent } from "~/features/site-settings/index.server";
import type { ActionResult } from "~/shared/action-result";
import { parseForm, refused, succeeded } from "~/shared/action-result.server";
import { pageFault } from "~/shared/page-fault.server";
import { ActionAnswer, SubmitButton, TextField } from "~/ui";
import type { Route } from "./+types/sign-in";

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta("Staff sign-in", "Sign in to manage the site.", matches),
  { name: "robots", content: "noindex" },
];

export function headers() {
  // A page with a code on its way: never kept, never sent onwards as a referrer.
  return { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" };
}

export function loader({ context }: Route.LoaderArgs) {
  return { signIn: context.viewer.signIn, signedInAs: context.viewer.user?.email ?? null };
}

const email = z.string().trim().min(1, "Enter your e-mail address.").max(254);
const SignInForm = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("send"), email }),
  z.object({ intent: z.literal("verify"), email, code: z.string().max(20) }),
]);

const SENT = (address: string) =>
  `We sent a 6-digit code to ${address} if it belongs to our staff.`;
const WRONG_CODE = "That code is not right, or it has ended. Check it, or ask for a new one.";

/** Which step the page shows after an answer: the address again, or the code for it. */
type Step = { step: "email" } | { step: "code"; email: string; sent: boolean };

export async function action({ context, request }: Route.ActionArgs) {
  const parsed = await parseForm(request, SignInForm);
  if (!parsed.ok) {
    return refused<Step>(context, parsed.status, parsed.message, { step: "email" });
  }
  const input = parsed.data;
  const address = input.email.toLowerCase();
  // Asking for codes and trying them count alike, per client (the feature's contract).
  const wait = (await context.limit?.("sign-in-code")) ?? 0;
  if (wait > 0) {
    const error = tooManyFromNetwork("sign-in attempts", wait);
    return refused<Step>(
      context,
      429,
      error,
      input.intent === "send" ? { step: "email" } : { step: "code", email: address, sent: false },
    );
  }
  try {
    if (input.intent === "send") {
      const company = (await getSiteContent(context.db)).name;
      await sendSignInCode(context.db, address, { company, publicUrl: context.env.publicUrl });
      return succeeded<Step>(undefined, { step: "code", email: address, sent: true });
    }
    const result = await signInWithCode(context.db, address, input.code, context.env.session);
    if (!result.ok) {
      return refused<Step>(context, 400, WRONG_CODE, {
        step: "code",
        email: address,
        sent: false,
      });
    }
    return redirect("/", {
      headers: { "Set-Cookie": sessionCookie(context.env.session, result.session) },
    });
  } catch (error) {
    pageFault(error, { request, context });
  }
}

export default function SignIn({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const answer = actionData as ActionResult<Step, Step> | undefined;
  const codeStep = answer?.step === "code" ? answer : null;
  return (
    <section className="prose sign-in">
      <h1>Staff sign-in</h1>
      {loaderData.signedInAs ? <p>You are signed in as {loaderData.signedInAs}.</p> : null}
      <ActionAnswer answer={answer} />
      {codeStep ? (
        <Form method="post" className="admin-form" key="code">
          {codeStep.sent ? <p role="status">{SENT(codeStep.email)}</p> : null}
          <input type="hidden" name="intent" value="verify" />
          <input type="hidden" name="email" value={codeStep.email} />
          <div>
            <TextField
              id="sign-in-code"
              name="code"
              label="Code"
              inputMode="numeric"
              autoComplete="one-time-code"
              pattern="\s*\d{6}\s*"
              maxLength={20}
              required
              // The one field of this step, just asked for.
              autoFocus
            />
          </div>
          <div className="form-actions">
            <SubmitButton pending={busy}>Sign in</SubmitButton>
          </div>
        </Form>
      ) : null}
      <Form method="post" className="admin-form" key="email">
        <input type="hidden" name="intent" value="send" />
        <div>
          <TextField
            id="sign-in-email"
            name="email"
            label="E-mail"
            type="email"
            autoComplete="username"
            required
            maxLength={254}
            defaultValue={codeStep?.email}
          />
        </div>
        <div className="form-actions">
          <SubmitButton pending={busy} className={codeStep ? "btn btn-outline" : "btn btn-primary"}>
            E-mail me a code
          </SubmitButton>
        </div>
      </Form>
      <PasskeySignInButton />
      {loaderData.signIn.available ? (
        <p className="sign-in-provider">
          <SignInLink providerName={loaderData.signIn.providerName} />
        </p>
      ) : null}
    </section>
  );
}
