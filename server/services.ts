import path from "node:path";
import { ImageStore } from "~/features/images/storage.server";
import { seedDemoContent } from "~/features/listings/demo-seed.server";
import { LiveHub } from "~/features/live/hub.server";
import { openDb } from "~/shared/db.server";
import type { Env } from "~/shared/env.server";

/** Opens the database (migrated), the image store and the live hub; seeds demo content once. */
export async function startServices(env: Env) {
  const db = await openDb({ databaseUrl: env.databaseUrl, dataDir: path.join(env.dataDir, "db") });
  const images = new ImageStore(path.join(env.dataDir, "images"));
  const hub = await LiveHub.start(db);
  if (env.seedDemo) {
    const seeded = await seedDemoContent(db, images);
    if (seeded > 0) console.log(`Loaded ${seeded} demo listings into the empty database.`);
  }
  return {
    db,
    images,
    hub,
    async close() {
      await hub.close();
      await db.close();
    },
  };
}
