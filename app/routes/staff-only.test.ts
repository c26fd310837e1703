// Every staff route of app/routes.ts (those under its "Admin-only" line, and the listing
// histories) asks the staff guard before anything else: its loader and action answer 404 to a
// visitor and to a signed-in non-staff member, and touch nothing (no database is given).
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const routesFile = fs.readFileSync(path.resolve("app/routes.ts"), "utf8");
// A route line may name its id after the module (one module serving both listing kinds).
const staffRoutes = [
  ...routesFile.matchAll(/route\("([^"]+)", "(routes\/[^"]+)"(?:,\s*\{[^}]*\})?\)/g),
]
  .filter(([line = "", url = ""]) => url.endsWith("/history") || isAfterAdminLine(line))
  .map(([, url = "", file = ""]) => ({ url, file }));

function isAfterAdminLine(line: string) {
  const admin = routesFile.indexOf("// Admin-only");
  return admin >= 0 && routesFile.indexOf(line) > admin && !line.includes('"*"');
}

/** The status a loader's or action's refusal carries: a thrown `data()`, a Response, or none. */
async function statusOf(run: () => unknown): Promise<number | undefined> {
  try {
    const answer = await run();
    return answer instanceof Response ? answer.status : undefined;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown.status;
    const init = (thrown as { init?: { status?: number } } | null)?.init;
    if (init?.status) return init.status;
    throw thrown;
  }
}

const visitors = {
  anonymous: { user: null, role: null, isAdmin: false },
  "a signed-in non-staff member": {
    user: {
      issuer: "https://id.example",
      sub: "u-guest",
      email: "guest@example.com",
      emailVerified: true,
      name: "Guest",
    },
    role: null,
    isAdmin: false,
  },
};

describe("staff routes answer 404 to anyone else", () => {
  it("finds them in app/routes.ts", () => {
    expect(staffRoutes.map((r) => r.url)).toEqual(
      expect.arrayContaining(["addproperty", "admin/staff", "admin/applications/:id/pdf"]),
    );
    expect(staffRoutes.length).toBeGreaterThanOrEqual(18);
  });

  for (const { url, file } of staffRoutes) {
    for (const [who, viewer] of Object.entries(visitors)) {
      it(`/${url} for ${who}`, async () => {
        const mod = (await import(`../${file}`)) as {
          loader?: (args: unknown) => unknown;
          action?: (args: unknown) => unknown;
        };
        const args = (method: string) => ({
          context: { viewer },
          request: new Request(`http://site.example/${url}`, { method }),
          params: { id: "1", documentId: "1" },
        });
        expect(mod.loader, `${file} has a loader`).toBeTypeOf("function");
        expect(await statusOf(() => mod.loader?.(args("GET"))), `${file} loader`).toBe(404);
        if (mod.action) {
          expect(await statusOf(() => mod.action?.(args("POST"))), `${file} action`).toBe(404);
        }
      });
    }
  }
});
