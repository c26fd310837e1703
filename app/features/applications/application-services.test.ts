// Where the data key comes from at start (docs/behaviour.md §32; docs/decisions/0076): a
// production server other computers reach never makes one into DATA_DIR, and says what to set.
import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { readEnv } from "~/shared/env.server";
import { configureLogging } from "~/shared/logger.server";
import { createApplicationServices } from "./index.server";

let dataDir = "";
let lines: string[] = [];
beforeEach(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "application-services-"));
  lines = [];
  configureLogging("info", { write: (line: string) => lines.push(line) });
});
afterEach(() => fs.rm(dataDir, { recursive: true, force: true }));

const start = (vars: Record<string, string>) =>
  createApplicationServices(
    readEnv({ NODE_ENV: "production", DATA_DIR: dataDir, PORT: "3000", ...vars }),
  );

it("closes applications on a network address with the default PUBLIC_URL, and says what to set", async () => {
  for (const host of ["0.0.0.0", "192.0.2.10", "::"]) {
    lines = [];
    const services = await start({ HOST: host });
    expect({ host, key: services.key, vault: services.vault }).toEqual({
      host,
      key: null,
      vault: null,
    });
    expect(await fs.readdir(dataDir)).toEqual([]);
    const said = lines.join("");
    expect(said).toContain("Online applications are closed");
    expect(said).toContain(`HOST=${host}`);
    expect(said).toContain("Set APPLICATION_DATA_KEY");
    expect(said).toContain("PUBLIC_URL");
    expect(said).toContain("HOST=127.0.0.1");
  }
});

it("still makes a key for a trial on this computer, and takes a configured one anywhere", async () => {
  const trial = await start({ HOST: "127.0.0.1" });
  expect(trial.key?.current.legacy.length).toBe(32);
  expect(await fs.readdir(dataDir)).toEqual(["application-data.key"]);
  const key = randomBytes(32);
  const given = await start({ HOST: "0.0.0.0", APPLICATION_DATA_KEY: key.toString("base64") });
  expect(given.key?.current.legacy.equals(key)).toBe(true);
});

it("does not use a key made earlier beside the data, and says where it is", async () => {
  await start({ HOST: "127.0.0.1" });
  lines = [];
  const services = await start({ HOST: "0.0.0.0" });
  expect(services.key).toBeNull();
  expect(lines.join("")).toContain(path.join(dataDir, "application-data.key"));
});

it("logs what to set for a deployment without the key", async () => {
  const services = await start({ HOST: "0.0.0.0", PUBLIC_URL: "https://leasing.example.com" });
  expect(services.key).toBeNull();
  expect(lines.join("")).toContain("Set APPLICATION_DATA_KEY");
});
