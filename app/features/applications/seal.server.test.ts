import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { seal, sealJson, unseal, unsealJson } from "./seal.server";

const key = randomBytes(32);
const context = "application:7:document:2";

describe("seal", () => {
  it("opens with the same key and context, and holds no plaintext", () => {
    const plain = Buffer.from("Ana Renter, 1990-04-01, employer: Acme Hardware");
    const sealed = seal(key, plain, context);
    expect(unseal(key, sealed, context).equals(plain)).toBe(true);
    expect(sealed.includes(Buffer.from("Ana Renter"))).toBe(false);
    expect(sealed.includes(Buffer.from("Acme"))).toBe(false);
    // format byte, 12-byte IV, the ciphertext (as long as the plaintext), 16-byte tag
    expect(sealed.length).toBe(1 + 12 + plain.length + 16);
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
});
