import { describe, expect, it } from "vitest";
import { redactUrl } from "./redact-url";

describe("redactUrl", () => {
  it.each([
    [
      "/x?token=a&access_token=b&id_token=c&refresh_token=d",
      "/x?token=[redacted]&access_token=[redacted]&id_token=[redacted]&refresh_token=[redacted]",
    ],
    ["/x?Access_Token=a&CODE=b", "/x?Access_Token=[redacted]&CODE=[redacted]"],
    ["/x?access%5Ftoken=a", "/x?access%5Ftoken=[redacted]"],
    [
      "/x?api_key=a&client_secret=b&password=c&reset_token=d",
      "/x?api_key=[redacted]&client_secret=[redacted]&password=[redacted]&reset_token=[redacted]",
    ],
    [
      "/properties?filter=available&address=1%20Main",
      "/properties?filter=available&address=1%20Main",
    ],
    ["/x?code", "/x?code"],
    ["/x?", "/x?"],
    ["/x?%E0%A4%A=1&state=b", "/x?%E0%A4%A=1&state=[redacted]"],
    ["/plain/path", "/plain/path"],
  ])("%s is logged as %s", (url, shown) => {
    expect(redactUrl(url)).toBe(shown);
  });
});
