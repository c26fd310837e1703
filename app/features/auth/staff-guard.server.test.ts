// The permission table and its guard: what each staff role may do, as the roles are described
// in docs/behaviour.md §6, "Staff roles"; nobody else has any permission.
import { describe, expect, it } from "vitest";
import { can, PERMISSIONS, type Permission, type Role } from "./permissions";
import { actorOf, requireStaff } from "./staff-guard.server";

const user = {
  issuer: "https://id.example",
  sub: "u-boss",
  email: "boss@example.com",
  emailVerified: true,
  name: "Boss",
};
const as = (role: Role | null) => ({ user, role, isAdmin: role === "owner" || role === "manager" });

/** What each role may do, written from the roles' description, not from the table. */
const EXPECTED: Record<Role, Permission[]> = {
  owner: Object.keys(PERMISSIONS) as Permission[],
  // Everything except 'Staff', 'Erase for good', backups and the 'Status' page; they may
  // limit a Leasing agent to 'Only these listings'.
  manager: [
    "agents",
    "listings:read",
    "listings:write",
    "listings:availability",
    "site:write",
    "feeds:read",
    "leads",
    "people:erase",
    "applications",
    "outbox",
    "account",
  ],
  // 'Inbox', 'Applications', 'Toggle Availability' and 'Still available', 'All listings' read.
  "leasing-agent": ["listings:read", "listings:availability", "leads", "applications", "account"],
  // 'All listings' and 'Listing feeds', read only; no personal data.
  viewer: ["listings:read", "feeds:read", "account"],
};

describe("the staff guard", () => {
  it.each(Object.entries(EXPECTED))(
    "gives the %s role exactly its permissions",
    (role, allowed) => {
      for (const permission of Object.keys(PERMISSIONS) as Permission[]) {
        expect(can(as(role as Role), permission), permission).toBe(allowed.includes(permission));
      }
    },
  );

  it("gives anyone who is not staff no permission", () => {
    for (const permission of Object.keys(PERMISSIONS) as Permission[]) {
      expect(can(as(null), permission), permission).toBe(false);
      expect(can(null, permission), permission).toBe(false);
    }
  });

  it("answers the ordinary 404 to anyone without the permission", () => {
    const context = (viewer: ReturnType<typeof as>) => ({ viewer }) as never;
    const agent = as("leasing-agent");
    expect(requireStaff(context(agent), "applications")).toBe(agent);
    for (const viewer of [as("viewer"), as(null)]) {
      expect(() => requireStaff(context(viewer), "applications")).toThrow(
        expect.objectContaining({ init: expect.objectContaining({ status: 404 }) }),
      );
    }
  });

  it("names who did it by e-mail, else by subject", () => {
    expect(actorOf(as("owner"))).toBe("boss@example.com");
    expect(actorOf({ user: { ...user, email: null } } as never)).toBe("u-boss");
    expect(actorOf({ user: null })).toBeNull();
  });
});
