// Debian's Chromium, headless, as the browser tests and the benchmark launch it.
import { existsSync } from "node:fs";

/** The full browser: the benchmark (Lighthouse measures what visitors' Chrome does). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/**
 * The browser tests' Chromium: Debian's `chromium-headless-shell` where installed, the same
 * Chromium (same version and engine) without the desktop browser's window parts; a new
 * browser context costs a third of the full browser's (docs/decisions/0078). Else the full one.
 */
const HEADLESS_SHELL = "/usr/lib/chromium/chromium-headless-shell";
export const CHROMIUM_FOR_TESTS =
  process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : CHROMIUM);
export const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
