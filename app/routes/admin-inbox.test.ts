// The inbox's note: text staff type, refused with a message (never a 5xx) when it cannot be
// stored (docs/behaviour.md §27).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Db, openDb } from "~/shared/db.server";
import { readEnv } from "~/shared/env.server";
import { action } from "./admin-inbox";

describe("inbox notes", () => {
  let db: Db;
  let id = 0;
  beforeAll(async () => {
    db = await openDb({ dataDir: "memory://" });
    const [row] = await db.query<{ id: number }>(
      `INSERT INTO leads (kind, name, email, phone, message, preferred_times)
       VALUES ('inquiry', 'Ana', 'ana@example.com', '', 'A question.', '{}') RETURNING id`,
    );
    id = row?.id ?? 0;
  });
  afterAll(async () => db?.close());

  const post = async (fields: Record<string, string>) => {
    const body = new URLSearchParams({ id: String(id), ...fields });
    const args = {
      context: {
        db,
        env: readEnv({ NODE_ENV: "test" }),
        viewer: {
          role: "owner",
          isAdmin: true,
          user: { sub: "u-staff", email: "staff@example.com" },
        },
      },
      request: new Request("http://site.example/admin/inbox", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body,
      }),
      params: {},
    } as unknown as Parameters<typeof action>[0];
    return (await action(args)) as unknown;
  };
  const note = (notes: string) => post({ intent: "note", notes });

  it("saves a note, and refuses one with a NUL character with the notes' message", async () => {
    expect(await note("Called back.")).toEqual({ ok: true, message: "Note saved." });
    const refused = (await note("Called\u0000back.")) as {
      data: unknown;
      init: { status: number };
    };
    expect(refused.init.status).toBe(400);
    expect(refused.data).toEqual({
      ok: false,
      errors: { form: "The notes hold a character that cannot be saved. Remove it and try again." },
      reference: null,
    });
    const [lead] = await db.query<{ notes: string }>("SELECT notes FROM leads WHERE id = $1", [id]);
    expect(lead?.notes).toBe("Called back.");
  });

  it("refuses a reply with a NUL character with a message, and sends nothing", async () => {
    const refused = (await post({ intent: "reply", text: "Yes\u0000, it is." })) as {
      data: unknown;
      init: { status: number };
    };
    expect(refused.init.status).toBe(400);
    expect(refused.data).toEqual({
      ok: false,
      errors: {
        form: "The message holds a character that cannot be sent. Remove it and try again.",
      },
      reference: null,
    });
    const [sent] = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM outbox");
    expect(sent?.n).toBe(0);
  });
});
