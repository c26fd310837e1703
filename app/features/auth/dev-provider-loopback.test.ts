// The development identity provider signs anyone in as anyone: it must answer this computer only.
import { once } from "node:events";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Db, openDb } from "~/shared/db.server";
import { readEnv } from "~/shared/env.server";
import { networkAddress } from "../../../tests/support/network-address";
import { missing } from "../../../tests/support/prerequisite";
import { createAuthRouter } from "./auth-router.server";
import { isLoopbackAddress } from "./loopback-only.server";

const DISCOVERY = "/dev-oidc/.well-known/openid-configuration";
const lanAddress = networkAddress();

describe("development sign-in answers loopback requests only", () => {
  let db: Db;
  let server: ReturnType<express.Express["listen"]>;
  let port: number;
  beforeAll(async () => {
    db = await openDb({ dataDir: "memory://" });
    const app = express();
    // Listening everywhere, as with HOST=0.0.0.0: the provider itself must still refuse.
    server = app.listen(0, "0.0.0.0");
    await once(server, "listening");
    port = (server.address() as AddressInfo).port;
    const env = readEnv({ NODE_ENV: "development", PUBLIC_URL: `http://127.0.0.1:${port}` });
    app.use(await createAuthRouter({ db, env }));
  });
  afterAll(async () => {
    server?.closeAllConnections();
    server?.close();
    await db?.close();
  });

  const get = (host: string, path: string, headers: Record<string, string> = {}) =>
    fetch(`http://${host}:${port}${path}`, { headers, redirect: "manual" });

  it("serves this computer", async () => {
    expect((await get("127.0.0.1", DISCOVERY)).status).toBe(200);
    // A proxy on this computer forwarding a request from this computer.
    const proxied = await get("127.0.0.1", DISCOVERY, { "x-forwarded-for": "127.0.0.1, ::1" });
    expect(proxied.status).toBe(200);
  });

  it.skipIf(missing(!lanAddress && "this machine has no network address"))(
    `refuses a request from the network (${lanAddress})`,
    async () => {
      for (const path of [
        DISCOVERY,
        "/dev-oidc/auth?client_id=leasing-site-dev",
        "/dev-oidc/jwks",
      ]) {
        const res = await get(lanAddress as string, path);
        expect.soft(res.status, path).toBe(403);
        expect.soft(await res.text(), path).toContain("only answers requests from this computer");
      }
    },
  );

  it.each([
    ["x-forwarded-for", "203.0.113.9"],
    ["x-forwarded-for", "127.0.0.1, 203.0.113.9"],
    ["x-forwarded-for", "unknown"],
    ["forwarded", "for=203.0.113.9;proto=http"],
    ["forwarded", 'for="[2001:db8::1]:4711"'],
    ["x-real-ip", "198.51.100.3"],
  ])("refuses what a proxy forwards from elsewhere (%s: %s)", async (header, value) => {
    const res = await get("127.0.0.1", DISCOVERY, { [header]: value });
    expect(res.status).toBe(403);
  });
});

describe("isLoopbackAddress", () => {
  it.each([
    ["127.0.0.1", true],
    ["127.8.9.10", true],
    ["::1", true],
    ["0:0:0:0:0:0:0:1", true],
    ["::ffff:127.0.0.1", true],
    ["192.0.2.2", false],
    ["::ffff:192.0.2.2", false],
    ["::", false],
    ["1::1", false],
    ["fe80::1", false],
    ["localhost", false],
    ["", false],
    [undefined, false],
  ])("%s → %s", (address, expected) => {
    expect(isLoopbackAddress(address)).toBe(expected);
  });
});
