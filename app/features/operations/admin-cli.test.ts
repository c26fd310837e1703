// The admin CLI against an embedded database: through a running server's socket, directly
// when no server runs, and refusing when the database is held by a process that does not answer.
import fs from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { isAdmin, listAdmins } from "~/features/auth/index.server";
import { type Db, openDb } from "~/shared/db.server";
import { missing } from "../../../tests/support/prerequisite";
import { runAdminCli } from "./admin-cli.server";
import { adminSocketPath, startAdminSocket } from "./admin-socket.server";
import { acquireDataDirLock, type DataDirLock, lockPathFor } from "./data-dir-lock.server";
import { deadPid, idleProcess, run, staleSocket, stop } from "./test-processes";

function capture() {
  const lines = { out: [] as string[], err: [] as string[] };
  return {
    lines,
    io: { out: (l: string) => lines.out.push(l), err: (l: string) => lines.err.push(l) },
    get out() {
      return lines.out.join("\n");
    },
    get err() {
      return lines.err.join("\n");
    },
  };
}

const exists = (p: string) =>
  fs.access(p).then(
    () => true,
    () => false,
  );

const verified = (sub: string, email: string) => ({
  issuer: "https://id.example",
  sub,
  email,
  emailVerified: true,
  name: null,
});

const LISTED_REFUSAL =
  "Cannot revoke listed@example.com: it is listed in ADMIN_EMAILS, which grants admin again at every start. Remove it from ADMIN_EMAILS and restart the server first.";

let root: string;
let env: { databaseUrl: undefined; dataDir: string; adminEmails: string[] };
beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), "admin-cli-"));
  env = { databaseUrl: undefined, dataDir: root, adminEmails: [] };
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

describe("admin CLI with a running server (admin socket)", () => {
  let db: Db;
  let lock: DataDirLock;
  let socket: Awaited<ReturnType<typeof startAdminSocket>>;
  beforeAll(async () => {
    db = await openDb({ dataDir: "memory://" });
  });
  afterAll(async () => db?.close());
  beforeEach(async () => {
    await db.query("DELETE FROM admins");
    // What the server does: hold the data directory, open the database, listen on the socket.
    lock = await acquireDataDirLock(path.join(root, "db"));
    socket = await startAdminSocket(db, root, []);
  });
  afterEach(async () => {
    await socket.close();
    await lock.release();
  });

  it("prints a single-use sign-in link for staff, through the server", async () => {
    const linkEnv = { ...env, publicUrl: "https://site.example/" };
    let c = capture();
    expect(await runAdminCli(["sign-in-link", "nobody@example.com"], linkEnv, c.io)).toBe(1);
    expect(c.err).toBe("nobody@example.com is not staff.");
    await runAdminCli(["grant", "first@example.com"], env, capture().io);
    c = capture();
    expect(await runAdminCli(["sign-in-link", "First@example.com"], linkEnv, c.io)).toBe(0);
    expect(c.out).toMatch(/^https:\/\/site\.example\/sign-in\/link\?token=[\w-]{43}$/);
    expect(c.err).toContain("valid for 15 minutes");
    const token = c.out.split("token=")[1] ?? "";
    const [row] = await db.query<{ email: string; kind: string }>(
      "SELECT email, kind FROM sign_in_codes",
    );
    expect(row).toEqual({ email: "first@example.com", kind: "link" });
    // Only its hash is stored.
    expect(JSON.stringify(await db.query("SELECT * FROM sign_in_codes"))).not.toContain(token);
  });

  it("listens on DATA_DIR/admin.sock, owner-only, and removes it on close", async () => {
    expect(socket.path).toBe(path.join(root, "admin.sock"));
    const stat = await fs.stat(socket.path);
    expect(stat.isSocket()).toBe(true);
    expect(stat.mode & 0o777).toBe(0o600);
    await expect(startAdminSocket(db, root, [])).rejects.toThrow(/already serving/);
  });

  it("grants, lists and revokes through the server, refusing the last admin", async () => {
    let c = capture();
    expect(await runAdminCli(["grant", " Boss@Example.com "], env, c.io)).toBe(0);
    expect(c.out).toBe("Granted Owner to boss@example.com.");
    expect(await isAdmin(db, verified("u1", "boss@example.com"))).toBe(true);

    c = capture();
    expect(await runAdminCli(["grant", "boss@example.com"], env, c.io)).toBe(0);
    expect(c.out).toBe("boss@example.com is already Owner.");

    c = capture();
    expect(await runAdminCli(["list"], env, c.io)).toBe(0);
    expect(c.lines.out[0]).toMatch(/^EMAIL\s+NAME\s+ROLE\s+LAST SIGN-IN\s+GRANTED\s+BY$/);
    expect(c.lines.out[1]).toMatch(
      /^boss@example\.com\s+Owner\s+not yet\s+\d{4}-\d\d-\d\d\s+admin CLI$/,
    );
    expect(c.lines.out[2]).toBe("1 staff.");

    // Another role: `--role`, and for someone already staff, their role changes.
    c = capture();
    expect(
      await runAdminCli(["grant", "agent@example.com", "--role", "leasing-agent"], env, c.io),
    ).toBe(0);
    expect(c.out).toBe("Granted Leasing agent to agent@example.com.");
    c = capture();
    expect(await runAdminCli(["grant", "--role=viewer", "agent@example.com"], env, c.io)).toBe(0);
    expect(c.out).toBe("agent@example.com is now Viewer.");
    c = capture();
    expect(await runAdminCli(["list"], env, c.io)).toBe(0);
    expect(c.lines.out[1]).toMatch(/^agent@example\.com\s+Viewer\s+not yet\s/);
    c = capture();
    expect(await runAdminCli(["grant", "x@example.com", "--role", "admin"], env, c.io)).toBe(2);
    expect(c.err).toBe("The role must be one of: owner, manager, leasing-agent, viewer.");
    // The last Owner cannot be demoted from here either.
    c = capture();
    expect(await runAdminCli(["grant", "boss@example.com", "--role", "manager"], env, c.io)).toBe(
      1,
    );
    expect(c.err).toBe("Refused: Cannot remove or demote the last Owner.");
    expect(await runAdminCli(["revoke", "agent@example.com"], env, capture().io)).toBe(0);

    c = capture();
    expect(await runAdminCli(["revoke", "boss@example.com"], env, c.io)).toBe(1);
    expect(c.err).toBe("Refused: Cannot remove or demote the last Owner.");
    expect(await listAdmins(db)).toHaveLength(1);

    await runAdminCli(["grant", "second@example.com"], env, capture().io);
    c = capture();
    expect(await runAdminCli(["revoke", "boss@example.com"], env, c.io)).toBe(0);
    expect(c.out).toBe("Removed boss@example.com from the staff.");

    c = capture();
    expect(await runAdminCli(["revoke", "boss@example.com"], env, c.io)).toBe(1);
    expect(c.err).toBe("boss@example.com is not an admin.");

    // The CLI never opened the database files itself.
    expect(await exists(path.join(root, "db"))).toBe(false);
  });

  it("refuses to revoke an address in the server's ADMIN_EMAILS, exit 1", async () => {
    await socket.close();
    socket = await startAdminSocket(db, root, ["listed@example.com"]);
    let c = capture();
    expect(await runAdminCli(["grant", "listed@example.com"], env, c.io)).toBe(0);
    expect(await runAdminCli(["grant", "other@example.com"], env, c.io)).toBe(0);
    c = capture();
    expect(await runAdminCli(["revoke", "listed@example.com"], env, c.io)).toBe(1);
    expect(c.err).toBe(`Refused: ${LISTED_REFUSAL}`);
    expect(await isAdmin(db, verified("u1", "listed@example.com"))).toBe(true);
  });

  it("rejects bad input before contacting anyone", async () => {
    for (const args of [
      [],
      ["grant"],
      ["grant", "a@b.co", "extra"],
      ["delete", "a@b.co"],
      ["list", "x"],
    ]) {
      const c = capture();
      expect(await runAdminCli(args, env, c.io)).toBe(2);
      expect(c.err).toContain("Usage: npm run admin -- <command>");
    }
    const c = capture();
    expect(await runAdminCli(["grant", "not-an-email"], env, c.io)).toBe(2);
    expect(c.err).toBe('Invalid email address: "not-an-email".');
    const help = capture();
    expect(await runAdminCli(["--help"], env, help.io)).toBe(0);
    expect(help.out).toContain("revoke <email>");
  });

  it("the server answers malformed requests without crashing", async () => {
    const ask = (line: string) =>
      new Promise<string>((resolve, reject) => {
        const s = net.connect(socket.path);
        let data = "";
        s.on("data", (d) => {
          data += d.toString();
        });
        s.on("end", () => resolve(data));
        s.on("error", reject);
        s.write(line);
      });
    expect(JSON.parse(await ask("not json\n"))).toMatchObject({ ok: false, code: "BAD_REQUEST" });
    expect(JSON.parse(await ask('{"command":"drop"}\n'))).toMatchObject({
      ok: false,
      code: "BAD_REQUEST",
    });
    expect(JSON.parse(await ask(`${"x".repeat(20_000)}`))).toMatchObject({
      ok: false,
      code: "BAD_REQUEST",
    });
    expect(JSON.parse(await ask('{"command":"grant","email":"bad"}\n'))).toMatchObject({
      ok: false,
      code: "INVALID_EMAIL",
    });
    expect(JSON.parse(await ask('{"command":"list"}\n'))).toEqual({
      ok: true,
      command: "list",
      admins: [],
    });
  });

  it("works as `npm run admin` (the bundled CLI in its own process)", async () => {
    const result = await run(
      process.execPath,
      ["scripts/admin.mjs", "grant", "script@example.com"],
      { ...process.env, DATA_DIR: root, DATABASE_URL: "" },
    );
    expect(result.stderr).toBe("");
    expect(result.stdout.trim()).toBe("Granted Owner to script@example.com.");
    expect(result.code).toBe(0);
    expect(await isAdmin(db, verified("u9", "script@example.com"))).toBe(true);
  });
});

describe("admin CLI without a running server", () => {
  it("takes the lock, opens the database itself, and releases the lock", async () => {
    let c = capture();
    expect(await runAdminCli(["list"], env, c.io)).toBe(3);
    expect(c.err).toContain("No database in");

    c = capture();
    expect(await runAdminCli(["grant", "first@example.com"], env, c.io)).toBe(0);
    expect(c.out).toBe("Granted Owner to first@example.com.");
    expect(await exists(lockPathFor(path.join(root, "db")))).toBe(false);

    c = capture();
    expect(await runAdminCli(["revoke", "first@example.com"], env, c.io)).toBe(1);
    expect(c.err).toBe("Refused: Cannot remove or demote the last Owner.");

    // The server, started later, sees the grant, and 'Activity' shows who made it.
    const db = await openDb({ dataDir: path.join(root, "db") });
    try {
      expect(await isAdmin(db, verified("u1", "first@example.com"))).toBe(true);
      const events = await db.query<{ who: string; kind: string }>(
        "SELECT who, kind FROM activity_events WHERE details->>'email' = 'first@example.com'",
      );
      expect(events).toContainEqual({ who: "admin CLI", kind: "admin granted" });
    } finally {
      await db.close();
    }
  });

  it("refuses to revoke an address in its own ADMIN_EMAILS, exit 1", async () => {
    const listedEnv = { ...env, adminEmails: ["listed@example.com"] };
    let c = capture();
    expect(await runAdminCli(["grant", "listed@example.com"], listedEnv, c.io)).toBe(0);
    c = capture();
    // (Refused for that reason before the last-admin rule is even asked.)
    expect(await runAdminCli(["revoke", "Listed@example.com"], listedEnv, c.io)).toBe(1);
    expect(c.err).toBe(`Refused: ${LISTED_REFUSAL}`);
  });

  it("ignores a stale socket and a stale lock left by a crashed server", async () => {
    await staleSocket(adminSocketPath(root));
    expect((await fs.stat(adminSocketPath(root))).isSocket()).toBe(true);
    await fs.writeFile(lockPathFor(path.join(root, "db")), `${await deadPid()}\n`);
    const c = capture();
    expect(await runAdminCli(["grant", "after-crash@example.com"], env, c.io)).toBe(0);
    expect(c.out).toBe("Granted Owner to after-crash@example.com.");

    // And a server starting there replaces the stale socket.
    const db = await openDb({ dataDir: "memory://" });
    const socket = await startAdminSocket(db, root, []);
    await socket.close();
    await db.close();
  });
});

describe("admin CLI when a live process holds the database but does not answer", () => {
  const holder = idleProcess();
  afterAll(async () => stop(holder));

  beforeEach(async () => {
    await fs.writeFile(lockPathFor(path.join(root, "db")), `${holder.pid}\n`);
  });

  it("refuses with a clear message and touches nothing", async () => {
    const c = capture();
    expect(await runAdminCli(["grant", "x@example.com"], env, c.io)).toBe(3);
    expect(c.err).toContain(
      `in use by process ${holder.pid}, which does not answer on ${adminSocketPath(root)}`,
    );
    expect(c.err).toContain("Nothing was changed.");
    expect(await exists(path.join(root, "db"))).toBe(false);
    expect((await fs.readFile(lockPathFor(path.join(root, "db")), "utf8")).trim()).toBe(
      String(holder.pid),
    );
  });

  it("exits non-zero from the script too", async () => {
    await fs.mkdir(path.join(root, "db"));
    const result = await run(process.execPath, ["scripts/admin.mjs", "list"], {
      ...process.env,
      DATA_DIR: root,
      DATABASE_URL: "",
    });
    expect(result.code).toBe(3);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain(`in use by process ${holder.pid}`);
    expect(await fs.readdir(path.join(root, "db"))).toEqual([]);
  });
});

const serverUrl = process.env.TEST_DATABASE_URL;
describe.skipIf(missing(!serverUrl && "TEST_DATABASE_URL is not set"))(
  "admin CLI with DATABASE_URL (PostgreSQL)",
  () => {
    it("connects directly", async () => {
      const schema = `test_cli_${Date.now()}`;
      const admin = new pg.Client({ connectionString: serverUrl });
      await admin.connect();
      await admin.query(`CREATE SCHEMA ${schema}`);
      try {
        const url = new URL(serverUrl as string);
        url.searchParams.set("options", `-c search_path=${schema}`);
        const pgEnv = { databaseUrl: url.toString(), dataDir: root, adminEmails: [] };
        let c = capture();
        expect(await runAdminCli(["grant", "pg@example.com"], pgEnv, c.io)).toBe(0);
        c = capture();
        expect(await runAdminCli(["list"], pgEnv, c.io)).toBe(0);
        expect(c.out).toContain("pg@example.com");
        c = capture();
        expect(await runAdminCli(["revoke", "pg@example.com"], pgEnv, c.io)).toBe(1);
        expect(c.err).toBe("Refused: Cannot remove or demote the last Owner.");
        // Neither lock nor socket is involved with a database server.
        expect(await exists(path.join(root, "db"))).toBe(false);
      } finally {
        // The scheduler's tables are in a schema beside it (scheduler.server.ts).
        await admin.query(`DROP SCHEMA ${schema} CASCADE`);
        await admin.query(`DROP SCHEMA IF EXISTS ${schema}_jobs CASCADE`);
        await admin.end();
      }
    });
  },
);
