// The permission table: today the admins are the staff, and every permission is theirs; nobody
// else has any (docs/behaviour.md §6).
import { describe, expect, it } from "vitest";
import { actorOf, can, PERMISSIONS, type Permission, requireStaff } from "./staff-guard.server";

const admin = {
  user: {
    issuer: "https://id.example",
    sub: "u-boss",
    email: "boss@example.com",
    emailVerified: true,
    name: "Boss",
  },
  isAdmin: true,
};
const member = { ...admin, isAdmin: false };
const permissions = Object.keys(PERMISSIONS) as Permission[];

describe("the staff guard", () => {
  it("gives an admin every permission and anyone else none", () => {
    expect(permissions.length).toBeGreaterThan(0);
    for (const permission of permissions) {
      expect(can(admin, permission), permission).toBe(true);
      expect(can(member, permission), permission).toBe(false);
      expect(can({ isAdmin: false }, permission), permission).toBe(false);
    }
  });

  it("answers the ordinary 404 to anyone without the permission", () => {
    const context = (viewer: typeof admin) => ({ viewer }) as never;
    expect(requireStaff(context(admin), "applications")).toBe(admin);
    expect(() => requireStaff(context(member), "applications")).toThrow(
      expect.objectContaining({ init: expect.objectContaining({ status: 404 }) }),
    );
  });

  it("names who did it by e-mail, else by subject", () => {
    expect(actorOf(admin)).toBe("boss@example.com");
    expect(actorOf({ user: { ...admin.user, email: null } } as never)).toBe("u-boss");
    expect(actorOf({ user: null })).toBeNull();
  });
});
