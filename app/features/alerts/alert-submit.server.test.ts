// The alert form's refusal when it is sent too soon after the page opened (docs/behaviour.md §31):
// it must say that nothing was saved or sent and what to do, never read like the confirmation
// ('Check your e-mail: we sent you a link…').
import type { AppLoadContext } from "react-router";
import { describe, expect, it } from "vitest";
import { submitAlert } from "./alert-submit.server";

// A search alert is checked without the database; the time check comes before anything is kept.
const context = { env: { publicUrl: "https://rent.example.com" } } as unknown as AppLoadContext;

const form = (startedMsAgo: number, now: number) => {
  const f = new FormData();
  f.set("collection", "properties");
  f.set("search", "beds=2");
  f.set("email", "ana@example.com");
  f.set("website", "");
  f.set("started", String(now - startedMsAgo));
  return f;
};

describe("alert form sent too soon", () => {
  it("says what happened and what to do, in words nobody takes for a sent e-mail", async () => {
    const now = 1_800_000_000_000;
    const result = await submitAlert(context, form(500, now), now);
    expect(result).toMatchObject({ ok: false, status: 400, email: "ana@example.com" });
    const message = result.ok ? "" : (result.errors.form ?? "");
    expect(message).toBe(
      "Your alert was not saved and no e-mail was sent: the form came in too soon after the page opened. Make sure the address is right and press the button again.",
    );
    // What made it read like the confirmation.
    expect(message).not.toMatch(/check your e-mail/i);
    expect(message).not.toMatch(/we sent/i);
  });
});
