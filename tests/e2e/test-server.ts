// The real server, plus a control port that only tests use: it runs the commands of
// control-commands.server.ts (the PGlite files belong to this process, so tests cannot open them).
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "react-router";
import { grantAdmin } from "~/features/auth/admins.server";
import { readEnv } from "~/shared/env.server";
import { configureLogging } from "~/shared/logger.server";
import { createApp } from "../../server/app";
import { shutDownOnSignals } from "../../server/graceful-shutdown";
import { applyHttpTimeouts } from "../../server/http-timeouts";
import { startServices } from "../../server/services";
import { startTestSmtp } from "../support/smtp";
import { type ControlCommands, controlCommands } from "./control-commands.server";
import { STANDING_ADMIN } from "./server-info";

// Both servers listen on port 0 first; the site's address (PUBLIC_URL, the sign-in redirect)
// is the port it got, and the ready line reports both ports to global-setup.ts.
const server = applyHttpTimeouts(http.createServer());
const control = http.createServer();
const listening = (s: http.Server) =>
  new Promise<number>((resolve, reject) => {
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => resolve((s.address() as AddressInfo).port));
  });
const [port, controlPort] = [await listening(server), await listening(control)];

// NODE_ENV "development" (only then does it run): the built-in development identity provider
// signs test users in offline. The server listens on loopback only. Every browser of the suite
// is one client (127.0.0.1): page renders are not limited here.
// E-mail goes to a real SMTP server in this process; tests read what arrived (control.mailTo).
const smtp = await startTestSmtp();
const env = readEnv({
  SMTP_URL: smtp.url,
  RENDER_RATE_LIMIT: "100000000",
  INQUIRY_RATE_LIMIT: "100000000",
  // The suite writes to the same few addresses from many tests: the caps are tested elsewhere.
  UNCONFIRMED_MAIL_PER_ADDRESS_PER_DAY: "1000",
  UNCONFIRMED_MAIL_PER_HOUR: "1000000",
  ...process.env,
  NODE_ENV: "development",
  PORT: String(port),
  // A host name, not an address: passkeys (WebAuthn) work on names only, and `localhost` is a
  // secure context over plain http. The server still listens on 127.0.0.1 alone.
  PUBLIC_URL: `http://localhost:${port}`,
});
// Every line to stdout (global-setup.ts shows warnings as they come); the last warnings are kept
// for a failed test's report too (control.outboxSummary), which outlives a long run's scrollback.
const recentWarnings: string[] = [];
configureLogging(env.logLevel, {
  write(line: string) {
    process.stdout.write(line);
    if (/^\{"level":[456]0,/.test(line)) {
      recentWarnings.push(line.trim());
      if (recentWarnings.length > 20) recentWarnings.shift();
    }
  },
});
const services = await startServices(env);
const build = (await import(
  pathToFileURL(path.resolve("build/server/index.js")).href
)) as ServerBuild;
const app = await createApp({ ...services, env, build, clientDir: path.resolve("build/client") });
// A grant nobody signs in with, so that removing a test's admin never meets the last-admin rule.
await grantAdmin(services.db, STANDING_ADMIN, "e2e");

const commands = controlCommands({ ...services, env, smtp, recentWarnings });
server.on("request", app);
control.on("request", async (req, res) => {
  let body = "";
  for await (const chunk of req) body += chunk;
  try {
    const { command, args } = JSON.parse(body) as { command: string; args: unknown[] };
    if (!Object.hasOwn(commands, command)) throw new Error(`unknown command ${command}`);
    const run = commands[command as keyof ControlCommands] as (...a: unknown[]) => unknown;
    const result = await run(...args);
    res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify({ result }));
  } catch (error) {
    res
      .writeHead(500, { "Content-Type": "application/json" })
      .end(JSON.stringify({ error: String((error as Error).stack ?? error) }));
  }
});
console.log(`test-server ready ${JSON.stringify({ port, controlPort })}`);

// The same graceful shutdown as `npm start` (server/graceful-shutdown.ts).
shutDownOnSignals({
  server,
  site: app,
  closeServices: async () => {
    control.close();
    await services.close();
    await smtp.close();
  },
  timeoutMs: env.shutdownTimeoutMs,
});
