// 'Sign in with a passkey' (/sign-in) and 'Add a passkey' (/account): the browser's side of the
// two ceremonies of passkeys.server.ts, over the JSON routes of auth-router.server.ts. The
// WebAuthn helper library loads only when the button is pressed, so neither page's first
// JavaScript grows by it (docs/decisions/0084-passkeys.md). Both need JavaScript: without it
// they are not shown.
import { useState } from "react";
import { useRevalidator } from "react-router";
import { useHydrated } from "~/shared/use-hydrated";

export const PASSKEY_CLIENT_MESSAGES = {
  unsupported: "This browser cannot use passkeys. E-mail yourself a code instead.",
  cancelled: "No passkey was chosen. Try again when you are ready.",
  alreadyAdded: "This device already holds a passkey of yours for this site.",
  failed: "Something went wrong. Try again.",
} as const;

async function postJson(path: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
    credentials: "same-origin",
  });
  const answer = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (!response.ok) {
    throw new Error(
      typeof answer.error === "string" ? answer.error : PASSKEY_CLIENT_MESSAGES.failed,
    );
  }
  return answer;
}

/** What went wrong, in words: the browser's prompt closed, or the server's refusal. */
function messageOf(error: unknown): string {
  const name = (error as { name?: string } | null)?.name;
  // The person closed the prompt, or it timed out (WebAuthn says which no further).
  if (name === "NotAllowedError" || name === "AbortError") return PASSKEY_CLIENT_MESSAGES.cancelled;
  if (name === "InvalidStateError") return PASSKEY_CLIENT_MESSAGES.alreadyAdded;
  if (name === "NotSupportedError") return PASSKEY_CLIENT_MESSAGES.unsupported;
  // The server's own refusals (postJson) are plain errors with its words.
  return error instanceof Error && name === "Error"
    ? error.message
    : PASSKEY_CLIENT_MESSAGES.failed;
}

function usePasskeyAction(run: () => Promise<void>) {
  const [state, setState] = useState<{ busy: boolean; error: string | null; done: boolean }>({
    busy: false,
    error: null,
    done: false,
  });
  const start = async () => {
    setState({ busy: true, error: null, done: false });
    try {
      await run();
      setState({ busy: false, error: null, done: true });
    } catch (error) {
      setState({ busy: false, error: messageOf(error), done: false });
    }
  };
  return { ...state, start };
}

function ErrorLine({ error }: { error: string | null }) {
  return error ? (
    <p role="alert" className="alert-error">
      {error}
    </p>
  ) : null;
}

/** 'Sign in with a passkey': any of this site's passkeys; then the home page, signed in. */
export function PasskeySignInButton() {
  const hydrated = useHydrated();
  const action = usePasskeyAction(async () => {
    const webauthn = await import("@simplewebauthn/browser");
    if (!webauthn.browserSupportsWebAuthn()) throw new Error(PASSKEY_CLIENT_MESSAGES.unsupported);
    const optionsJSON = await postJson("/auth/passkey/sign-in/options", {});
    const credential = await webauthn.startAuthentication({ optionsJSON: optionsJSON as never });
    await postJson("/auth/passkey/sign-in", { credential });
    // A whole new page: every part of the site learns who is signed in now.
    window.location.assign("/");
  });
  if (!hydrated) return null;
  return (
    <div className="sign-in-passkey">
      <button
        type="button"
        className="btn btn-outline"
        onClick={action.start}
        disabled={action.busy || action.done}
      >
        Sign in with a passkey
      </button>
      <ErrorLine error={action.error} />
    </div>
  );
}

/** 'Add a passkey' for the signed-in staff member; the list reloads with it. */
export function AddPasskeyButton() {
  const hydrated = useHydrated();
  const revalidator = useRevalidator();
  const action = usePasskeyAction(async () => {
    const webauthn = await import("@simplewebauthn/browser");
    if (!webauthn.browserSupportsWebAuthn()) throw new Error(PASSKEY_CLIENT_MESSAGES.unsupported);
    const optionsJSON = await postJson("/auth/passkey/add/options", {});
    const credential = await webauthn.startRegistration({ optionsJSON: optionsJSON as never });
    await postJson("/auth/passkey/add", { credential });
    await revalidator.revalidate();
  });
  return (
    <div className="form-actions">
      <button
        type="button"
        className="btn btn-primary"
        onClick={action.start}
        disabled={!hydrated || action.busy}
      >
        Add a passkey
      </button>
      {action.done ? <p role="status">Passkey added.</p> : null}
      <ErrorLine error={action.error} />
    </div>
  );
}
