// Private links in e-mails are never stored usable (docs/decisions/0074): the outbox keeps the
// body with `{{link:n}}` and the links sealed, bound to the message's ref; the outbox worker opens
// them only to send, then drops them.
import { linkPlaceholder } from "~/features/mail/index.server";
import { outboxLinksContext } from "./names.server";
import { type KeyMaterial, sealJson, unsealJson } from "./seal.server";

/** Collects an e-mail's private links while its body is written: each becomes a placeholder. */
export function linkCollector() {
  const links: string[] = [];
  return {
    /** The placeholder to write into the body in place of `url`. */
    add(url: string): string {
      links.push(url);
      return linkPlaceholder(links.length - 1);
    },
    /** The links, sealed for the message with this ref (null: none). */
    sealed(key: KeyMaterial, ref: string): Buffer | null {
      return links.length ? sealJson(key, links, outboxLinksContext(ref)) : null;
    },
  };
}

/** The worker's side: the links of a message, opened. */
export function openOutboxLinks(key: KeyMaterial, sealed: Buffer, ref: string | null): string[] {
  return unsealJson<string[]>(key, sealed, outboxLinksContext(ref ?? ""));
}
