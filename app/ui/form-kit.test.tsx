// The kit's field as the server renders it: one label for one input, the server's message tied
// to it, and nothing announced when there is nothing to say (docs/behaviour.md §27).
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { SubmitButton, TextField } from "./form-kit";

const html = (node: React.ReactNode) => renderToStaticMarkup(<>{node}</>);
/** The attributes of the first `tag` element, in any order. */
const attributes = (out: string, tag: string) =>
  Object.fromEntries(
    [...(new RegExp(`<${tag} ([^>]*)>`).exec(out)?.[1] ?? "").matchAll(/([\w-]+)="([^"]*)"/g)].map(
      (m) => [m[1], m[2]],
    ),
  );

describe("TextField", () => {
  it("labels its input and says nothing more without an error or hint", () => {
    const out = html(<TextField id="f-name" name="name" label="Your name" defaultValue="Ann" />);
    expect(out).toContain('<label class="form-label" for="f-name">Your name</label>');
    expect(attributes(out, "input")).toEqual({
      id: "f-name",
      name: "name",
      class: "form-control",
      value: "Ann",
    });
    expect(out).not.toContain("aria-invalid");
    expect(out).not.toContain("aria-describedby");
    expect(out).not.toContain("field-error");
  });

  it("marks a refused field and ties the message to it", () => {
    const out = html(
      <TextField id="f-email" name="email" label="E-mail" error="Enter an e-mail." />,
    );
    expect(attributes(out, "input")).toMatchObject({
      "aria-invalid": "true",
      "aria-describedby": "f-email-error",
    });
    expect(out).toContain('<p class="field-error" id="f-email-error">Enter an e-mail.</p>');
  });

  it("describes the input by its hint and, when refused, its message too", () => {
    const out = html(
      <TextField id="f-days" name="days" label="Book up to" hint="Days ahead." error="Too many." />,
    );
    expect(out).toContain('aria-describedby="f-days-hint f-days-error"');
    expect(out).toContain('<p class="form-hint" id="f-days-hint">Days ahead.</p>');
  });

  it("keeps a caller's own description when it has neither hint nor error", () => {
    const out = html(<TextField id="f-fee" label="Fee" aria-describedby="fee-note" />);
    expect(out).toContain('aria-describedby="fee-note"');
  });

  it("is a textarea when given rows", () => {
    const out = html(<TextField id="f-msg" name="message" label="Message" rows={4} />);
    expect(attributes(out, "textarea")).toMatchObject({ rows: "4", id: "f-msg", name: "message" });
    expect(out).not.toContain("<input");
  });
});

describe("SubmitButton", () => {
  it("is pressable until its answer is awaited, then disabled with the busy text", () => {
    expect(html(<SubmitButton pending={false}>Send</SubmitButton>)).toBe(
      '<button type="submit" class="btn btn-primary">Send</button>',
    );
    const busy = html(
      <SubmitButton pending busyText="Saving...">
        Save
      </SubmitButton>,
    );
    expect(busy).toContain("disabled");
    expect(busy).toContain("Saving...");
    expect(busy).not.toContain("Save<");
  });
});
