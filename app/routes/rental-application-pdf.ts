import { buildApplicationPdf } from "~/features/content/application-pdf.server";

// Generated once per process: the form only changes when the company content does.
let cached: Promise<Uint8Array> | undefined;

export async function loader() {
  cached ??= buildApplicationPdf();
  const bytes = await cached;
  return new Response(bytes as unknown as BodyInit, {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": 'inline; filename="rental-application.pdf"',
      "Cache-Control": "public, max-age=3600",
    },
  });
}
