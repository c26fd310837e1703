// Photo captions (docs/behaviour.md §20) through the whole app on each database: sent with an
// add, following their photos through a reorder, refused when malformed, and the detail page's
// alternative texts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dbTargets } from "../../../tests/support/db-targets";
import { jpegWithGps } from "../../../tests/support/images";
import { startTestApp, type TestApp } from "../../../tests/support/test-app";
import { getListingForEdit } from "./queries.server";

for (const target of dbTargets) {
  describe(`photo captions (${target.name})`, () => {
    let app: TestApp;
    let cleanup: () => Promise<void>;
    let admin = "";

    beforeAll(async () => {
      const opened = await target.open();
      cleanup = opened.cleanup;
      app = await startTestApp({ db: opened.db });
      admin = await app.signIn("office@example.com", { admin: true });
    });
    afterAll(async () => {
      await app?.close();
      await cleanup?.();
    });

    const stored = () => getListingForEdit(app.db, "properties", "5-caption-court");

    async function addForm(captions: unknown) {
      const body = new FormData();
      body.append("data", JSON.stringify({ address: "5 Caption Court" }));
      if (captions !== undefined) body.append("captions", JSON.stringify(captions));
      for (const color of ["#aa0000", "#00aa00", "#0000aa"]) {
        body.append(
          "images",
          new Blob([new Uint8Array(await jpegWithGps(60, 40, color))]),
          "p.jpg",
        );
      }
      return body;
    }
    const post = async (body: FormData) =>
      fetch(`${app.base}/api/listings/properties`, {
        method: "POST",
        body,
        headers: { cookie: admin },
      });

    it("refuses captions that do not match the photos, storing nothing", async () => {
      const wrongCount = await post(await addForm(["one"]));
      expect(wrongCount.status).toBe(400);
      expect(((await wrongCount.json()) as { error: string }).error).toBe(
        "Send one caption (or an empty one) for each photo.",
      );
      const tooLong = await post(await addForm(["x".repeat(501), "", ""]));
      expect(tooLong.status).toBe(400);
      expect(await stored()).toBeNull();
    });

    it("stores captions with an add and uses them as alternative texts", async () => {
      const res = await post(await addForm(["Front porch", "", "  Back yard  "]));
      expect(res.status).toBe(201);
      const listing = await stored();
      if (!listing) throw new Error("not stored");
      const [a, , c] = listing.image_urls as [string, string, string];
      expect(listing.image_captions).toEqual({ [a]: "Front porch", [c]: "Back yard" });
      const html = await (await fetch(`${app.base}/properties/5-caption-court`)).text();
      expect(html).toContain('alt="Front porch"');
      expect(html).toContain('alt="Photo 2 of 5 Caption Court"');
      expect(html).toContain('alt="Back yard"');
    });

    it("keeps each caption with its photo through a reorder and a save", async () => {
      const before = await stored();
      if (!before) throw new Error("not stored");
      const [a, b, c] = before.image_urls as [string, string, string];
      const save = (body: object) =>
        fetch(`${app.base}/api/listings/properties/5-caption-court`, {
          method: "PUT",
          headers: { cookie: admin, "content-type": "application/json" },
          body: JSON.stringify({ address: "5 Caption Court", version: before?.version, ...body }),
        });
      const foreign = await save({ image_urls: [c, a, b], image_captions: { "/x.jpg": "no" } });
      expect(foreign.status).toBe(400);
      expect(((await foreign.json()) as { error: string }).error).toBe(
        "A caption names a photo that is not part of this listing.",
      );
      expect((await stored())?.version).toBe(before?.version);
      const res = await save({
        image_urls: [c, a, b],
        image_captions: { [c]: "Back yard", [a]: "Front porch", [b]: "Kitchen" },
      });
      expect(res.status).toBe(200);
      const after = await stored();
      expect(after?.image_urls).toEqual([c, a, b]);
      expect(after?.image_captions).toEqual({
        [a]: "Front porch",
        [b]: "Kitchen",
        [c]: "Back yard",
      });
      // (Kept pages are dropped when the change's NOTIFY arrives: on PostgreSQL a moment later.)
      const order = async () => {
        const html = await (await fetch(`${app.base}/properties/5-caption-court`)).text();
        return ['alt="Back yard"', 'alt="Front porch"', 'alt="Kitchen"'].map((a) =>
          html.indexOf(a),
        );
      };
      await expect
        .poll(async () => {
          const [c1 = -1, a1 = -1, b1 = -1] = await order();
          return c1 >= 0 && c1 < a1 && a1 < b1;
        })
        .toBe(true);
      // A save without captions leaves them as they are.
      const again = await save({ image_urls: [c, a, b], version: after?.version });
      expect(again.status).toBe(200);
      expect((await stored())?.image_captions).toEqual(after?.image_captions);
    });
  });
}
