import { createHash, randomBytes } from "node:crypto";

// Random cookie tokens; the database keeps only their SHA-256, never the token itself.

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** 256 random bits, base64url (43 characters). */
export function newToken(): string {
  return randomBytes(32).toString("base64url");
}

/** The stored key of a token, or null when the value cannot be one of ours (no lookup needed). */
export function tokenId(token: string | undefined): string | null {
  if (!token || !TOKEN_PATTERN.test(token)) return null;
  return createHash("sha256").update(token).digest("hex");
}
