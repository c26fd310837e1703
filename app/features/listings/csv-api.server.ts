// The staff CSV endpoints (docs/behaviour.md §25), inside the listing API: so behind its
// the staff guard, the site's same-origin check for writes and its JSON error answers.
import express, { type NextFunction, type Request, type Response } from "express";
import { CSV_MAX_BYTES } from "~/domain/listing-csv";
import type { Db } from "~/shared/db.server";
import { logEvent } from "~/shared/events.server";
import { HttpError } from "~/shared/http-error.server";
import type { ListingPermission } from "./api.server";
import { actorOf, route } from "./api-route.server";
import { exportCsv } from "./csv-export.server";
import { checkCsv, readyToImport, tooLarge } from "./csv-import.server";
import type { ListingWrites } from "./listing-writes.server";

interface CsvRouteOptions {
  db: Db;
  writes: ListingWrites;
  guard: (permission: ListingPermission) => express.RequestHandler;
  photoAddress?: (url: string) => string;
}

/** The file is the request body, whatever its type; a bigger one is refused before it is read. */
const readFile = express.raw({ type: () => true, limit: CSV_MAX_BYTES });
const fileBody = (req: Request, res: Response, next: NextFunction) =>
  readFile(req, res, (error?: unknown) =>
    next(
      (error as { type?: string } | undefined)?.type === "entity.too.large" ? tooLarge() : error,
    ),
  );

function bytesOf(req: Request): Uint8Array {
  // A JSON body was already read by the API's JSON parser: it is no file.
  if (!Buffer.isBuffer(req.body)) {
    throw new HttpError(400, "Send the CSV file as the request body (Content-Type: text/csv).");
  }
  return req.body;
}

const who = (res: Response) => actorOf(res)?.email ?? null;

export function csvRoutes({ db, writes, photoAddress, guard }: CsvRouteOptions) {
  const router = express.Router();

  router.get(
    "/listings-csv",
    route(async (_req, res) => {
      const { csv, rows } = await exportCsv(db, photoAddress);
      const day = new Date().toISOString().slice(0, 10);
      res.set({
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="listings-${day}.csv"`,
        "Cache-Control": "private, no-store",
      });
      logEvent("listings exported", who(res), { rows });
      res.send(csv);
    }),
  );

  // The dry run: what an import of this file would do; nothing is written.
  router.post(
    "/listings-csv/check",
    guard("listings:write"),
    fileBody,
    route(async (req, res) => {
      const { ready, refused } = await checkCsv(db, bytesOf(req));
      res.json({
        ready: ready.map((r) => ({
          line: r.line,
          collection: r.collection,
          address: r.fields.address,
          warnings: r.warnings,
        })),
        refused,
      });
    }),
  );

  // The import: checked again here (never trusting an earlier dry run), then all or nothing.
  router.post(
    "/listings-csv/import",
    guard("listings:write"),
    fileBody,
    route(async (req, res) => {
      const ready = await readyToImport(db, bytesOf(req));
      await writes.addMany(ready, actorOf(res));
      logEvent("listings imported", who(res), { rows: ready.length });
      res.json({ imported: ready.length });
    }),
  );

  return router;
}
