// The token of an alert link (docs/behaviour.md §31): the form's field, else the URL's (a form
// posted without JavaScript, or a mail client's one-click unsubscribe, RFC 8058).
export async function linkToken(request: Request): Promise<string | null> {
  const form = await request.formData().catch(() => null);
  const field = form?.get("token");
  if (typeof field === "string" && field !== "") return field;
  return new URL(request.url).searchParams.get("token");
}
