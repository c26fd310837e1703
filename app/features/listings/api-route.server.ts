// Pieces every listing API route shares (api.server.ts, csv-api.server.ts).
import type { NextFunction, Request, Response } from "express";
import type { Viewer } from "~/features/auth";
import type { Actor } from "./history.server";

/** An async handler whose failure goes to the API's error handler. */
export const route =
  (fn: (req: Request, res: Response) => Promise<void>) =>
  (req: Request, res: Response, next: NextFunction) =>
    fn(req, res).catch(next);

/** Who makes a change (the signed-in staff member the guard found), for the history. */
export function actorOf(res: Response): Actor | null {
  const user = (res.locals.viewer as Viewer | undefined)?.user;
  return user ? { name: user.name, email: user.email } : null;
}
