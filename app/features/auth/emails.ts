// E-mail addresses as keys of the admin registry: one spelling per address (server code only).
import { HttpError } from "~/shared/http-error.server";

/** Not an e-mail address: a refusal of the input (HTTP 400). */
export class InvalidEmailError extends HttpError {
  constructor(input: string) {
    super(400, `Invalid email address: "${input.slice(0, 100)}".`);
    this.name = "InvalidEmailError";
  }
}

// Deliberately plain: one @, something on each side, a dot in the domain, no spaces, no control
// characters or unpaired surrogates (PostgreSQL text holds neither NUL nor those).
const EMAIL_PATTERN = /^[^\s@\p{Cc}\p{Cs}]+@[^\s@.\p{Cc}\p{Cs}]+(\.[^\s@.\p{Cc}\p{Cs}]+)+$/u;

/** Trims and lowercases; throws InvalidEmailError for anything that is not an address. */
export function normalizeEmail(input: unknown): string {
  const email = typeof input === "string" ? input.trim().toLowerCase() : "";
  if (email.length > 254 || !EMAIL_PATTERN.test(email)) throw new InvalidEmailError(String(input));
  return email;
}

/** Like normalizeEmail, but null instead of an error (for claims from an identity provider). */
export function emailOrNull(input: unknown): string | null {
  try {
    return normalizeEmail(input);
  } catch {
    return null;
  }
}
