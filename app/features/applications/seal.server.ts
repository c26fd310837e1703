// Applications' answers and documents are stored sealed: AES-256-GCM under a subkey of
// APPLICATION_DATA_KEY (docs/decisions/0071, 0074). Each sealed value is bound to what it belongs
// to (its `context`, e.g. "application:17:document:3"), so a value copied onto another record
// does not open. The configured key is never used directly: HKDF (RFC 5869) derives one subkey
// to seal, another for the address index (HMAC) and a key id, stored at the head of each sealed
// value, so that a previous key (APPLICATION_DATA_KEY_PREVIOUS) still opens what it sealed.
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from "node:crypto";

/** Format 1 (before subkeys): format | IV | ciphertext | tag, under the configured key itself. */
const LEGACY_FORMAT = 1;
/** Format 2: format | key id (4 bytes) | IV | ciphertext | tag, under the key id's seal subkey. */
const FORMAT = 2;
const KEY_ID_BYTES = 4;
const IV_BYTES = 12;
const TAG_BYTES = 16;
export const DATA_KEY_BYTES = 32;

/** One configured key and what HKDF derives from it. */
export interface DataKey {
  /** Names the key beside each value it sealed (hex); reveals nothing of it. */
  id: string;
  /** Seals answers, file names, documents and private links. */
  seal: Buffer;
  /** Keys the HMAC index of e-mail addresses ('Erase this person'). */
  index: Buffer;
  /** The configured key itself: only to open (and find) what was stored before subkeys. */
  legacy: Buffer;
}

/** The key in use, and the one before it while what it sealed is still kept (rotation). */
export interface DataKeys {
  current: DataKey;
  previous: DataKey | null;
}

const subkey = (root: Buffer, info: string, bytes: number) =>
  Buffer.from(hkdfSync("sha256", root, Buffer.alloc(0), `leasing-site ${info}`, bytes));

export function deriveDataKey(root: Buffer): DataKey {
  if (root.length !== DATA_KEY_BYTES) throw new Error("the data key must be 32 bytes");
  return {
    id: subkey(root, "key id", KEY_ID_BYTES).toString("hex"),
    seal: subkey(root, "seal v1", 32),
    index: subkey(root, "address index v1", 32),
    legacy: root,
  };
}

const derived = new WeakMap<Buffer, DataKeys>();

/** The keys from the configured key (and the previous one, if any). */
export function deriveDataKeys(root: Buffer, previous: Buffer | null = null): DataKeys {
  return { current: deriveDataKey(root), previous: previous ? deriveDataKey(previous) : null };
}

/** What the sealing functions take: derived keys, or one configured key (derived here). */
export type KeyMaterial = DataKeys | Buffer;

export function dataKeysOf(keys: KeyMaterial): DataKeys {
  if (!Buffer.isBuffer(keys)) return keys;
  let made = derived.get(keys);
  if (!made) {
    made = deriveDataKeys(keys);
    derived.set(keys, made);
  }
  return made;
}

/** Encrypts `plain` under the current seal subkey, bound to `context`. */
export function seal(keys: KeyMaterial, plain: Buffer, context: string): Buffer {
  const key = dataKeysOf(keys).current;
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key.seal, iv);
  cipher.setAAD(Buffer.from(context, "utf8"));
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([
    Buffer.from([FORMAT]),
    Buffer.from(key.id, "hex"),
    iv,
    body,
    cipher.getAuthTag(),
  ]);
}

function open(key: Buffer, iv: Buffer, body: Buffer, tag: Buffer, context: string): Buffer {
  const decipher = createDecipheriv("aes-256-gcm", key, iv);
  decipher.setAAD(Buffer.from(context, "utf8"));
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(body), decipher.final()]);
}

/**
 * Decrypts what seal() made for the same context under the current or the previous key (named
 * by its key id), or a value of the first format under either configured key itself; throws if
 * anything differs.
 */
export function unseal(keys: KeyMaterial, sealed: Buffer, context: string): Buffer {
  const { current, previous } = dataKeysOf(keys);
  const tag = sealed.subarray(sealed.length - TAG_BYTES);
  if (sealed[0] === FORMAT && sealed.length >= 1 + KEY_ID_BYTES + IV_BYTES + TAG_BYTES) {
    const id = sealed.subarray(1, 1 + KEY_ID_BYTES).toString("hex");
    const key = [current, previous].find((k) => k?.id === id);
    if (!key) throw new Error("sealed under a key that is not configured");
    const ivEnd = 1 + KEY_ID_BYTES + IV_BYTES;
    return open(
      key.seal,
      sealed.subarray(1 + KEY_ID_BYTES, ivEnd),
      sealed.subarray(ivEnd, sealed.length - TAG_BYTES),
      tag,
      context,
    );
  }
  if (sealed[0] === LEGACY_FORMAT && sealed.length >= 1 + IV_BYTES + TAG_BYTES) {
    const iv = sealed.subarray(1, 1 + IV_BYTES);
    const body = sealed.subarray(1 + IV_BYTES, sealed.length - TAG_BYTES);
    let failure: unknown;
    for (const key of [current, previous]) {
      if (!key) continue;
      try {
        return open(key.legacy, iv, body, tag, context);
      } catch (error) {
        failure = error;
      }
    }
    throw failure;
  }
  throw new Error("not a sealed value");
}

/** seal() for a JSON value (an application's answers). */
export const sealJson = (keys: KeyMaterial, value: unknown, context: string) =>
  seal(keys, Buffer.from(JSON.stringify(value), "utf8"), context);

export const unsealJson = <T>(keys: KeyMaterial, sealed: Buffer, context: string): T =>
  JSON.parse(unseal(keys, sealed, context).toString("utf8")) as T;

const normalEmail = (email: string) => email.trim().toLowerCase();

/** The address index: HMAC of the lower-cased address under the current index subkey. */
export const emailMac = (keys: KeyMaterial, email: string) =>
  createHmac("sha256", dataKeysOf(keys).current.index).update(normalEmail(email)).digest("hex");

/**
 * Every index value an address may be stored under: the current and previous index subkeys,
 * and both configured keys as used before subkeys.
 */
export function emailMacs(keys: KeyMaterial, email: string): string[] {
  const { current, previous } = dataKeysOf(keys);
  const all = [current, previous].flatMap((k) => (k ? [k.index, k.legacy] : []));
  return all.map((k) => createHmac("sha256", k).update(normalEmail(email)).digest("hex"));
}
