// Signs in through the built-in development identity provider over plain HTTP, like the popup
// does, and returns the session cookie (the server must run with NODE_ENV=development and no OIDC client).
import { CookieJar, followUntil, redirectTarget, request } from "~/features/auth/http-test-client";

export async function signInAs(base: string, email: string): Promise<string> {
  const jar = new CookieJar();
  const login = await request(jar, `${base}/auth/login`);
  const authorize = redirectTarget(login, base);
  const { url: interaction } = await followUntil(jar, authorize, "/dev-oidc/interaction/");
  const html = await (await request(jar, interaction)).text();
  const action = /action="([^"]+)"/.exec(html)?.[1]?.replaceAll("&amp;", "&");
  if (!action) throw new Error("The development sign-in page has no form");
  const posted = await request(jar, new URL(action, base), {
    method: "POST",
    body: new URLSearchParams({ email, name: "Benchmark" }),
  });
  const { url: callback } = await followUntil(jar, redirectTarget(posted, base), "/auth/");
  await request(jar, callback);
  const cookie = jar.header(`${base}/`);
  if (!/session=/.test(cookie)) throw new Error("Sign-in gave no session cookie");
  return cookie;
}
