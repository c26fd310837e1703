// `npm start` runs the built bundle on plain node: the test refuses, inside the server process,
// any TypeScript file, the tsx loader and any module from the app's sources.
import { type ChildProcess, execFile, spawn } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { waitForReportedPort } from "../scripts/shared/listening";

const root = path.resolve(import.meta.dirname, "..");

/** A module hook that makes loading any TypeScript or any source module fail. */
const guard = `
const root = ${JSON.stringify(`file://${root}/`)};
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  const url = result.url;
  if (/\\.(ts|tsx|mts|cts)$/.test(new URL(url).pathname) || /\\/node_modules\\/tsx\\//.test(url)
      || url.startsWith(root + "app/") || url.startsWith(root + "server/")) {
    throw new Error("loaded at run time: " + url);
  }
  return result;
}`;
const register = `import { register } from "node:module"; register(${JSON.stringify(
  `data:text/javascript,${encodeURIComponent(guard)}`,
)});`;

describe("npm start", () => {
  let child: ChildProcess | undefined;
  let dataDir = "";
  afterAll(async () => {
    if (child && child.exitCode === null) child.kill("SIGKILL");
    if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
  });

  it("serves the site from the built bundle, with no TypeScript and no source module loaded", async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "start-test-"));
    child = spawn(process.execPath, ["scripts/start.mjs"], {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        // Through NODE_OPTIONS, so that any node process the start script spawns is guarded too.
        NODE_OPTIONS: `--import data:text/javascript,${encodeURIComponent(register)}`,
        NODE_ENV: "production",
        PORT: "0",
        HOST: "127.0.0.1",
        DATA_DIR: dataDir,
        SEED_DEMO: "false",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let log = "";
    child.stdout?.on("data", (d: Buffer) => {
      log += d;
    });
    child.stderr?.on("data", (d: Buffer) => {
      log += d;
    });
    // PORT=0: the port the system gave it, from its "Listening on" line.
    const port = await waitForReportedPort(child, () => log, { what: "npm start" });
    expect(log).toContain(`Listening on http://127.0.0.1:${port}`);
    const page = await fetch(`http://127.0.0.1:${port}/about`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("<h1");
    expect(log).not.toContain("Building the site");
    expect(log).not.toContain("loaded at run time");

    // The first Owner of a fresh install, with no identity provider and no mail server
    // (docs/behaviour.md §6, "Staff sign-in"): the admin CLI grants and prints a sign-in link.
    const base = `http://127.0.0.1:${port}`;
    const cli = (...args: string[]) =>
      new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
        execFile(
          process.execPath,
          ["scripts/admin.mjs", ...args],
          {
            cwd: root,
            env: {
              PATH: process.env.PATH,
              NODE_ENV: "production",
              DATA_DIR: dataDir,
              PUBLIC_URL: base,
            },
          },
          (error, stdout, stderr) =>
            resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
        );
      });
    expect((await cli("grant", "first-owner@example.com")).stdout.trim()).toBe(
      "Granted Owner to first-owner@example.com.",
    );
    const printed = await cli("sign-in-link", "first-owner@example.com");
    expect(printed.code, printed.stderr).toBe(0);
    const link = printed.stdout.trim();
    expect(link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/sign-in\/link\?token=[\w-]{43}$/);
    // Opening the link signs nobody in (link scanners open links too); its button does, once.
    const opened = await fetch(link);
    expect(opened.status).toBe(200);
    expect(opened.headers.get("set-cookie")).toBeNull();
    const token = new URL(link).searchParams.get("token") ?? "";
    const signIn = () =>
      fetch(`${base}/sign-in/link`, {
        method: "POST",
        body: new URLSearchParams({ token }),
        redirect: "manual",
      });
    const signedIn = await signIn();
    expect(signedIn.status).toBe(302);
    const cookie = (signedIn.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    const staff = await fetch(`${base}/admin/staff`, { headers: { cookie } });
    expect(staff.status).toBe(200);
    expect(await staff.text()).toContain("first-owner@example.com");
    expect((await signIn()).status).toBe(400);

    const exited = new Promise<number | null>((resolve) => child?.once("exit", resolve));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    // Three processes each open a new embedded database (the server's first one creates it):
    // 8-12 s on a quiet 2-core machine, over 30 s while other suites load it. The start itself
    // has its own 60 s bound (waitForReportedPort).
  }, 120_000);
});
