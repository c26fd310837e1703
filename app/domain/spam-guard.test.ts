// The public forms' spam checks (docs/behaviour.md §27): a filled honeypot, or a submission sent
// within 3 seconds of the page, by the browser's measure or else the page's render time.
import { describe, expect, it } from "vitest";
import { formStartOf, spamCheck } from "./spam-guard";

const now = 1_800_000_000_000;
const sent = (fields: Partial<{ website: string; started: string; elapsed: string }>) => ({
  website: "",
  started: "",
  elapsed: "",
  ...fields,
});

describe("spamCheck", () => {
  it("passes a person: 3 seconds or more by either measure", () => {
    expect(spamCheck(sent({ elapsed: "3000" }), now)).toBeNull();
    expect(spamCheck(sent({ started: String(now - 3000) }), now)).toBeNull();
    // The browser's measure wins over an old page's render time.
    expect(spamCheck(sent({ elapsed: "3500", started: String(now) }), now)).toBeNull();
  });

  it("refuses a script that filled the hidden field, whatever the time", () => {
    expect(spamCheck(sent({ website: "http://spam.example", elapsed: "60000" }), now)).toBe(
      "honeypot",
    );
  });

  it("refuses what came too soon, or with no time at all", () => {
    expect(spamCheck(sent({ elapsed: "2999" }), now)).toBe("too-fast");
    expect(spamCheck(sent({ started: String(now - 2999) }), now)).toBe("too-fast");
    expect(spamCheck(sent({}), now)).toBe("too-fast");
    expect(spamCheck(sent({ elapsed: "-5", started: "soon" }), now)).toBe("too-fast");
    expect(spamCheck(sent({ started: String(now + 60_000) }), now)).toBe("too-fast");
  });
});

describe("formStartOf", () => {
  it("keeps the form's own start, else now", () => {
    expect(formStartOf({ started: "1700000000000" }, now)).toBe(1_700_000_000_000);
    expect(formStartOf({ started: "" }, now)).toBe(now);
    expect(formStartOf({ started: "0" }, now)).toBe(now);
    expect(formStartOf({ started: "Infinity" }, now)).toBe(now);
  });
});
