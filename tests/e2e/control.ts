// The tests' side of the test server's control port: each command of control-commands.server.ts
// as an async function with the same parameter and result types (results travel as JSON).
import type { ControlCommands } from "./control-commands.server";
import { serverInfo } from "./server-info";

export type Control = {
  [K in keyof ControlCommands]: (
    ...args: Parameters<ControlCommands[K]>
  ) => Promise<Awaited<ReturnType<ControlCommands[K]>>>;
};

async function call(command: string, args: unknown[]) {
  const res = await fetch(serverInfo().controlURL, {
    method: "POST",
    body: JSON.stringify({ command, args }),
  });
  const body = (await res.json()) as { result?: unknown; error?: string };
  if (!res.ok) throw new Error(`control command ${command} failed: ${body.error}`);
  return body.result;
}

export const control = new Proxy({} as Control, {
  // Only string keys are commands (so the object is never mistaken for a promise or iterable).
  get: (_target, name) =>
    typeof name === "string" && name !== "then"
      ? (...args: unknown[]) => call(name, args)
      : undefined,
});
