// One `event` line (who, what, request id) for the actions staff want to find later
// (docs/behaviour.md §24): through the whole app, so each carries the request id its answer's
// X-Request-Id names.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { company } from "~/domain/company";
import { grantAdmin, revokeAdmin } from "~/features/auth/admins.server";
import { CookieJar, followUntil, redirectTarget, request } from "~/features/auth/http-test-client";
import { editableOf } from "~/features/site-settings/editable";
import { captureLogs, LEVEL } from "../tests/support/logs";
import { startTestApp, type TestApp } from "../tests/support/test-app";

const logs = captureLogs();
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
}, 120_000);
afterAll(async () => {
  await app?.close();
  logs.restore();
});

const events = (event: string) => logs.lines.filter((l) => l.event === event);

/** The popup's way through the development provider; returns the callback's answer. */
async function signIn(email: string, alter?: (callback: URL) => void) {
  const jar = new CookieJar();
  const login = await request(jar, `${app.base}/auth/login`);
  const { url: interaction } = await followUntil(
    jar,
    redirectTarget(login, app.base),
    "/dev-oidc/interaction/",
  );
  const form = await (await request(jar, interaction)).text();
  const action = /action="([^"]+)"/.exec(form)?.[1]?.replaceAll("&amp;", "&");
  if (!action) throw new Error("no login form");
  const posted = await request(jar, new URL(action, app.base), {
    method: "POST",
    body: new URLSearchParams({ email, name: "Pat" }),
  });
  const { url: callback } = await followUntil(jar, redirectTarget(posted, app.base), "/auth/");
  alter?.(callback);
  const response = await request(jar, callback);
  await response.arrayBuffer();
  return response.headers.get("x-request-id");
}

describe("audit events", () => {
  it("sign-in: who signed in, with the callback's request id", async () => {
    const reqId = await signIn("pat@example.com");
    expect(reqId).toBeTruthy();
    await expect.poll(() => events("sign-in")).toHaveLength(1);
    expect(events("sign-in")[0]).toMatchObject({
      level: LEVEL.info,
      msg: "sign-in",
      who: "pat@example.com",
      reqId,
      issuer: `${app.base}/dev-oidc`,
    });
  });

  it("sign-in refused: a tampered callback, with its request id and the reason", async () => {
    const reqId = await signIn("mallory@example.com", (url) => url.searchParams.set("state", "x"));
    await expect.poll(() => events("sign-in refused")).toHaveLength(1);
    expect(events("sign-in refused")[0]).toMatchObject({ who: null, reqId });
    expect(events("sign-in refused")[0]?.reason).toEqual(expect.any(String));
    expect(events("sign-in")).toHaveLength(1); // only the earlier one
  });

  it("admin granted and admin revoked, by whom, only when something changed", async () => {
    await grantAdmin(app.db, "keeper@example.com", "ADMIN_EMAILS");
    await grantAdmin(app.db, "new@example.com", "boss@example.com");
    await grantAdmin(app.db, "new@example.com", "boss@example.com"); // already: no event
    expect(events("admin granted").map((e) => [e.who, e.email])).toEqual([
      ["ADMIN_EMAILS", "keeper@example.com"],
      ["boss@example.com", "new@example.com"],
    ]);
    expect(await revokeAdmin(app.db, "new@example.com", [], "boss@example.com")).toBe(1);
    expect(await revokeAdmin(app.db, "nobody@example.com", [], "boss@example.com")).toBe(0);
    expect(events("admin revoked").map((e) => [e.who, e.email])).toEqual([
      ["boss@example.com", "new@example.com"],
    ]);
  });

  it("settings saved: by the admin, with the request id of the save", async () => {
    const cookie = await app.signIn("office@example.com", { admin: true });
    const body = new FormData();
    body.append("data", JSON.stringify(editableOf(company)));
    const res = await fetch(`${app.base}/api/site`, { method: "PUT", body, headers: { cookie } });
    expect(res.status).toBeLessThan(300);
    await expect.poll(() => events("settings saved")).toHaveLength(1);
    expect(events("settings saved")[0]).toMatchObject({
      who: "office@example.com",
      reqId: res.headers.get("x-request-id"),
    });
  });
});
