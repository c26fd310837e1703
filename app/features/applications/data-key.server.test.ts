import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DATA_KEY_FILE, loadDataKey, parseDataKey } from "./data-key.server";

let dataDir = "";
beforeEach(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "data-key-"));
});
afterEach(async () => {
  await fs.rm(dataDir, { recursive: true, force: true });
});

describe("the applications' data key", () => {
  it("takes APPLICATION_DATA_KEY as 32 bytes of base64, and says what is wrong otherwise", async () => {
    const key = randomBytes(32);
    const loaded = await loadDataKey({
      configured: key.toString("base64"),
      production: true,
      dataDir,
    });
    expect(loaded?.equals(key)).toBe(true);
    expect(() => parseDataKey(randomBytes(16).toString("base64"))).toThrow(
      "APPLICATION_DATA_KEY must be 32 bytes in base64",
    );
    expect(() => parseDataKey("not base64 at all!")).toThrow("32 bytes in base64");
    // Nothing is written when the key is given.
    expect(await fs.readdir(dataDir)).toEqual([]);
  });

  it("in production without it there is no key (applications are refused), and none is made", async () => {
    expect(await loadDataKey({ production: true, dataDir })).toBeNull();
    expect(await fs.readdir(dataDir)).toEqual([]);
  });

  it("elsewhere makes one into DATA_DIR, owner-only, and keeps using it", async () => {
    const first = await loadDataKey({ production: false, dataDir });
    const file = path.join(dataDir, DATA_KEY_FILE);
    expect(((await fs.stat(file)).mode & 0o777).toString(8)).toBe("600");
    expect(first?.length).toBe(32);
    const again = await loadDataKey({ production: false, dataDir });
    expect(again?.equals(first as Buffer)).toBe(true);
  });

  it("makes one key when several instances start at once", async () => {
    const keys = await Promise.all(
      Array.from({ length: 8 }, () => loadDataKey({ production: false, dataDir })),
    );
    const distinct = new Set(keys.map((k) => k?.toString("base64")));
    expect(distinct.size).toBe(1);
  });
});
