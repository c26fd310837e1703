// Test helper: child processes standing in for "a server" or "a crashed server". *.test.ts only.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";

/** The PID of a process that has already exited. */
export async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
  await once(child, "exit");
  if (!child.pid) throw new Error("no pid");
  return child.pid;
}

/** A live process that does nothing until stopped. */
export function idleProcess(): ChildProcess & { pid: number } {
  const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
  if (!child.pid) throw new Error("no pid");
  return child as ChildProcess & { pid: number };
}

export async function stop(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, "exit");
  child.kill("SIGTERM");
  await exited;
}

/** A Unix socket file nobody listens on, as a killed server leaves behind. */
export async function staleSocket(socketPath: string) {
  const child = spawn(
    process.execPath,
    [
      "-e",
      "require('node:net').createServer().listen(process.argv[1], () => process.kill(process.pid, 'SIGKILL'))",
      socketPath,
    ],
    { stdio: "ignore" },
  );
  await once(child, "exit");
}

/** Runs a command to completion, collecting its output. */
export async function run(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(command, args, { env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c: Buffer) => {
    stdout += c.toString();
  });
  child.stderr.on("data", (c: Buffer) => {
    stderr += c.toString();
  });
  const [code] = (await once(child, "exit")) as [number | null];
  return { code, stdout, stderr };
}
