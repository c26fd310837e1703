import express, { type NextFunction, type Request, type Response } from "express";
import type { Viewer } from "~/features/auth";
import { actorOf } from "~/features/auth/index.server";
import { type ImageStore, withUpload } from "~/features/images/index.server";
import type { Db } from "~/shared/db.server";
import { HttpError } from "~/shared/http-error.server";
import { editableOf } from "./editable";
import { featuredEntries } from "./featured.server";
import { type SettingsChange, saveSettings } from "./settings.server";
import { parseFeaturedOrder, parseSettings } from "./settings-input.server";

interface SettingsApiOptions {
  db: Db;
  images: ImageStore;
  /** Answers 401/403 unless the request comes from a signed-in admin. */
  /** Who may use it (the staff guard, requireStaffApi). */
  guard: express.RequestHandler;
  /**
   * Called after a save is committed, before the answer: this instance drops its kept pages at
   * once (others hear of it through NOTIFY, which may arrive a moment later).
   */
  onSaved?: () => void;
}

const route =
  (fn: (req: Request, res: Response) => Promise<void>) =>
  (req: Request, res: Response, next: NextFunction) =>
    fn(req, res).catch(next);

/**
 * PUT /api/site: the site settings page's 'Save settings' (docs/behaviour.md §18). Multipart:
 * `data` (the fields as JSON, with `logo`: "keep" | "default" and `application`: "keep" |
 * "generated"), and optionally the files `logo` and `application`.
 */
export function createSettingsApi({ db, images, guard, onSaved }: SettingsApiOptions) {
  const api = express.Router();
  api.use(guard);
  api.put(
    "/",
    route(async (req, res) => {
      const by = actorOf((res.locals.viewer as Viewer | undefined) ?? { user: null });
      const content = await withUpload(
        req,
        res,
        () => images.tempPath("upload"),
        async ({ fields, files }) => {
          let raw: unknown;
          try {
            raw = JSON.parse(fields.data ?? "");
          } catch {
            throw new HttpError(400, "The settings are missing or not valid JSON.");
          }
          const change: SettingsChange = {
            fields: parseSettings(raw),
            featuredOrder: parseFeaturedOrder((raw as { featured?: unknown } | null)?.featured),
          };
          const extra = files.find((f) => f.fieldName !== "logo" && f.fieldName !== "application");
          if (extra) throw new HttpError(400, `Unexpected file field ${extra.fieldName}.`);
          const [logoFile, ...moreLogos] = files.filter((f) => f.fieldName === "logo");
          const [pdfFile, ...morePdfs] = files.filter((f) => f.fieldName === "application");
          if (moreLogos.length > 0 || morePdfs.length > 0) {
            throw new HttpError(400, "Send one logo and one application form at most.");
          }
          const choice = raw as { logo?: unknown; application?: unknown };
          if (logoFile) change.logo = { upload: logoFile.path };
          else if (choice.logo === "default") change.logo = "default";
          if (pdfFile) change.application = { upload: pdfFile.path };
          else if (choice.application === "generated") change.application = "generated";
          return saveSettings(db, images, change, by);
        },
      );
      onSaved?.();
      res.json({
        settings: editableOf(content),
        logo: content.logo,
        applicationPdf: content.applicationPdf,
        featured: await featuredEntries(db),
      });
    }),
  );
  api.use((_req, _res, next) => next(new HttpError(404, "No such endpoint.")));
  return api;
}
