// Servers that tests and the benchmark start listen on port 0 and say which port they got: no
// port is picked in advance, so no other process can take it between the pick and the bind
// (docs/decisions/0054-servers-report-their-port.md).
import type { ChildProcess } from "node:child_process";

/**
 * The port a server process says it bound: the production server's own log line
 * ("Listening on http://HOST:PORT — …") or a harness line ("listening on port PORT").
 */
export function reportedPort(output: string): number | undefined {
  const match =
    /Listening on http:\/\/\S+:(\d+)\b/.exec(output) ?? /listening on port (\d+)\b/.exec(output);
  const port = match ? Number(match[1]) : undefined;
  return port && port > 0 ? port : undefined;
}

/**
 * Waits until `child` reports its bound port in its `output()`; fails if it exits first or
 * says nothing within `timeoutMs`. The port is the child's own for as long as it lives.
 */
export async function waitForReportedPort(
  child: ChildProcess,
  output: () => string,
  { timeoutMs = 60_000, what = "server" } = {},
): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const port = reportedPort(output());
    if (port) return port;
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${what} exited (${child.exitCode ?? child.signalCode}):\n${output()}`);
    }
    if (Date.now() > deadline) {
      throw new Error(`${what} reported no port in ${timeoutMs} ms:\n${output()}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Node code for `node -e`: imports the production bundle given as argv[1], starts it with
 * process.env (PORT=0: the system picks the port) and prints "listening on port PORT" once
 * bound, whatever LOG_LEVEL says. Every answer carries `x-test-instance: $TEST_INSTANCE_TOKEN`,
 * so a readiness check can tell this process from any other.
 */
export const START_BUNDLE_REPORTING_PORT = `
const { startServer } = await import(process.argv[1]);
const server = await startServer(process.env);
const token = process.env.TEST_INSTANCE_TOKEN;
if (token) server.prependListener("request", (_req, res) => res.setHeader("x-test-instance", token));
const report = () => console.log("listening on port " + server.address().port);
if (server.listening) report(); else server.once("listening", report);
`;
