// 'Staff' (docs/behaviour.md §6, "Staff roles"): adding a person tells them by e-mail, in the
// same transaction as the grant, through the outbox.
import {
  DEFAULT_UNCONFIRMED_CAPS,
  enqueueMail,
  type UnconfirmedMailCaps,
} from "~/features/mail/index.server";
import type { Db } from "~/shared/db.server";
import { grantAdmin } from "./admins.server";
import { normalizeEmail } from "./emails";
import { ROLE_LABELS, type Role } from "./permissions";

export interface NewStaff {
  email: string;
  role: Role;
  /** Who adds them (their e-mail), for the log and 'Granted by'. */
  by: string | null;
  /** The company's name, as the site settings give it. */
  company: string;
  /** The site's address: the e-mail's link to sign in. */
  publicUrl: string;
  /** The site's caps on mail to unconfirmed addresses (UNCONFIRMED_MAIL_*), as leads use. */
  caps?: UnconfirmedMailCaps;
}

/** The e-mail's subject, as staff and tests know it. */
export const addedSubject = (company: string) => `You have been added to the ${company} staff`;

/**
 * Adds a person to the staff in a role and e-mails them (once: an address that is staff
 * already changes nothing and gets no mail). Returns false for such an address.
 */
export async function addStaff(db: Db, person: NewStaff): Promise<boolean> {
  const address = normalizeEmail(person.email);
  return db.transaction(async (tx) => {
    if (!(await grantAdmin(tx, address, person.by ?? undefined, person.role))) return false;
    const site = person.publicUrl.replace(/\/+$/, "");
    // Nobody has confirmed this address yet: the company's words only, within the caps.
    await enqueueMail(tx, {
      kind: "staff-added",
      to: [address],
      subject: addedSubject(person.company),
      body: [
        `${person.company} has added you to its staff as ${ROLE_LABELS[person.role]}.`,
        "",
        `Sign in at ${site}/auth/login with this e-mail address (${address}).`,
        "",
        "If you did not expect this, you can ignore this e-mail.",
      ].join("\n"),
      unconfirmed: person.caps ?? DEFAULT_UNCONFIRMED_CAPS,
    });
    return true;
  });
}
