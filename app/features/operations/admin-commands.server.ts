// The admin registry's commands as data: run by the CLI directly, or by the running server on
// behalf of the CLI (admin socket). One validation and one set of answers for both.
import { z } from "zod";
import {
  type AdminGrant,
  createSignInLink,
  grantAdmin,
  InvalidEmailError,
  LastAdminError,
  ListedInAdminEmailsError,
  listAdmins,
  normalizeEmail,
  ROLES,
  type Role,
  revokeAdmin,
  setStaffRole,
} from "~/features/auth/index.server";
import type { ImageStore } from "~/features/images/index.server";
import { exportSettings, importSettings } from "~/features/site-settings/index.server";
import type { Db } from "~/shared/db.server";
import { HttpError } from "~/shared/http-error.server";

const email = z.string().max(320);
export const adminCommandSchema = z.discriminatedUnion("command", [
  z.object({
    command: z.literal("grant"),
    email,
    grantedBy: z.string().max(200).optional(),
    // An Owner unless told (docs/behaviour.md §6, "Staff roles").
    role: z.enum(ROLES).optional(),
  }),
  z.object({ command: z.literal("revoke"), email }),
  z.object({ command: z.literal("list") }),
  // A single-use sign-in link (docs/behaviour.md §6, "Staff sign-in"): its token only.
  z.object({ command: z.literal("sign-in-link"), email }),
  // Site settings as one JSON document (docs/behaviour.md §23).
  z.object({ command: z.literal("settings-export") }),
  z.object({ command: z.literal("settings-import"), document: z.unknown() }),
]);
export type AdminCommand = z.infer<typeof adminCommandSchema>;

export type AdminFailureCode =
  | "INVALID_EMAIL"
  | "NOT_ADMIN"
  | "LAST_ADMIN"
  | "IN_ADMIN_EMAILS"
  | "BAD_REQUEST"
  | "INTERNAL";

export type AdminResponse =
  | {
      ok: true;
      command: "grant";
      email: string;
      role: Role;
      /** What happened: a new grant, another role for someone already staff, or nothing. */
      outcome: "created" | "changed" | "unchanged";
    }
  | { ok: true; command: "revoke"; email: string; removed: number }
  | { ok: true; command: "list"; admins: AdminGrant[] }
  | { ok: true; command: "sign-in-link"; email: string; token: string }
  | { ok: true; command: "settings-export"; document: unknown }
  | { ok: true; command: "settings-import" }
  | { ok: false; code: AdminFailureCode; error: string };

/** `adminEmails`: the ADMIN_EMAILS of the process that re-grants them (revokes of those are refused). */
export async function runAdminCommand(
  db: Db,
  command: AdminCommand,
  adminEmails: readonly string[],
  /** The image store (the settings' logo and PDF); needed by the settings commands only. */
  images?: ImageStore,
): Promise<AdminResponse> {
  try {
    switch (command.command) {
      case "settings-export":
      case "settings-import": {
        if (!images) throw new Error("The image store is not available here.");
        if (command.command === "settings-export") {
          return {
            ok: true,
            command: "settings-export",
            document: await exportSettings(db, images),
          };
        }
        await importSettings(db, images, command.document, "admin CLI");
        return { ok: true, command: "settings-import" };
      }
      case "grant": {
        const address = normalizeEmail(command.email);
        const role = command.role ?? "owner";
        const reply = { ok: true, command: "grant", email: address, role } as const;
        if (await grantAdmin(db, address, command.grantedBy, role)) {
          return { ...reply, outcome: "created" };
        }
        const current = (await listAdmins(db)).find((g) => g.email === address)?.role;
        if (current === role) return { ...reply, outcome: "unchanged" };
        await setStaffRole(db, address, role, command.grantedBy ?? "admin CLI");
        return { ...reply, outcome: "changed" };
      }
      case "revoke": {
        const address = normalizeEmail(command.email);
        const removed = await revokeAdmin(db, address, adminEmails, "admin CLI");
        if (removed === 0) {
          return { ok: false, code: "NOT_ADMIN", error: `${address} is not an admin.` };
        }
        return { ok: true, command: "revoke", email: address, removed };
      }
      case "list":
        return { ok: true, command: "list", admins: await listAdmins(db) };
      case "sign-in-link": {
        const address = normalizeEmail(command.email);
        const token = await createSignInLink(db, address);
        if (!token) {
          return { ok: false, code: "NOT_ADMIN", error: `${address} is not staff.` };
        }
        return { ok: true, command: "sign-in-link", email: address, token };
      }
    }
  } catch (error) {
    if (error instanceof InvalidEmailError) {
      return { ok: false, code: "INVALID_EMAIL", error: error.message };
    }
    if (error instanceof LastAdminError)
      return { ok: false, code: "LAST_ADMIN", error: error.message };
    if (error instanceof ListedInAdminEmailsError) {
      return { ok: false, code: "IN_ADMIN_EMAILS", error: error.message };
    }
    // After the refusals above, which are HttpErrors too but have their own codes.
    if (error instanceof HttpError && error.status < 500) {
      return { ok: false, code: "BAD_REQUEST", error: error.message };
    }
    throw error;
  }
}
