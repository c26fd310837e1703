// What staff do with applications (docs/behaviour.md §32): the list, one application whole (every
// adult's answers and documents) with each view recorded ('Viewed by'), status with an e-mail to
// the applicant on each decision, and notes. Admins only: the routes check before calling.
import { type ListingScope, withinScope } from "~/domain/listing-scope";
import {
  type Answers,
  APPLICATION_STATUSES,
  type ApplicationStatus,
  DECISIONS,
  STAFF_STATUSES,
} from "~/domain/rental-application";
import { enqueueMail } from "~/features/mail/index.server";
import type { Db, Queryable } from "~/shared/db.server";
import { recordStaffEvent, staffEventsOf } from "~/shared/staff-events.server";
import { answersContext, applicationRef, documentNameContext, notesContext } from "./names.server";
import { type KeyMaterial, seal, unseal, unsealJson } from "./seal.server";

export interface ApplicationMail {
  companyName: string;
  officeEmail: string;
  officePhone: string;
}

export interface ApplicationSummary {
  id: number;
  submittedAt: string;
  status: ApplicationStatus;
  statusAt: string;
  listingAddress: string | null;
  applicantName: string;
  adults: number;
  adultsDone: number;
}

export interface ApplicantRecord {
  position: number;
  step: string;
  completedAt: string | null;
  answers: Answers;
  documents: {
    id: number;
    kind: string;
    name: string;
    contentType: string;
    bytes: number;
    /** Where its sealed bytes are (DocumentVault); never shown. */
    storageKey: string;
  }[];
}

export interface ApplicationEvent {
  at: string;
  byEmail: string | null;
  action: "viewed" | "status" | "note" | "download";
  detail: Record<string, unknown>;
}

export interface ApplicationRecord {
  id: number;
  status: ApplicationStatus;
  statusAt: string;
  submittedAt: string | null;
  listing: { collection: string | null; id: string | null; address: string | null };
  notes: string;
  applicants: ApplicantRecord[];
  events: ApplicationEvent[];
}

const iso = (d: Date | string) => new Date(d).toISOString();

function openAnswers(
  key: KeyMaterial,
  applicationId: number,
  position: number,
  sealed: Uint8Array | null,
) {
  return sealed
    ? unsealJson<Answers>(key, Buffer.from(sealed), answersContext(applicationId, position))
    : {};
}

/** Submitted applications, newest first (drafts are the applicants' own until submitted). */
export async function listApplications(
  db: Queryable,
  key: KeyMaterial,
  {
    status,
    limit = 50,
    offset = 0,
    within = null,
  }: {
    status?: ApplicationStatus;
    limit?: number;
    offset?: number;
    /** A Leasing agent's 'Only these listings'; null: every application. */
    within?: ListingScope;
  } = {},
): Promise<{ applications: ApplicationSummary[]; total: number }> {
  const params: unknown[] = [limit, offset, ...(status ? [status] : [])];
  const scoped = withinScope(within, params, { collection: "a.collection", id: "a.listing_id" });
  const where = `a.status <> 'draft'${status ? " AND a.status = $3" : ""} AND ${scoped}`;
  const rows = await db.query<{
    id: number;
    submittedAt: Date;
    status: ApplicationStatus;
    statusAt: Date;
    listingAddress: string | null;
    answers: Uint8Array | null;
    adults: number;
    adultsDone: number;
    total: number;
  }>(
    `SELECT a.id::int AS id, a.submitted_at AS "submittedAt", a.status, a.status_at AS "statusAt",
       a.listing_address AS "listingAddress", p.answers,
       (SELECT count(*)::int FROM applicants o WHERE o.application_id = a.id AND o.position > 0) AS adults,
       (SELECT count(*)::int FROM applicants o WHERE o.application_id = a.id AND o.position > 0
          AND o.completed_at IS NOT NULL) AS "adultsDone",
       count(*) OVER ()::int AS total
     FROM applications a JOIN applicants p ON p.application_id = a.id AND p.position = 0
     WHERE ${where}
     ORDER BY a.submitted_at DESC, a.id DESC LIMIT $1 OFFSET $2`,
    params,
  );
  return {
    total: rows[0]?.total ?? 0,
    applications: rows.map((r) => ({
      id: r.id,
      submittedAt: iso(r.submittedAt),
      status: r.status,
      statusAt: iso(r.statusAt),
      listingAddress: r.listingAddress,
      applicantName: openAnswers(key, r.id, 0, r.answers).fullName ?? "",
      adults: r.adults,
      adultsDone: r.adultsDone,
    })),
  };
}

/** Whether the viewer may read this application: submitted, and within their listings. */
export async function applicationIsWithin(
  db: Queryable,
  id: number,
  within: ListingScope,
): Promise<boolean> {
  const params: unknown[] = [id];
  const rows = await db.query(
    `SELECT 1 FROM applications WHERE id = $1 AND status <> 'draft' AND ${withinScope(within, params)}`,
    params,
  );
  return rows.length > 0;
}

/**
 * True when this application is outside the viewer's listings (a limited Leasing agent's):
 * to them it does not exist.
 */
export async function outsideListings(
  context: { db: Queryable; viewer: { listings: ListingScope } },
  id: number,
): Promise<boolean> {
  const listings = context.viewer.listings ?? null;
  return listings !== null && !(await applicationIsWithin(context.db, id, listings));
}

/** One application, whole; the view is recorded ('Viewed by') in the same transaction. */
export async function readApplication(
  db: Db,
  key: KeyMaterial,
  id: number,
  viewer: string | null,
): Promise<ApplicationRecord | null> {
  return db.transaction(async (tx) => {
    const [app] = await tx.query<{
      status: ApplicationStatus;
      statusAt: Date;
      submittedAt: Date | null;
      collection: string | null;
      listingId: string | null;
      listingAddress: string | null;
      notes: string;
      notesSealed: Uint8Array | null;
    }>(
      `SELECT status, status_at AS "statusAt", submitted_at AS "submittedAt", collection,
         listing_id AS "listingId", listing_address AS "listingAddress", notes,
         notes_sealed AS "notesSealed"
       FROM applications WHERE id = $1 AND status <> 'draft'`,
      [id],
    );
    if (!app) return null;
    await recordStaffEvent(tx, "application", id, viewer, "viewed");
    const people = await tx.query<{
      id: number;
      position: number;
      step: string;
      completedAt: Date | null;
      answers: Uint8Array | null;
    }>(
      `SELECT id::int AS id, position, step, completed_at AS "completedAt", answers
       FROM applicants WHERE application_id = $1 ORDER BY position`,
      [id],
    );
    const documents = await tx.query<{
      id: number;
      applicantId: number;
      kind: string;
      nameSealed: Uint8Array;
      storageKey: string;
      contentType: string;
      bytes: number;
    }>(
      `SELECT d.id::int AS id, d.applicant_id::int AS "applicantId", d.kind,
         d.storage_key AS "storageKey",
         d.name_sealed AS "nameSealed", d.content_type AS "contentType", d.bytes
       FROM application_documents d JOIN applicants p ON p.id = d.applicant_id
       WHERE p.application_id = $1 ORDER BY d.id`,
      [id],
    );
    const events = await staffEventsOf<ApplicationEvent["action"]>(tx, "application", [id], {
      newestFirst: true,
    });
    return {
      id,
      status: app.status,
      statusAt: iso(app.statusAt),
      submittedAt: app.submittedAt ? iso(app.submittedAt) : null,
      listing: { collection: app.collection, id: app.listingId, address: app.listingAddress },
      notes: openNotes(key, id, app),
      applicants: people.map((p) => ({
        position: p.position,
        step: p.step,
        completedAt: p.completedAt ? iso(p.completedAt) : null,
        answers: openAnswers(key, id, p.position, p.answers),
        documents: documents
          .filter((d) => d.applicantId === p.id)
          .map((d) => ({
            id: d.id,
            kind: d.kind,
            name: unseal(
              key,
              Buffer.from(d.nameSealed),
              documentNameContext(d.storageKey),
            ).toString("utf8"),
            contentType: d.contentType,
            bytes: d.bytes,
            storageKey: d.storageKey,
          })),
      })),
      events: events.map(({ itemId, ...e }) => ({ ...e, at: iso(e.at) })),
    };
  });
}

/** The decision e-mail's text (approved or declined). */
function decisionText(
  status: "approved" | "declined",
  name: string,
  address: string | null,
  mail: ApplicationMail,
) {
  const about = address ? `for ${address}` : "";
  const lines =
    status === "approved"
      ? [
          `Good news: your rental application ${about} has been approved.`,
          "We will contact you about the lease and the next steps.",
        ]
      : [
          `Thank you for applying ${about}. After reviewing your application, we are unable to approve it.`,
          "If anything in it was based on a consumer report, you may ask us which agency provided it.",
        ];
  return [
    `Hello ${name},`,
    "",
    ...lines,
    "",
    mail.companyName,
    `${mail.officePhone} · ${mail.officeEmail}`,
  ].join("\n");
}

/**
 * Sets the status staff choose ('Received', 'Under review', 'Approved', 'Declined'); a decision
 * e-mails the applicant (through the outbox, in the same transaction) and starts the retention
 * days. False when the application is gone, withdrawn or still a draft.
 */
export async function setApplicationStatus(
  db: Db,
  key: KeyMaterial,
  id: number,
  status: ApplicationStatus,
  by: string | null,
  mail: ApplicationMail,
  now = new Date(),
): Promise<boolean> {
  if (!STAFF_STATUSES.includes(status)) throw new Error(`not a staff status: ${status}`);
  return db.transaction(async (tx) => {
    const [row] = await tx.query<{
      status: ApplicationStatus;
      listingAddress: string | null;
      answers: Uint8Array | null;
    }>(
      `SELECT a.status, a.listing_address AS "listingAddress", p.answers
       FROM applications a JOIN applicants p ON p.application_id = a.id AND p.position = 0
       WHERE a.id = $1 FOR UPDATE OF a`,
      [id],
    );
    if (!row || row.status === "draft" || row.status === "withdrawn") return false;
    if (row.status === status) return true;
    const decided = DECISIONS.includes(status);
    await tx.query(
      "UPDATE applications SET status = $2, status_at = $3, updated_at = $3, ended_at = $4 WHERE id = $1",
      [id, status, now, decided ? now : null],
    );
    await recordStaffEvent(tx, "application", id, by, "status", {
      from: APPLICATION_STATUSES[row.status],
      to: APPLICATION_STATUSES[status],
    });
    if (decided) {
      const answers = openAnswers(key, id, 0, row.answers);
      if (answers.email) {
        await enqueueMail(tx, {
          kind: `application-${status}`,
          ref: applicationRef(id),
          to: [answers.email],
          replyTo: mail.officeEmail,
          subject: `Your rental application: ${APPLICATION_STATUSES[status]}`,
          body: decisionText(
            status as "approved" | "declined",
            answers.fullName ?? "",
            row.listingAddress,
            mail,
          ),
        });
      }
    }
    return true;
  });
}

/** Notes as stored: sealed (docs/decisions/0074), or in clear if written before sealing. */
function openNotes(
  key: KeyMaterial,
  id: number,
  row: { notes: string; notesSealed: Uint8Array | null },
): string {
  return row.notesSealed
    ? unseal(key, Buffer.from(row.notesSealed), notesContext(id)).toString("utf8")
    : row.notes;
}

/** Notes stored in clear before they were sealed: sealed now, one statement each. */
export async function sealClearNotes(db: Db, key: KeyMaterial): Promise<number> {
  const rows = await db.query<{ id: number; notes: string }>(
    "SELECT id::int AS id, notes FROM applications WHERE notes <> ''",
  );
  for (const row of rows) {
    await db.query(
      "UPDATE applications SET notes_sealed = $2, notes = '' WHERE id = $1 AND notes = $3",
      [row.id, seal(key, Buffer.from(row.notes, "utf8"), notesContext(row.id)), row.notes],
    );
  }
  return rows.length;
}

/** Staff notes on an application, sealed like its answers, recorded with who and when. */
export async function saveApplicationNote(
  db: Db,
  key: KeyMaterial,
  id: number,
  notes: string,
  by: string | null,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const updated = await tx.query(
      `UPDATE applications SET notes = '', notes_sealed = $2
       WHERE id = $1 AND status NOT IN ('draft', 'withdrawn') RETURNING id`,
      [id, notes === "" ? null : seal(key, Buffer.from(notes, "utf8"), notesContext(id))],
    );
    if (updated.length === 0) return false;
    await recordStaffEvent(tx, "application", id, by, "note");
    return true;
  });
}

/**
 * One document of an application for download, its download recorded; null when the
 * application (submitted) or the document is not there.
 */
export async function readDocument(
  db: Db,
  key: KeyMaterial,
  applicationId: number,
  documentId: number,
  by: string | null,
): Promise<{ name: string; kind: string; contentType: string; storageKey: string } | null> {
  return db.transaction(async (tx) => {
    const [row] = await tx.query<{
      nameSealed: Uint8Array;
      kind: string;
      storageKey: string;
      contentType: string;
    }>(
      `SELECT d.name_sealed AS "nameSealed", d.kind, d.storage_key AS "storageKey",
         d.content_type AS "contentType"
       FROM application_documents d JOIN applicants p ON p.id = d.applicant_id
       JOIN applications a ON a.id = p.application_id
       WHERE d.id = $1 AND a.id = $2 AND a.status <> 'draft'`,
      [documentId, applicationId],
    );
    if (!row) return null;
    await recordStaffEvent(tx, "application", applicationId, by, "download", {
      document: documentId,
    });
    return {
      name: unseal(key, Buffer.from(row.nameSealed), documentNameContext(row.storageKey)).toString(
        "utf8",
      ),
      kind: row.kind,
      contentType: row.contentType,
      storageKey: row.storageKey,
    };
  });
}
