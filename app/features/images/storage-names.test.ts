import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { listingKey } from "~/domain/listing";
import { DiskImageStore } from "./storage.server";
import { folderName, isFolderName, MAX_NAME_BYTES } from "./storage-names";

const cjk = "北京市朝阳区建国门外大街甲十二号新华保险大厦南楼十八层一八零一室"; // 32 characters

describe("listing folder names", () => {
  it("keep today's name (the URL-encoded key) wherever it fits, so stored URLs stay valid", () => {
    for (const id of ["3233-4th-street-n", "12/14-main-st", "café-row", "a~b*c(d)'e!f"]) {
      expect(folderName(id)).toBe(encodeURIComponent(id));
    }
    const longest = "a".repeat(MAX_NAME_BYTES);
    expect(folderName(longest)).toBe(longest);
    const store = new DiskImageStore("/data/images");
    expect(store.url("properties", "café-row", "image_1_0.jpg")).toBe(
      "/images/properties/caf%25C3%25A9-row/image_1_0.jpg",
    );
  });

  it("stay within the filesystem's limit for any valid address", () => {
    const addresses = [
      cjk,
      `${cjk}${cjk}`.slice(0, 200),
      "🏠".repeat(100), // 200 UTF-16 units, the longest address the form accepts
      "é".repeat(200),
      "a".repeat(MAX_NAME_BYTES + 1),
      "x\ud800y", // a lone surrogate cannot even be URL-encoded
    ];
    for (const address of addresses) {
      const name = folderName(listingKey(address));
      expect(Buffer.byteLength(name), address).toBeLessThanOrEqual(MAX_NAME_BYTES);
      expect(isFolderName(name), address).toBe(true);
    }
    expect(Buffer.byteLength(encodeURIComponent(listingKey(cjk)))).toBeGreaterThan(MAX_NAME_BYTES);
  });

  it("never give two keys one folder, nor a shortened name that equals another key's", () => {
    const a = folderName(`${cjk}-a`);
    const b = folderName(`${cjk}-b`);
    expect(a).not.toBe(b);
    expect(a).toMatch(/@[0-9a-f]{32}$/);
    // encodeURIComponent never leaves '@', so no key's own name can look like a shortened one.
    expect(encodeURIComponent("x@y")).toBe("x%40y");
    expect(folderName("x@y")).toBe("x%40y");
  });

  const root = path.join(os.tmpdir(), `names-${process.pid}-${Date.now()}`);
  afterAll(() => fs.rm(root, { recursive: true, force: true }));

  it("store and find photos of a listing with a 32-character CJK address", async () => {
    const store = new DiskImageStore(root);
    const id = listingKey(cjk);
    const url = await store.save("properties", id, "image_1_0.jpg", Buffer.from("photo"));
    expect(await store.read(url)).toEqual(Buffer.from("photo"));
    const staged = await store.stageRemoval([store.folder("properties", id)]);
    await staged.commit();
    expect(await store.exists(url)).toBe(false);
  });
});
