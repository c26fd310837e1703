// One answer shape and one form parser for every page action (app/shared/action-result.ts).
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  checkedBy,
  formTexts,
  parseForm,
  readFields,
  refused,
  succeeded,
  textFields,
} from "./action-result.server";

const post = (body: BodyInit, type = "application/x-www-form-urlencoded") =>
  new Request("http://site.example/x", {
    method: "POST",
    headers: { "content-type": type },
    body,
  });

const Form = z.discriminatedUnion(
  "intent",
  [
    z.object({ intent: z.literal("add"), email: z.string().min(1, "Enter an e-mail address.") }),
    z.object({
      intent: z.literal("note"),
      notes: checkedBy((v) => (v === "bad" ? { error: "Not that." } : String(v))),
    }),
  ],
  { error: "Unknown action." },
);

describe("parseForm", () => {
  it("answers the schema's data and the form", async () => {
    const parsed = await parseForm(post("intent=add&email=a%40example.com"), Form);
    expect(parsed).toMatchObject({ ok: true, data: { intent: "add", email: "a@example.com" } });
  });

  it("reads a field sent twice as its first value, as FormData.get does", async () => {
    const parsed = await parseForm(post("intent=add&email=first&email=second"), Form);
    expect(parsed.ok && parsed.data).toEqual({ intent: "add", email: "first" });
  });

  it("refuses with each field's first message and the first of all", async () => {
    const parsed = await parseForm(post("intent=add&email="), Form);
    expect(parsed).toMatchObject({
      ok: false,
      status: 400,
      errors: { email: "Enter an e-mail address." },
      message: "Enter an e-mail address.",
    });
  });

  it("says a domain check's own message", async () => {
    const parsed = await parseForm(post("intent=note&notes=bad"), Form);
    expect(parsed).toMatchObject({ ok: false, message: "Not that." });
  });

  it("says the union's message for an unknown intent", async () => {
    const parsed = await parseForm(post("intent=drop"), Form);
    expect(parsed).toMatchObject({ ok: false, status: 400, message: "Unknown action." });
  });

  it("says one message for any refused field when the page gives one", async () => {
    const parsed = await parseForm(post("intent=add&email="), Form, { invalid: "Check the form." });
    expect(parsed).toMatchObject({ ok: false, message: "Check the form." });
  });

  it("refuses a body that is no form, and one over the limit, with the body's message", async () => {
    const json = await parseForm(post('{"intent":"add"}', "application/json"), Form);
    expect(json).toMatchObject({
      ok: false,
      status: 400,
      message: "The form could not be read. Reload the page and try again.",
    });
    const large = await parseForm(post(`intent=add&email=${"a".repeat(70 * 1024)}`), Form);
    expect(large).toMatchObject({ ok: false, status: 413 });
    expect(large.ok ? "" : large.message).toMatch(/^The form is too large: at most 64 KB\./);
  });
});

describe("answers", () => {
  it("succeeds with a message and what else the page needs", () => {
    expect(succeeded("Saved.")).toEqual({ ok: true, message: "Saved." });
    expect(succeeded(undefined, { sure: true })).toEqual({ ok: true, sure: true });
  });

  it("refuses with its status, the form's or the fields' messages and the reference", () => {
    const byForm = refused({ requestId: "req-1" }, 409, "Gone.");
    expect(byForm.init?.status).toBe(409);
    expect(byForm.data).toEqual({ ok: false, errors: { form: "Gone." }, reference: "req-1" });
    const byField = refused({}, 400, { email: "Enter an e-mail address." }, { values: { a: 1 } });
    expect(byField.data).toEqual({
      ok: false,
      errors: { email: "Enter an e-mail address." },
      reference: null,
      values: { a: 1 },
    });
  });
});

describe("readFields", () => {
  // A public form's fields: whatever is sent parses, so a refusal can give back what was typed.
  const Public = z.object({ ...textFields("name", "email"), time: formTexts });

  it("reads each text as typed, every value of a repeated field in order", () => {
    const form = new FormData();
    form.append("name", " Ann ");
    form.append("name", "Bob");
    form.append("time", "2026-12-01T10:00");
    form.append("time", "");
    form.append("time", "2026-12-02T11:00");
    expect(readFields(form, Public, { repeated: ["time"] })).toEqual({
      name: " Ann ",
      email: "",
      time: ["2026-12-01T10:00", "", "2026-12-02T11:00"],
    });
  });

  it("reads a file where text belongs as nothing, and a lone value of a list as none", () => {
    const form = new FormData();
    form.append("email", new File(["x"], "a.txt"));
    form.append("time", new File(["x"], "b.txt"));
    form.append("time", "2026-12-01T10:00");
    expect(readFields(form, Public, { repeated: ["time"] })).toEqual({
      name: "",
      email: "",
      time: ["2026-12-01T10:00"],
    });
    form.delete("time");
    form.append("time", "2026-12-01T10:00");
    expect(readFields(form, Public).time).toEqual([]);
  });
});
