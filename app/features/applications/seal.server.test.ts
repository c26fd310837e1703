import { createCipheriv, createHmac, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  deriveDataKeys,
  emailMac,
  emailMacs,
  seal,
  sealJson,
  unseal,
  unsealJson,
} from "./seal.server";

const key = randomBytes(32);
const context = "application:7:document:2";

describe("seal", () => {
  it("opens with the same key and context, and holds no plaintext", () => {
    const plain = Buffer.from("Ana Renter, 1990-04-01, employer: Acme Hardware");
    const sealed = seal(key, plain, context);
    expect(unseal(key, sealed, context).equals(plain)).toBe(true);
    expect(sealed.includes(Buffer.from("Ana Renter"))).toBe(false);
    expect(sealed.includes(Buffer.from("Acme"))).toBe(false);
    // format byte, 4-byte key id, 12-byte IV, the ciphertext (as long as the plaintext), 16-byte tag
    expect(sealed.length).toBe(1 + 4 + 12 + plain.length + 16);
  });

  it("never seals the same value the same way twice", () => {
    const plain = Buffer.from("same");
    expect(seal(key, plain, context).equals(seal(key, plain, context))).toBe(false);
  });

  it("refuses another key, another context, a changed byte and a truncated value", () => {
    const sealed = seal(key, Buffer.from("income 4200"), context);
    expect(() => unseal(randomBytes(32), sealed, context)).toThrow();
    expect(() => unseal(key, sealed, "application:8:document:2")).toThrow();
    const changed = Buffer.from(sealed);
    changed[20] = (changed[20] as number) ^ 1;
    expect(() => unseal(key, changed, context)).toThrow();
    expect(() => unseal(key, sealed.subarray(0, 20), context)).toThrow("not a sealed value");
  });

  it("seals JSON answers", () => {
    const answers = { fullName: "Ana Renter", income: "4200", note: "é & <b>" };
    expect(unsealJson(key, sealJson(key, answers, "a:1"), "a:1")).toEqual(answers);
  });

  it("takes only a 32-byte key", () => {
    expect(() => seal(randomBytes(16), Buffer.from("x"), context)).toThrow("32 bytes");
  });

  it("seals and indexes with different subkeys of the configured key, never the key itself", () => {
    const keys = deriveDataKeys(key);
    const all = [keys.current.seal, keys.current.index, key];
    expect(new Set(all.map((k) => k.toString("hex"))).size).toBe(3);
    // The index is not an HMAC under the configured key, nor under the seal subkey.
    const mac = emailMac(key, " Eve@Example.com ");
    const under = (k: Buffer) => createHmac("sha256", k).update("eve@example.com").digest("hex");
    expect(mac).toBe(under(keys.current.index));
    expect(mac).not.toBe(under(key));
    expect(mac).not.toBe(under(keys.current.seal));
    // The raw key does not open a sealed value: only its seal subkey does.
    const sealed = seal(key, Buffer.from("x"), context);
    expect(sealed.subarray(1, 5).toString("hex")).toBe(keys.current.id);
    expect(keys.current.id).not.toBe(deriveDataKeys(randomBytes(32)).current.id);
  });

  it("rotation: the previous key still opens what it sealed; new values use the new key", () => {
    const oldKey = randomBytes(32);
    const newKey = randomBytes(32);
    const before = seal(oldKey, Buffer.from("answers"), context);
    const rotated = deriveDataKeys(newKey, oldKey);
    expect(unseal(rotated, before, context).toString()).toBe("answers");
    const after = seal(rotated, Buffer.from("new"), context);
    expect(after.subarray(1, 5).toString("hex")).toBe(rotated.current.id);
    expect(() => unseal(oldKey, after, context)).toThrow("not configured");
    // Without the previous key, what it sealed does not open.
    expect(() => unseal(newKey, before, context)).toThrow();
    // Addresses indexed under either key are found.
    expect(emailMacs(rotated, "a@b.example")).toContain(emailMac(oldKey, "a@b.example"));
    expect(emailMacs(rotated, "a@b.example")).toContain(emailMac(newKey, "a@b.example"));
  });

  it("opens values sealed before subkeys (the configured key itself), and finds their index", () => {
    // Format 1 as stored until now: 1 | IV | ciphertext | tag, AES-256-GCM under the raw key.
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", key, iv);
    cipher.setAAD(Buffer.from(context));
    const body = Buffer.concat([cipher.update(Buffer.from("old answers")), cipher.final()]);
    const legacy = Buffer.concat([Buffer.from([1]), iv, body, cipher.getAuthTag()]);
    expect(unseal(key, legacy, context).toString()).toBe("old answers");
    expect(unseal(deriveDataKeys(randomBytes(32), key), legacy, context).toString()).toBe(
      "old answers",
    );
    expect(() => unseal(randomBytes(32), legacy, context)).toThrow();
    const legacyMac = createHmac("sha256", key).update("eve@example.com").digest("hex");
    expect(emailMacs(key, "Eve@example.com")).toContain(legacyMac);
  });
});
