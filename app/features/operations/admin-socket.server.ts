// A local control socket (Unix domain, owner-only) on which the running server answers the
// admin CLI, because an embedded PGlite database can be open in one process only.
// Protocol: one JSON request line, one JSON response line (AdminCommand → AdminResponse).
import fs from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import type { ImageStore } from "~/features/images/index.server";
import type { Db } from "~/shared/db.server";
import { log } from "~/shared/logger.server";
import { makePrivateDir } from "~/shared/private-files.server";
import {
  type AdminCommand,
  type AdminResponse,
  adminCommandSchema,
  runAdminCommand,
} from "./admin-commands.server";

export const ADMIN_SOCKET_NAME = "admin.sock";
const MAX_REQUEST_BYTES = 16 * 1024;
/** A settings import carries its logo and PDF (docs/behaviour.md §23): room for both. */
const MAX_IMPORT_BYTES = 80 * 1024 * 1024;
const IMPORT_PREFIX = '{"command":"settings-import"';
const IDLE_TIMEOUT_MS = 10_000;
/** sockaddr_un.sun_path is 108 bytes on Linux (104 on macOS), including the final NUL. */
const MAX_SOCKET_PATH_BYTES = 103;

export function adminSocketPath(dataDir: string): string {
  return path.join(path.resolve(dataDir), ADMIN_SOCKET_NAME);
}

/**
 * Other commands the running server answers on the same socket (e.g. `backup`, composed in
 * server/services.ts): a request object in, a response object out; no idle limit while it runs.
 */
export type ExtraSocketCommands = Record<
  string,
  (request: Record<string, unknown>) => Promise<{ ok: boolean } & Record<string, unknown>>
>;

/**
 * Listens on DATA_DIR/admin.sock (mode 0600). Call after taking the data directory's lock.
 * `adminEmails`: this server's ADMIN_EMAILS, whose revocation is refused.
 */
export async function startAdminSocket(
  db: Db,
  dataDir: string,
  adminEmails: readonly string[],
  extra: ExtraSocketCommands = {},
  /** The image store, for the settings commands (docs/behaviour.md §23). */
  images?: ImageStore,
): Promise<{ path: string; close(): Promise<void> }> {
  const socketPath = adminSocketPath(dataDir);
  if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH_BYTES) {
    throw new Error(
      `The admin socket path is too long for the operating system (${socketPath}); use a shorter DATA_DIR.`,
    );
  }
  await makePrivateDir(path.dirname(socketPath));
  await removeStaleSocket(socketPath);

  const connections = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    connections.add(socket);
    socket.on("close", () => connections.delete(socket));
    void serveConnection(db, socket, adminEmails, extra, images);
  });
  await listenOwnerOnly(server, socketPath);
  return {
    path: socketPath,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of connections) socket.destroy();
      await closed;
      await fs.rm(socketPath, { force: true });
    },
  };
}

/** Creates the socket with no group/other permissions from the first moment (umask), then checks. */
async function listenOwnerOnly(server: net.Server, socketPath: string) {
  // process.umask() cannot be set in worker threads; chmod below still closes the socket then.
  let previous: number | undefined;
  try {
    previous = process.umask(0o177);
  } catch {
    previous = undefined;
  }
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      // The socket file is created synchronously inside listen(), while the umask applies.
      server.listen(socketPath, () => {
        server.off("error", reject);
        resolve();
      });
    });
  } finally {
    if (previous !== undefined) process.umask(previous);
  }
  await fs.chmod(socketPath, 0o600);
}

/** A socket file left by a crashed server answers nothing: remove it. A live one is an error. */
async function removeStaleSocket(socketPath: string) {
  const answer = await probe(socketPath);
  if (answer === "listening") {
    throw new Error(`Another process is already serving the admin socket ${socketPath}.`);
  }
  if (answer === "stale") await fs.rm(socketPath, { force: true });
}

function probe(socketPath: string): Promise<"absent" | "stale" | "listening"> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(socketPath);
    socket.once("connect", () => {
      socket.destroy();
      resolve("listening");
    });
    socket.once("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") resolve("absent");
      else if (error.code === "ECONNREFUSED") resolve("stale");
      else reject(error);
    });
  });
}

async function serveConnection(
  db: Db,
  socket: net.Socket,
  adminEmails: readonly string[],
  extra: ExtraSocketCommands,
  images?: ImageStore,
) {
  socket.setTimeout(IDLE_TIMEOUT_MS, () => socket.destroy());
  socket.on("error", () => socket.destroy());
  let line: string;
  try {
    line = await readLine(socket);
  } catch {
    return reply(socket, { ok: false, code: "BAD_REQUEST", error: "Request too large." });
  }
  let command: AdminCommand;
  try {
    const request = JSON.parse(line) as Record<string, unknown>;
    const handler =
      typeof request?.command === "string" && Object.hasOwn(extra, request.command)
        ? extra[request.command]
        : undefined;
    if (handler) {
      socket.setTimeout(0);
      try {
        return reply(socket, await handler(request));
      } catch (error) {
        return reply(socket, { ok: false, code: "INTERNAL", error: (error as Error).message });
      }
    }
    const parsed = adminCommandSchema.safeParse(request);
    if (!parsed.success) throw new Error("invalid");
    command = parsed.data;
  } catch {
    return reply(socket, {
      ok: false,
      code: "BAD_REQUEST",
      error: "Unknown or malformed command.",
    });
  }
  try {
    reply(socket, await runAdminCommand(db, command, adminEmails, images));
  } catch (error) {
    log().error({ err: error }, "Admin command failed");
    reply(socket, { ok: false, code: "INTERNAL", error: "The server could not run the command." });
  }
}

/** The first line the client sends (or all it sent before closing), at most MAX_REQUEST_BYTES. */
function readLine(socket: net.Socket): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffer = "";
    const limit = () => (buffer.startsWith(IMPORT_PREFIX) ? MAX_IMPORT_BYTES : MAX_REQUEST_BYTES);
    const onData = (chunk: string) => {
      buffer += chunk;
      const end = buffer.indexOf("\n");
      if (end >= 0) finish(() => resolve(buffer.slice(0, end)));
      else if (buffer.length > limit()) finish(() => reject(new Error("too large")));
    };
    const onEnd = () => finish(() => resolve(buffer));
    const finish = (settle: () => void) => {
      socket.off("data", onData);
      socket.off("end", onEnd);
      settle();
    };
    socket.setEncoding("utf8");
    socket.on("data", onData);
    socket.once("end", onEnd);
  });
}

function reply(socket: net.Socket, response: AdminResponse | { ok: boolean }) {
  if (!socket.destroyed) socket.end(`${JSON.stringify(response)}\n`);
}

/**
 * CLI side: sends one command to a running server. Returns null when no server listens there
 * (no socket file, or a stale one), so the caller can open the database itself.
 */
export function sendAdminCommand(
  socketPath: string,
  command: AdminCommand,
  timeoutMs = 15_000,
): Promise<AdminResponse | null> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(socketPath);
    let connected = false;
    let buffer = "";
    socket.setEncoding("utf8");
    socket.setTimeout(timeoutMs, () => {
      socket.destroy();
      reject(new Error(`The server did not answer on ${socketPath} within ${timeoutMs / 1000} s.`));
    });
    socket.once("connect", () => {
      connected = true;
      socket.write(`${JSON.stringify(command)}\n`);
    });
    socket.on("data", (chunk: string) => {
      buffer += chunk;
    });
    socket.once("end", () => {
      try {
        resolve(JSON.parse(buffer) as AdminResponse);
      } catch {
        reject(new Error(`The server sent an unreadable answer on ${socketPath}.`));
      }
    });
    socket.once("error", (error: NodeJS.ErrnoException) => {
      if (!connected && (error.code === "ENOENT" || error.code === "ECONNREFUSED")) resolve(null);
      else reject(error);
    });
  });
}
