// The passkey endpoints through the whole app (docs/behaviour.md §6, "Staff sign-in"): a staff
// member signed in by code adds a passkey and signs in with it over HTTP, with a software
// authenticator; strangers, other sites and garbage get clear refusals, never a 5xx.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grantAdmin } from "~/features/auth/admins.server";
import { softwareAuthenticator } from "../../../tests/support/software-authenticator";
import { startTestApp, type TestApp } from "../../../tests/support/test-app";

describe("passkeys over HTTP", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
    await grantAdmin(t.db, "agent@example.com", "test", "leasing-agent");
  });
  afterAll(async () => t?.close());

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${t.base}${path}`, {
      method: "POST",
      body: typeof body === "string" ? body : JSON.stringify(body),
      headers: { "content-type": "application/json", origin: t.base, ...headers },
      redirect: "manual",
    });
  const cookieOf = (res: Response) => res.headers.get("set-cookie")?.split(";")[0] ?? "";

  /** A session of the agent, signed in with an e-mailed code. */
  async function signedInByCode(): Promise<string> {
    const form = (fields: Record<string, string>) =>
      fetch(`${t.base}/sign-in`, {
        method: "POST",
        body: new URLSearchParams(fields),
        headers: { "content-type": "application/x-www-form-urlencoded", origin: t.base },
        redirect: "manual",
      });
    await form({ intent: "send", email: "agent@example.com" });
    const [row] = await t.db.query<{ body: string }>(
      "SELECT body FROM outbox WHERE 'agent@example.com' = ANY(to_addresses) ORDER BY id DESC LIMIT 1",
    );
    const code = /is (\d{6})\./.exec(row?.body ?? "")?.[1] ?? "";
    const res = await form({ intent: "verify", email: "agent@example.com", code });
    expect(res.status).toBe(302);
    return cookieOf(res);
  }

  it("adds a passkey for the signed-in staff member, which then signs them in", async () => {
    const cookie = await signedInByCode();
    const device = softwareAuthenticator(t.base);
    const options = await post("/auth/passkey/add/options", {}, { cookie });
    expect(options.status).toBe(200);
    expect(options.headers.get("cache-control")).toBe("no-store");
    const creation = await options.json();
    expect(creation.authenticatorSelection).toMatchObject({
      residentKey: "required",
      userVerification: "required",
    });
    expect(creation.rp.id).toBe("127.0.0.1");
    const added = await post(
      "/auth/passkey/add",
      { credential: device.register(creation) },
      { cookie, "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0.0.0 Safari/537.36" },
    );
    expect(added.status).toBe(200);
    const account = await (await fetch(`${t.base}/account`, { headers: { cookie } })).text();
    expect(account).toContain("Chrome on Linux");

    const challenge = await (await post("/auth/passkey/sign-in/options", {})).json();
    expect(challenge.userVerification).toBe("required");
    expect(challenge.allowCredentials ?? []).toEqual([]);
    const signedIn = await post("/auth/passkey/sign-in", {
      credential: device.authenticate(challenge),
    });
    expect(signedIn.status).toBe(200);
    const session = cookieOf(signedIn);
    expect(session).toMatch(/=./);
    const inbox = await fetch(`${t.base}/admin/inbox`, { headers: { cookie: session } });
    expect(inbox.status).toBe(200);
  });

  it("refuses other sites, strangers and garbage with a clear 4xx", async () => {
    // Another site's page posting here: refused before anything is read.
    const foreign = await post(
      "/auth/passkey/sign-in/options",
      {},
      { origin: "https://evil.test" },
    );
    expect(foreign.status).toBe(403);
    // Adding needs a staff session.
    const anonymous = await post("/auth/passkey/add/options", {});
    expect(anonymous.status).toBe(401);
    // Not JSON, JSON of the wrong shape, a body too large.
    const broken = await post("/auth/passkey/sign-in", "{not json");
    expect(broken.status).toBe(400);
    const shapeless = await post("/auth/passkey/sign-in", { credential: { id: [1] } });
    expect(shapeless.status).toBe(400);
    expect(await shapeless.json()).toEqual({
      error: "That passkey did not sign you in. Try again, or e-mail yourself a code.",
    });
    const nul = await post("/auth/passkey/sign-in", {
      credential: {
        id: "\u0000",
        rawId: "\u0000",
        type: "public-key",
        response: { clientDataJSON: "e30" },
      },
    });
    expect(nul.status).toBe(400);
    const huge = await post("/auth/passkey/sign-in", { credential: "x".repeat(70_000) });
    expect(huge.status).toBe(413);
    expect(shapeless.headers.get("set-cookie")).toBeNull();
    // None of these tried to sign anyone in: 'Activity' records nothing of them.
    const form = await fetch(`${t.base}/auth/passkey/sign-in`, {
      method: "POST",
      body: "q=1",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: t.base },
    });
    expect(form.status).toBe(400);
    const [events] = await t.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM activity_events WHERE kind = 'sign-in refused'",
    );
    expect(events?.n).toBe(0);
  });

  it("refuses to remove a passkey by an id no passkey can have, with a message, never a 5xx", async () => {
    // Found by the fuzz suite: a NUL character reached the database, which answered 500.
    const cookie = await signedInByCode();
    const remove = (id: string) =>
      fetch(`${t.base}/account`, {
        method: "POST",
        body: new URLSearchParams({ intent: "remove-passkey", id }),
        headers: { cookie, origin: t.base, "content-type": "application/x-www-form-urlencoded" },
        redirect: "manual",
      });
    for (const id of ["\u0000", "a\u0000b", "not base64url!", "é"]) {
      const res = await remove(id);
      expect(res.status, JSON.stringify(id)).toBe(400);
      expect(await res.text()).toContain("Nothing to do.");
    }
    // A well-formed id of no passkey of theirs: gone already (another tab), nothing to say.
    expect((await remove("AAAA")).status).toBe(200);
  });
});
