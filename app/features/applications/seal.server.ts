// Applications' answers and documents are stored sealed: AES-256-GCM under APPLICATION_DATA_KEY
// (issue 22 item 7). Each sealed value is bound to what it belongs to (its `context`, e.g.
// "application:17:document:3"), so a value copied onto another record does not open.
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

/** The first byte of every sealed value: the format, so a later one can be told apart. */
const FORMAT = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;
export const DATA_KEY_BYTES = 32;

/** Encrypts `plain` under `key`, bound to `context`: format | IV | ciphertext | tag. */
export function seal(key: Buffer, plain: Buffer, context: string): Buffer {
  if (key.length !== DATA_KEY_BYTES) throw new Error("the data key must be 32 bytes");
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(context, "utf8"));
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([Buffer.from([FORMAT]), iv, body, cipher.getAuthTag()]);
}

/** Decrypts what seal() made for the same key and context; throws if anything differs. */
export function unseal(key: Buffer, sealed: Buffer, context: string): Buffer {
  if (sealed.length < 1 + IV_BYTES + TAG_BYTES || sealed[0] !== FORMAT) {
    throw new Error("not a sealed value");
  }
  const iv = sealed.subarray(1, 1 + IV_BYTES);
  const tag = sealed.subarray(sealed.length - TAG_BYTES);
  const decipher = createDecipheriv("aes-256-gcm", key, iv);
  decipher.setAAD(Buffer.from(context, "utf8"));
  decipher.setAuthTag(tag);
  return Buffer.concat([
    decipher.update(sealed.subarray(1 + IV_BYTES, sealed.length - TAG_BYTES)),
    decipher.final(),
  ]);
}

/** seal() for a JSON value (an application's answers). */
export const sealJson = (key: Buffer, value: unknown, context: string) =>
  seal(key, Buffer.from(JSON.stringify(value), "utf8"), context);

export const unsealJson = <T>(key: Buffer, sealed: Buffer, context: string): T =>
  JSON.parse(unseal(key, sealed, context).toString("utf8")) as T;
