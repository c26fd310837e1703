// Debian's nginx for tests and the benchmark, on a port nobody reserved for it. nginx cannot
// listen on port 0 and report the port it got, so: try a random port, and another when nginx
// says "Address already in use"; and count it started only once an answer carries a token
// made for this run, so that a readiness check never passes against another process on that
// port (docs/decisions/0054-servers-report-their-port.md).
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { randomInt, randomUUID } from "node:crypto";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";

/** The header a test configuration adds to every answer, with the run's token. */
export const NGINX_TOKEN_HEADER = "x-test-nginx-run";

export function findNginx(): string | undefined {
  return ["/usr/sbin/nginx", "/usr/bin/nginx"].find((p) => spawnSync(p, ["-v"]).status === 0);
}

/**
 * A random port below the kernel's ephemeral range (which port-0 binds draw from, so no server
 * started the house way can hold it), or anywhere above 10000 if that range starts too low.
 */
function candidatePort(): number {
  let low = 32768;
  try {
    low = Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").split(/\s+/)[0]);
  } catch {
    // Not Linux: keep the usual bound.
  }
  return low > 11_000 ? randomInt(10_000, low) : randomInt(10_000, 65_536);
}

/**
 * Ports `fetch` refuses to connect to (the Fetch standard's "bad ports"; 10080 is the only one
 * above 10000): nginx would listen there, but no readiness check could ever reach it.
 */
const FETCH_REFUSED_PORTS = new Set([10080]);

/** The next port to try that `fetch` can reach. */
function nextPort(draw: () => number): number {
  for (;;) {
    const port = draw();
    if (!FETCH_REFUSED_PORTS.has(port)) return port;
  }
}

export interface NginxStart {
  binary: string;
  /** A directory of its own: the files of `config` are written there; `-p` points at it. */
  prefix: string;
  /** File name → content for this port and token; must include "nginx.conf" (without `daemon`). */
  config(port: number, token: string): Record<string, string>;
  /** Asks the port: did our nginx (with this token) answer, something else, or nothing yet? */
  isOurs(port: number, token: string): Promise<"ours" | "other" | "no answer">;
  attempts?: number;
  timeoutMs?: number;
  /** The ports to try, in order (tests); default: random ones (candidatePort). */
  ports?: () => number;
}

export interface StartedNginx {
  child: ChildProcess;
  port: number;
  token: string;
  /** How many ports were tried (1 unless a port was taken). */
  attempts: number;
  /** Its stdout and stderr so far. */
  output(): string;
}

async function kill(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, "exit");
  child.kill("SIGKILL");
  await exited;
}

export async function startNginxOnSomePort(options: NginxStart): Promise<StartedNginx> {
  const { binary, prefix, attempts = 5, timeoutMs = 10_000 } = options;
  const failures: string[] = [];
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const port = nextPort(options.ports ?? candidatePort);
    const token = randomUUID();
    for (const [name, content] of Object.entries(options.config(port, token))) {
      await fs.writeFile(path.join(prefix, name), content);
    }
    const child = spawn(
      binary,
      ["-c", path.join(prefix, "nginx.conf"), "-p", `${prefix}/`, "-g", "daemon off;"],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    let output = "";
    child.stdout?.on("data", (c: Buffer) => {
      output += c.toString();
    });
    child.stderr?.on("data", (c: Buffer) => {
      output += c.toString();
    });
    const deadline = Date.now() + timeoutMs;
    let verdict: "ours" | "taken" | undefined;
    while (!verdict) {
      const exited = child.exitCode !== null || child.signalCode !== null;
      if (exited) {
        if (/Address already in use/.test(output)) verdict = "taken";
        else throw new Error(`nginx exited (${child.exitCode ?? child.signalCode}): ${output}`);
        break;
      }
      const answer = await options.isOurs(port, token);
      if (answer === "ours") verdict = "ours";
      // Another process holds the port (nginx is still retrying its bind): try another.
      else if (answer === "other") verdict = "taken";
      else if (Date.now() > deadline) {
        await kill(child);
        throw new Error(`nginx not answering on ${port} after ${timeoutMs} ms: ${output}`);
      } else await new Promise((r) => setTimeout(r, 50));
    }
    if (verdict === "ours") return { child, port, token, attempts: attempt, output: () => output };
    await kill(child);
    failures.push(`port ${port}: ${output.trim() || "answered by another process"}`);
  }
  throw new Error(`nginx found no free port in ${attempts} tries:\n${failures.join("\n")}`);
}
