import { describe, expect, it } from "vitest";
import { readEnv } from "./env.server";

describe("readEnv", () => {
  it("listens on loopback only outside production, on every interface in production", () => {
    expect(readEnv({}).host).toBe("127.0.0.1");
    expect(readEnv({ NODE_ENV: "development" }).host).toBe("127.0.0.1");
    expect(readEnv({ NODE_ENV: "test" }).host).toBe("127.0.0.1");
    expect(readEnv({ NODE_ENV: "production" }).host).toBe("0.0.0.0");
    expect(readEnv({ NODE_ENV: "development", HOST: "0.0.0.0" }).host).toBe("0.0.0.0");
    expect(readEnv({ NODE_ENV: "production", HOST: "10.0.0.5" }).host).toBe("10.0.0.5");
    expect(readEnv({ NODE_ENV: "development", HOST: "" }).host).toBe("127.0.0.1");
  });
});
