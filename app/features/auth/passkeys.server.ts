// Passkeys (docs/behaviour.md §6, "Staff sign-in"; docs/decisions/0084-passkeys.md): WebAuthn
// with @simplewebauthn/server. A staff member adds one on 'Your account' while signed in; it
// then signs them in as that same user on /sign-in ('Sign in with a passkey'): discoverable
// credentials, user verification required. Each ceremony's challenge is stored, taken once.
import { randomBytes } from "node:crypto";
import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from "@simplewebauthn/server";
import { z } from "zod";
import type { Db, Queryable } from "~/shared/db.server";
import { logEvent } from "~/shared/events.server";
import {
  createSession,
  IS_STAFF_USER,
  type NewSession,
  type SessionConfig,
} from "./sessions.server";
import type { SessionUser } from "./viewer";

/** A ceremony's challenge is good for this long (the browser's own prompt times out at 60 s). */
export const CHALLENGE_TTL_MS = 5 * 60_000;
/** Passkeys one person may hold: enough for every device, few enough to list. */
export const PASSKEYS_PER_PERSON = 20;
export const PASSKEY_NAME_MAX = 100;

export const PASSKEY_MESSAGES = {
  refused: "That passkey did not sign you in. Try again, or e-mail yourself a code.",
  notAdded: "The passkey was not added. Try again.",
  tooMany: `You have ${PASSKEYS_PER_PERSON} passkeys already. Remove one you no longer use first.`,
  expired: "That took too long. Try again.",
} as const;

/** Who the passkeys are for: the site's own address (PUBLIC_URL), never a request's Host. */
export interface RelyingParty {
  /** The WebAuthn RP ID: PUBLIC_URL's host name. */
  id: string;
  origin: string;
  /** Shown by the browser's prompt: the company's name. */
  name: string;
}

export function relyingParty(publicUrl: string, name: string): RelyingParty {
  const url = new URL(publicUrl);
  return { id: url.hostname, origin: url.origin, name };
}

export interface Passkey {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

type UserKey = Pick<SessionUser, "issuer" | "sub">;

export async function listPasskeys(db: Queryable, user: UserKey): Promise<Passkey[]> {
  return db.query<Passkey>(
    `SELECT id, name, created_at AS "createdAt", last_used_at AS "lastUsedAt"
     FROM staff_passkeys WHERE user_issuer = $1 AND user_sub = $2 ORDER BY created_at, id`,
    [user.issuer, user.sub],
  );
}

/** 'Remove': only the owner's own passkey. Returns its name, or null when there is none. */
export async function removePasskey(
  db: Queryable,
  user: UserKey,
  id: string,
): Promise<string | null> {
  const [row] = await db.query<{ name: string }>(
    `DELETE FROM staff_passkeys WHERE id = $1 AND user_issuer = $2 AND user_sub = $3
     RETURNING name`,
    [id, user.issuer, user.sub],
  );
  return row?.name ?? null;
}

interface Ceremony {
  purpose: "add" | "sign-in";
  /** Who is adding a passkey, with the handle their browser is given; null for a sign-in. */
  user: (UserKey & { handle: string }) | null;
}

async function saveChallenge(tx: Queryable, challenge: string, ceremony: Ceremony, now: Date) {
  // Ceremonies that were never finished go at the next one.
  await tx.query("DELETE FROM passkey_challenges WHERE expires_at <= $1", [now]);
  const { user } = ceremony;
  await tx.query(
    `INSERT INTO passkey_challenges (challenge, purpose, user_issuer, user_sub, user_handle,
       expires_at)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [
      challenge,
      ceremony.purpose,
      user?.issuer ?? null,
      user?.sub ?? null,
      user?.handle ?? null,
      new Date(now.getTime() + CHALLENGE_TTL_MS),
    ],
  );
}

/** A browser's answer, as much as this code reads before the library checks the rest. */
const CredentialJson = z
  .object({
    // base64url, as WebAuthn gives them (a NUL would not even reach the database as text)
    id: z.string().regex(/^[\w-]{1,1400}$/),
    rawId: z.string().regex(/^[\w-]{1,1400}$/),
    type: z.literal("public-key"),
    response: z.object({ clientDataJSON: z.string().min(1).max(8192) }).passthrough(),
  })
  .passthrough();

/** The challenge the browser signed, read from its client data (checked again by the library). */
function challengeOf(credential: z.infer<typeof CredentialJson>): string | null {
  try {
    const data = JSON.parse(
      Buffer.from(credential.response.clientDataJSON, "base64url").toString("utf8"),
    );
    return typeof data?.challenge === "string" && data.challenge.length <= 256
      ? data.challenge
      : null;
  } catch {
    return null;
  }
}

/** Takes a stored challenge once: its ceremony, or null when unknown, used or ended. */
async function takeChallenge(
  tx: Queryable,
  challenge: string,
  purpose: Ceremony["purpose"],
  now: Date,
): Promise<Ceremony | null> {
  const [row] = await tx.query<{
    user_issuer: string | null;
    user_sub: string | null;
    user_handle: string | null;
  }>(
    `DELETE FROM passkey_challenges WHERE challenge = $1 AND purpose = $2 AND expires_at > $3
     RETURNING user_issuer, user_sub, user_handle`,
    [challenge, purpose, now],
  );
  if (!row) return null;
  const { user_issuer: issuer, user_sub: sub, user_handle: handle } = row;
  return {
    purpose,
    user: issuer !== null && sub !== null && handle !== null ? { issuer, sub, handle } : null,
  };
}

/** 'Add a passkey', step one: what the browser's `navigator.credentials.create` is given. */
export async function startAddingPasskey(
  db: Db,
  user: SessionUser,
  rp: RelyingParty,
  now: Date = new Date(),
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  return db.transaction(async (tx) => {
    const existing = await tx.query<{ id: string; user_handle: string; transports: string[] }>(
      `SELECT id, user_handle, transports FROM staff_passkeys
       WHERE user_issuer = $1 AND user_sub = $2`,
      [user.issuer, user.sub],
    );
    // One handle per person: a second passkey on the same device replaces the first there.
    const handle = existing[0]?.user_handle ?? randomBytes(32).toString("base64url");
    const options = await generateRegistrationOptions({
      rpName: rp.name,
      rpID: rp.id,
      userName: user.email ?? user.sub,
      userDisplayName: user.name ?? user.email ?? "",
      userID: Buffer.from(handle, "base64url"),
      attestationType: "none",
      excludeCredentials: existing.map((p) => ({ id: p.id, transports: p.transports })),
      authenticatorSelection: { residentKey: "required", userVerification: "required" },
    });
    await saveChallenge(
      tx,
      options.challenge,
      { purpose: "add", user: { issuer: user.issuer, sub: user.sub, handle } },
      now,
    );
    return options;
  });
}

export type PasskeyResult = { ok: true } | { ok: false; error: string };

/** 'Add a passkey', step two: the browser's answer checked and the public key kept. */
export async function finishAddingPasskey(
  db: Db,
  user: SessionUser,
  rp: RelyingParty,
  answer: unknown,
  name: string,
  now: Date = new Date(),
): Promise<PasskeyResult> {
  const parsed = CredentialJson.safeParse(answer);
  const challenge = parsed.success ? challengeOf(parsed.data) : null;
  if (!parsed.success || !challenge) return { ok: false, error: PASSKEY_MESSAGES.notAdded };
  const result = await db.transaction(async (tx): Promise<PasskeyResult> => {
    const ceremony = await takeChallenge(tx, challenge, "add", now);
    if (!ceremony) return { ok: false, error: PASSKEY_MESSAGES.expired };
    const owner = ceremony.user;
    if (!owner || owner.issuer !== user.issuer || owner.sub !== user.sub) {
      return { ok: false, error: PASSKEY_MESSAGES.notAdded };
    }
    const [held] = await tx.query<{ count: number }>(
      "SELECT count(*)::int AS count FROM staff_passkeys WHERE user_issuer = $1 AND user_sub = $2",
      [user.issuer, user.sub],
    );
    if ((held?.count ?? 0) >= PASSKEYS_PER_PERSON) {
      return { ok: false, error: PASSKEY_MESSAGES.tooMany };
    }
    let info: Awaited<ReturnType<typeof verifyRegistrationResponse>>["registrationInfo"];
    try {
      const verified = await verifyRegistrationResponse({
        response: parsed.data as unknown as RegistrationResponseJSON,
        expectedChallenge: challenge,
        expectedOrigin: rp.origin,
        expectedRPID: rp.id,
        requireUserVerification: true,
      });
      info = verified.verified ? verified.registrationInfo : undefined;
    } catch {
      info = undefined;
    }
    if (!info) return { ok: false, error: PASSKEY_MESSAGES.notAdded };
    const inserted = await tx.query(
      `INSERT INTO staff_passkeys (id, user_issuer, user_sub, user_handle, public_key, sign_count,
         transports, name, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7::text[], $8, $9)
       ON CONFLICT (id) DO NOTHING RETURNING id`,
      [
        info.credential.id,
        user.issuer,
        user.sub,
        owner.handle,
        Buffer.from(info.credential.publicKey),
        info.credential.counter,
        info.credential.transports ?? [],
        name,
        now,
      ],
    );
    return inserted.length > 0 ? { ok: true } : { ok: false, error: PASSKEY_MESSAGES.notAdded };
  });
  if (result.ok) logEvent("passkey added", user.email ?? user.sub, { name });
  return result.ok ? { ok: true } : { ok: false, error: result.error };
}

/** 'Sign in with a passkey', step one: a challenge for any of this site's passkeys. */
export async function startPasskeySignIn(
  db: Db,
  rp: RelyingParty,
  now: Date = new Date(),
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const options = await generateAuthenticationOptions({
    rpID: rp.id,
    userVerification: "required",
    allowCredentials: [],
  });
  await db.transaction((tx) =>
    saveChallenge(tx, options.challenge, { purpose: "sign-in", user: null }, now),
  );
  return options;
}

export type PasskeySignIn = { ok: true; session: NewSession } | { ok: false; error: string };

/**
 * 'Sign in with a passkey', step two: the signed challenge checked against the stored public
 * key; the user it belongs to, if still staff, gets a session.
 */
export async function finishPasskeySignIn(
  db: Db,
  rp: RelyingParty,
  answer: unknown,
  config: SessionConfig,
  now: Date = new Date(),
): Promise<PasskeySignIn> {
  const parsed = CredentialJson.safeParse(answer);
  const challenge = parsed.success ? challengeOf(parsed.data) : null;
  // Not a passkey's answer at all (no credential, or not one of ours): no sign-in was tried,
  // so 'Activity' records nothing (a refused request changes nothing).
  if (!parsed.success || !challenge) return { ok: false, error: PASSKEY_MESSAGES.refused };
  const result = await db.transaction(async (tx) => {
    if (!(await takeChallenge(tx, challenge, "sign-in", now))) return null;
    const [key] = await tx.query<{
      id: string;
      user_issuer: string;
      user_sub: string;
      public_key: Uint8Array;
      sign_count: string;
      transports: string[];
      email: string | null;
      staff: boolean;
    }>(
      `SELECT p.id, p.user_issuer, p.user_sub, p.public_key, p.sign_count, p.transports, u.email,
         ${IS_STAFF_USER} AS staff
       FROM staff_passkeys p JOIN users u ON u.issuer = p.user_issuer AND u.sub = p.user_sub
       WHERE p.id = $1 FOR UPDATE OF p`,
      [parsed.data.id],
    );
    if (!key) return null;
    let newCounter: number | null = null;
    try {
      const verified = await verifyAuthenticationResponse({
        response: parsed.data as unknown as AuthenticationResponseJSON,
        expectedChallenge: challenge,
        expectedOrigin: rp.origin,
        expectedRPID: rp.id,
        credential: {
          id: key.id,
          publicKey: new Uint8Array(key.public_key),
          counter: Number(key.sign_count),
          transports: key.transports,
        },
        requireUserVerification: true,
      });
      newCounter = verified.verified ? verified.authenticationInfo.newCounter : null;
    } catch {
      newCounter = null;
    }
    // Staff still? A passkey of someone removed signs nobody in.
    if (newCounter === null || !key.staff) return null;
    await tx.query("UPDATE staff_passkeys SET sign_count = $2, last_used_at = $3 WHERE id = $1", [
      key.id,
      newCounter,
      now,
    ]);
    await tx.query("UPDATE users SET last_login_at = $3 WHERE issuer = $1 AND sub = $2", [
      key.user_issuer,
      key.user_sub,
      now,
    ]);
    const user = { issuer: key.user_issuer, sub: key.user_sub };
    return { who: key.email ?? key.user_sub, session: await createSession(tx, user, config, now) };
  });
  if (result) {
    logEvent("sign-in", result.who, { method: "passkey" });
    return { ok: true, session: result.session };
  }
  // A refusal names nobody: anyone may send any passkey's id.
  logEvent("sign-in refused", null, { method: "passkey" });
  return { ok: false, error: PASSKEY_MESSAGES.refused };
}
