import fs from "node:fs/promises";
import path from "node:path";
import type { Env } from "~/shared/env.server";
import { log } from "~/shared/logger.server";
import { DATA_KEY_FILE, loadDataKey, parseDataKey } from "./data-key.server";
import { DocumentVault } from "./documents.server";
import { createPrivateBackend } from "./private-backend.server";
import { type DataKeys, deriveDataKeys } from "./seal.server";

/**
 * The keys that seal applications (derived from APPLICATION_DATA_KEY, with the previous one
 * while rotating) and the vault of their documents; both null: closed.
 */
export interface ApplicationServices {
  key: DataKeys | null;
  vault: DocumentVault | null;
}

/** Names and addresses only this computer reaches. */
const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);
const isLoopback = (host: string) => LOOPBACK.has(host) || /^127\.\d+\.\d+\.\d+$/.test(host);

/**
 * The data key (APPLICATION_DATA_KEY, or one made into DATA_DIR) and the private document store.
 * In production without a key, applications are refused; the rest of the site runs, and the log
 * says what to set. A production build tried on this computer (`PUBLIC_URL` and `HOST` both on
 * loopback) is no deployment: it makes a key as development does. Listening on a network address
 * with the default PUBLIC_URL is a deployment that forgot its settings: a key made into DATA_DIR
 * would sit beside the data it seals (docs/decisions/0071, 0076).
 */
export async function createApplicationServices(
  env: Pick<Env, "dataDir" | "s3" | "nodeEnv" | "applications" | "publicUrl" | "host">,
): Promise<ApplicationServices> {
  const configured = env.applications.dataKey ?? undefined;
  const production = env.nodeEnv === "production";
  const localUrl = isLoopback(new URL(env.publicUrl).hostname);
  const localTrial = production && localUrl && isLoopback(env.host);
  const root = await loadDataKey({
    configured,
    production: production && !localTrial,
    dataDir: env.dataDir,
  });
  if (!root) log().warn(await closedBecause(env, localUrl));
  const previous = env.applications.dataKeyPrevious
    ? parseDataKey(env.applications.dataKeyPrevious)
    : null;
  const key = root ? deriveDataKeys(root, previous) : null;
  return { key, vault: key ? new DocumentVault(createPrivateBackend(env), key) : null };
}

/** The log line of a production start that takes no applications: what to set. */
async function closedBecause(env: Pick<Env, "dataDir" | "publicUrl" | "host">, localUrl: boolean) {
  const file = path.join(env.dataDir, DATA_KEY_FILE);
  const made = await fs.stat(file).then(
    () =>
      ` A key made earlier is in ${file}: give its content as APPLICATION_DATA_KEY and keep the file away from DATA_DIR and its backups.`,
    () => "",
  );
  const set =
    "Set APPLICATION_DATA_KEY (32 bytes, base64: `openssl rand -base64 32`), kept apart from DATA_DIR and backups";
  if (!localUrl) {
    return `Online applications are closed: APPLICATION_DATA_KEY is not set. ${set}, and restart.${made}`;
  }
  return (
    `Online applications are closed: this production server listens on HOST=${env.host}, which ` +
    `other computers reach, with the default PUBLIC_URL (${env.publicUrl}), so a data key made ` +
    `into DATA_DIR would sit beside the data it seals. ${set}, and PUBLIC_URL to the site's ` +
    `public address (e.g. https://leasing.example.com); or, to try the site on this computer ` +
    `only, HOST=127.0.0.1.${made}`
  );
}
