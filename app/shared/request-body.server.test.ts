// Bodies read with a limit counted as the bytes arrive (docs/decisions/0072-request-body-limits.md):
// a declared length over it is refused before any byte is pulled; a chunked body is refused at
// the first chunk past it, and no more of it is pulled.
import { describe, expect, it } from "vitest";
import { readForm } from "./read-form.server";
import { readBody } from "./request-body.server";

const KB = 1024;

/** A body of `chunks` chunks of `size` bytes, made only when pulled; `pulled` counts them. */
function pulledBody(chunks: number, size: number, fill = 0x61) {
  const counter = { pulled: 0 };
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (counter.pulled === chunks) return controller.close();
        counter.pulled++;
        controller.enqueue(new Uint8Array(size).fill(fill));
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, counter };
}

const post = (body: ReadableStream<Uint8Array> | string, headers: Record<string, string>) =>
  new Request("http://site.test/inquiries", {
    method: "POST",
    body,
    headers,
    duplex: "half",
  } as RequestInit);

describe("readForm", () => {
  it("refuses a url-encoded form declared over 64 KB with 413, pulling none of it", async () => {
    const { stream, counter } = pulledBody(2200, 64 * KB);
    const form = await readForm(
      post(stream, {
        "content-type": "application/x-www-form-urlencoded",
        "content-length": String(140 * 1024 * KB),
      }),
    );
    expect(form).toEqual({
      status: 413,
      message: "The form is too large: at most 64 KB. Shorten what you typed and try again.",
    });
    expect(counter.pulled).toBe(0);
  });

  it("refuses a chunked url-encoded form at the first chunk past 64 KB", async () => {
    const { stream, counter } = pulledBody(10_000, 16 * KB);
    const form = await readForm(
      post(stream, { "content-type": "application/x-www-form-urlencoded" }),
    );
    expect(form).toMatchObject({ status: 413 });
    // 4 chunks make 64 KB; the fifth crosses it. The stream may have one chunk queued ahead.
    expect(counter.pulled).toBeLessThanOrEqual(6);
  });

  it("refuses a chunked multipart form past 64 KB", async () => {
    const boundary = "b0undary";
    const head = new TextEncoder().encode(
      `--${boundary}\r\nContent-Disposition: form-data; name="message"\r\n\r\n`,
    );
    const { stream: filler, counter } = pulledBody(1000, 8 * KB);
    const reader = filler.getReader();
    let sentHead = false;
    const stream = new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          if (!sentHead) {
            sentHead = true;
            return controller.enqueue(head);
          }
          const { done, value } = await reader.read();
          if (done) controller.close();
          else controller.enqueue(value);
        },
      },
      { highWaterMark: 0 },
    );
    const form = await readForm(
      post(stream, { "content-type": `multipart/form-data; boundary=${boundary}` }),
    );
    expect(form).toMatchObject({ status: 413 });
    expect(counter.pulled).toBeLessThanOrEqual(10);
  });

  it("reads a form under the limit as before", async () => {
    const form = await readForm(
      post("name=Ana&message=Hello", { "content-type": "application/x-www-form-urlencoded" }),
    );
    expect(form).toBeInstanceOf(FormData);
    expect((form as FormData).get("message")).toBe("Hello");
  });

  it("answers a body that is no form 400, not 413", async () => {
    const form = await readForm(post("{}", { "content-type": "application/json" }));
    expect(form).toEqual({
      status: 400,
      message: "The form could not be read. Reload the page and try again.",
    });
  });
});

describe("readBody", () => {
  it("gives the bytes of a body within its limit, and null for a cut-off one", async () => {
    const { stream } = pulledBody(3, 10);
    expect(await readBody(post(stream, {}), 30)).toEqual(new Uint8Array(30).fill(0x61));
    const broken = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.error(new Error("connection reset"));
      },
    });
    expect(await readBody(post(broken, {}), 30)).toBeNull();
  });
});
