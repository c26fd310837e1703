// `npm run admin -- grant <email> [--role <role>] | revoke <email> | list`: manages the staff.
// PostgreSQL (DATABASE_URL): connects directly. Embedded PGlite: asks the running server over
// its admin socket; with no server running, takes the data directory's lock and opens it itself.
import fs from "node:fs/promises";
import path from "node:path";
import { activityRecorder } from "~/features/activity/index.server";
import type { AdminGrant } from "~/features/auth/index.server";
import {
  InvalidEmailError,
  isRole,
  normalizeEmail,
  ROLE_LABELS,
  ROLES,
} from "~/features/auth/index.server";
import { createImageStore } from "~/features/images/index.server";
import { type Db, openDb } from "~/shared/db.server";
import type { Env } from "~/shared/env.server";
import { setAuditSink } from "~/shared/events.server";
import { type AdminCommand, type AdminResponse, runAdminCommand } from "./admin-commands.server";
import { adminSocketPath, sendAdminCommand } from "./admin-socket.server";
import { acquireDataDirLock, DataDirLockedError } from "./data-dir-lock.server";

export const EXIT = {
  ok: 0,
  /** The registry refused: the last Owner, not staff, or listed in ADMIN_EMAILS. */
  refused: 1,
  /** Wrong arguments or an invalid email. */
  usage: 2,
  /** The database could not be reached (in use without an answering server, or an error). */
  unavailable: 3,
} as const;

export const USAGE = `Usage: npm run admin -- <command>

  grant <email> [--role <role>]
                   make whoever signs in with this (verified) email staff: an
                   Owner, or the role given (manager, leasing-agent, viewer); for
                   someone who is staff already, change their role
  revoke <email>   remove them from the staff (not the last Owner, nor an
                   address in ADMIN_EMAILS: remove it there first)
  list             show the staff with their roles
  sign-in-link <email>
                   print a link that signs this staff member in, once, within
                   15 minutes (no identity provider or mail server needed)
  settings export <file>   write the site settings (logo and PDF included) to a
                           JSON file
  settings import <file>   apply such a file (checked like the settings page)

Exit codes: 0 done, 1 refused, 2 usage, invalid email or invalid settings file,
3 database unavailable.`;

export interface CliOutput {
  out(line: string): void;
  err(line: string): void;
}

const consoleOutput: CliOutput = {
  out: (line) => console.log(line),
  err: (line) => console.error(line),
};

export async function runAdminCli(
  args: readonly string[],
  env: Pick<Env, "databaseUrl" | "dataDir" | "adminEmails"> & {
    s3?: Env["s3"];
    /** Where the sign-in link points (PUBLIC_URL). */
    publicUrl?: string;
  },
  output: CliOutput = consoleOutput,
): Promise<number> {
  if (args.length === 1 && (args[0] === "--help" || args[0] === "help" || args[0] === "-h")) {
    output.out(USAGE);
    return EXIT.ok;
  }
  let parsed: AdminCommand | string;
  if (args[0] === "settings") {
    parsed = await parseSettingsArgs(args.slice(1));
  } else parsed = parseArgs(args);
  if (typeof parsed === "string") {
    output.err(parsed);
    return EXIT.usage;
  }
  try {
    const response = await execute(parsed, env, output);
    if (response?.ok && response.command === "settings-export") {
      const file = args[2] as string;
      await fs.writeFile(file, `${JSON.stringify(response.document, null, 2)}\n`);
      output.out(`Exported the site settings to ${file}.`);
      return EXIT.ok;
    }
    if (response?.ok && response.command === "settings-import") {
      output.out(`Imported the site settings from ${args[2]}.`);
      return EXIT.ok;
    }
    if (response?.ok && response.command === "sign-in-link") {
      const base = (env.publicUrl ?? "http://localhost:3000").replace(/\/+$/, "");
      output.out(`${base}/sign-in/link?token=${response.token}`);
      output.err(
        `A single-use link for ${response.email}, valid for 15 minutes. Open it in a browser and press 'Sign in'.`,
      );
      return EXIT.ok;
    }
    return response === null ? EXIT.unavailable : report(response, output);
  } catch (error) {
    output.err(`Failed: ${error instanceof Error ? error.message : String(error)}`);
    return EXIT.unavailable;
  }
}

/** `settings export <file>` / `settings import <file>` (docs/behaviour.md §23). */
async function parseSettingsArgs(args: readonly string[]): Promise<AdminCommand | string> {
  const [action, file, ...rest] = args;
  if (!file || rest.length > 0) return USAGE;
  if (action === "export") return { command: "settings-export" };
  if (action !== "import") return USAGE;
  let text: string;
  try {
    text = await fs.readFile(file, "utf8");
  } catch {
    return `Cannot read ${file}.`;
  }
  try {
    return { command: "settings-import", document: JSON.parse(text) };
  } catch {
    return `${file} is not valid JSON.`;
  }
}

/** The command, or an error text for the user. */
function parseArgs(args: readonly string[]): AdminCommand | string {
  const [command, ...rest] = args;
  if (command === "list" && rest.length === 0) return { command };
  // `grant <email> --role <role>` (or `--role=<role>`), the option before or after the address.
  let role: string | undefined;
  const words: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const word = rest[i] as string;
    if (word === "--role") role = rest[++i] ?? "";
    else if (word.startsWith("--role=")) role = word.slice("--role=".length);
    else words.push(word);
  }
  if (role !== undefined && (command !== "grant" || !isRole(role))) {
    return `The role must be one of: ${ROLES.join(", ")}.`;
  }
  if (
    (command === "grant" || command === "revoke" || command === "sign-in-link") &&
    words.length === 1
  ) {
    try {
      const email = normalizeEmail(words[0]);
      return command === "grant"
        ? { command, email, grantedBy: "admin CLI", ...(isRole(role) ? { role } : {}) }
        : { command, email };
    } catch (error) {
      if (error instanceof InvalidEmailError) return error.message;
      throw error;
    }
  }
  return USAGE;
}

/**
 * Runs a command on a database this process opened itself: its audit events are stored in
 * 'Activity' as the server stores its own (docs/behaviour.md §6, "Activity"), each written
 * before the database closes.
 */
async function runDirect(
  db: Db,
  command: AdminCommand,
  env: Pick<Env, "adminEmails"> & { s3?: Env["s3"]; dataDir: string },
): Promise<AdminResponse> {
  const record = activityRecorder(db);
  const writes: Promise<void>[] = [];
  setAuditSink((event, who, details) => {
    writes.push(record(event, who, details));
  });
  try {
    return await runAdminCommand(db, command, env.adminEmails, imagesOf(env));
  } finally {
    setAuditSink(null);
    await Promise.all(writes);
  }
}

/** Runs the command wherever the database is; null when it cannot be reached (already reported). */
async function execute(
  command: AdminCommand,
  env: Pick<Env, "databaseUrl" | "dataDir" | "adminEmails"> & { s3?: Env["s3"] },
  output: CliOutput,
): Promise<AdminResponse | null> {
  if (env.databaseUrl) {
    const db = await openDb({ databaseUrl: env.databaseUrl });
    try {
      return await runDirect(db, command, env);
    } finally {
      await db.close();
    }
  }

  const socketPath = adminSocketPath(env.dataDir);
  const viaServer = await sendAdminCommand(socketPath, command);
  if (viaServer) return viaServer;

  const dbDir = path.join(env.dataDir, "db");
  if (command.command !== "grant" && !(await exists(dbDir))) {
    output.err(`No database in ${dbDir} yet (the site has not been started with this DATA_DIR).`);
    return null;
  }
  let lock: Awaited<ReturnType<typeof acquireDataDirLock>>;
  try {
    lock = await acquireDataDirLock(dbDir);
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error;
    output.err(
      `The database in ${dbDir} is in use by process ${error.pid}, which does not answer on ${socketPath}.\n` +
        "Nothing was changed. Stop that process (or wait until it finishes) and try again.",
    );
    return null;
  }
  try {
    const db = await openDb({ dataDir: dbDir });
    try {
      return await runDirect(db, command, env);
    } finally {
      await db.close();
    }
  } finally {
    await lock.release();
  }
}

function report(response: AdminResponse, output: CliOutput): number {
  if (!response.ok) {
    const refusal = response.code === "LAST_ADMIN" || response.code === "IN_ADMIN_EMAILS";
    output.err(refusal ? `Refused: ${response.error}` : response.error);
    if (response.code === "INVALID_EMAIL" || response.code === "BAD_REQUEST") return EXIT.usage;
    return response.code === "INTERNAL" ? EXIT.unavailable : EXIT.refused;
  }
  switch (response.command) {
    case "grant": {
      const role = ROLE_LABELS[response.role];
      output.out(
        response.outcome === "created"
          ? `Granted ${role} to ${response.email}.`
          : response.outcome === "changed"
            ? `${response.email} is now ${role}.`
            : `${response.email} is already ${role}.`,
      );
      break;
    }
    case "revoke":
      output.out(`Removed ${response.email} from the staff.`);
      break;
    case "list":
      for (const line of formatAdmins(response.admins)) output.out(line);
      break;
  }
  return EXIT.ok;
}

export function formatAdmins(admins: readonly AdminGrant[]): string[] {
  if (admins.length === 0)
    return ["No staff yet. Add an Owner with: npm run admin -- grant <email>"];
  const rows = admins.map((a) => [
    a.email ?? `(uid ${a.uid})`,
    a.name ?? "",
    ROLE_LABELS[a.role],
    a.lastSignedInAt ? a.lastSignedInAt.slice(0, 16).replace("T", " ") : "not yet",
    a.grantedAt.slice(0, 10),
    a.grantedBy ?? "",
  ]);
  const header = ["EMAIL", "NAME", "ROLE", "LAST SIGN-IN", "GRANTED", "BY"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join("  ")
      .trimEnd();
  return [line(header), ...rows.map(line), `${admins.length} staff.`];
}

/** The image store of this environment (the settings' logo and PDF): DATA_DIR or the bucket. */
function imagesOf(env: Pick<Env, "dataDir"> & { s3?: Env["s3"] }) {
  return createImageStore({ dataDir: env.dataDir, s3: env.s3 ?? null });
}

async function exists(p: string) {
  return fs.stat(p).then(
    () => true,
    () => false,
  );
}
