// The key that seals applications (seal.server.ts). In production it must be
// given as APPLICATION_DATA_KEY (32 bytes, base64) before the first application is accepted;
// elsewhere one is generated into DATA_DIR (owner-only) the first time, with a log line.

import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { log } from "~/shared/logger.server";
import { PRIVATE_FILE_MODE } from "~/shared/private-files.server";
import { DATA_KEY_BYTES } from "./seal.server";

export const DATA_KEY_FILE = "application-data.key";

/** Why applications cannot be taken: production without a key. */
export const DATA_KEY_MISSING =
  "APPLICATION_DATA_KEY is not set: online applications are closed until it is (32 bytes, base64).";

/** APPLICATION_DATA_KEY as given, or an error that says what is wrong with it. */
export function parseDataKey(text: string): Buffer {
  const trimmed = text.trim();
  const key = Buffer.from(trimmed, "base64");
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(trimmed) || key.length !== DATA_KEY_BYTES) {
    throw new Error(
      `APPLICATION_DATA_KEY must be ${DATA_KEY_BYTES} bytes in base64 (e.g. \`openssl rand -base64 32\`).`,
    );
  }
  return key;
}

/**
 * The data key: the configured one; in production without one, null (applications refused
 * with DATA_KEY_MISSING); otherwise the one in DATA_DIR, made on first use. Two instances
 * starting at once make one key: the file is created exclusively and the loser reads it.
 */
export async function loadDataKey(options: {
  configured?: string;
  production: boolean;
  dataDir: string;
}): Promise<Buffer | null> {
  if (options.configured) return parseDataKey(options.configured);
  if (options.production) return null;
  const file = path.join(options.dataDir, DATA_KEY_FILE);
  await fs.mkdir(options.dataDir, { recursive: true, mode: 0o700 });
  const made = randomBytes(DATA_KEY_BYTES);
  try {
    const handle = await fs.open(file, "wx", PRIVATE_FILE_MODE);
    try {
      await handle.writeFile(`${made.toString("base64")}\n`);
      await handle.sync();
    } finally {
      await handle.close();
    }
    log().warn(
      { file },
      "APPLICATION_DATA_KEY is not set: generated one into DATA_DIR for this development site; set it in production",
    );
    return made;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  // Made earlier (or by another instance a moment ago: wait until it has been written).
  for (let attempt = 0; ; attempt++) {
    const text = await fs.readFile(file, "utf8");
    if (text.endsWith("\n") || attempt >= 50) return parseDataKey(text);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
