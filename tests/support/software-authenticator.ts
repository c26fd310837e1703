// A passkey authenticator in software, for server tests (the browser suite uses Chromium's
// virtual authenticator): an ES256 key, 'none' attestation, user presence and verification,
// a counter. It answers the options the server made as a browser would pass them on.
import { createHash, generateKeyPairSync, randomBytes, sign } from "node:crypto";

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url");
const sha256 = (bytes: Uint8Array | string) => createHash("sha256").update(bytes).digest();

/** The few CBOR items an attestation holds: integers, byte and text strings, maps. */
type Cbor = number | string | Uint8Array | Map<Cbor, Cbor>;

function head(major: number, n: number): Buffer {
  if (n < 24) return Buffer.from([(major << 5) | n]);
  if (n < 256) return Buffer.from([(major << 5) | 24, n]);
  const b = Buffer.alloc(3);
  b[0] = (major << 5) | 25;
  b.writeUInt16BE(n, 1);
  return b;
}

function cbor(value: Cbor): Buffer {
  if (typeof value === "number") return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === "string") {
    const text = Buffer.from(value, "utf8");
    return Buffer.concat([head(3, text.length), text]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  return Buffer.concat([
    head(5, value.size),
    ...[...value].flatMap(([k, v]) => [cbor(k), cbor(v)]),
  ]);
}

const FLAGS = { userPresent: 0x01, userVerified: 0x04, attested: 0x40 };

export interface SoftwareAuthenticator {
  credentialId: string;
  /** Answers `navigator.credentials.create` with the server's options. */
  register(options: { challenge: string; user: { id: string } }): Record<string, unknown>;
  /** Answers `navigator.credentials.get` with the server's options. */
  authenticate(options: { challenge: string }): Record<string, unknown>;
}

export function softwareAuthenticator(
  origin: string,
  { verified = true }: { verified?: boolean } = {},
): SoftwareAuthenticator {
  const rpIdHash = sha256(new URL(origin).hostname);
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const jwk = publicKey.export({ format: "jwk" });
  const id = randomBytes(16);
  let counter = 0;
  let userHandle = "";
  const flags = (extra: number) => FLAGS.userPresent | (verified ? FLAGS.userVerified : 0) | extra;
  const authData = (extra: number, tail: Buffer = Buffer.alloc(0)) => {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    return Buffer.concat([rpIdHash, Buffer.from([flags(extra)]), count, tail]);
  };
  const clientData = (type: string, challenge: string) =>
    Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }), "utf8");
  return {
    credentialId: b64url(id),
    register(options) {
      userHandle = options.user.id;
      const coseKey = new Map<Cbor, Cbor>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, Buffer.from(jwk.x as string, "base64url")],
        [-3, Buffer.from(jwk.y as string, "base64url")],
      ]);
      const idLength = Buffer.alloc(2);
      idLength.writeUInt16BE(id.length);
      const attested = Buffer.concat([Buffer.alloc(16), idLength, id, cbor(coseKey)]);
      const attestation = new Map<Cbor, Cbor>([
        ["fmt", "none"],
        ["attStmt", new Map()],
        ["authData", authData(FLAGS.attested, attested)],
      ]);
      return {
        id: b64url(id),
        rawId: b64url(id),
        type: "public-key",
        response: {
          clientDataJSON: b64url(clientData("webauthn.create", options.challenge)),
          attestationObject: b64url(cbor(attestation)),
          transports: ["internal"],
        },
        clientExtensionResults: {},
      };
    },
    authenticate(options) {
      counter += 1;
      const data = authData(0);
      const client = clientData("webauthn.get", options.challenge);
      const signature = sign("sha256", Buffer.concat([data, sha256(client)]), privateKey);
      return {
        id: b64url(id),
        rawId: b64url(id),
        type: "public-key",
        response: {
          clientDataJSON: b64url(client),
          authenticatorData: b64url(data),
          signature: b64url(signature),
          userHandle,
        },
        clientExtensionResults: {},
      };
    },
  };
}
