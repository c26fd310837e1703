// Online applications' storage (migration 0016): a household's application, each
// adult's sealed answers behind their own private link, submit, withdraw and retention. Every
// change of an applicant's answers is one statement or one transaction: a failure leaves the
// application as it was.
import { createHash, randomBytes } from "node:crypto";
import type { Collection } from "~/domain/listing-kinds";
import {
  type Answers,
  type ApplicationStatus,
  type DOCUMENT_KINDS,
  DOCUMENT_LIMITS,
  otherAdults,
  RESUME_LINK_DAYS,
  type StepId,
} from "~/domain/rental-application";
import { eraseMailOf, eraseMailTo } from "~/features/mail/index.server";
import type { Db, Queryable } from "~/shared/db.server";
import { checkDocument, DocumentRejectedError, type DocumentVault } from "./documents.server";
import { queueFileDeletions, removeQueued } from "./file-deletions.server";
import { answersContext, applicationRef, documentNameContext } from "./names.server";
import {
  emailMac,
  emailMacs,
  type KeyMaterial,
  seal,
  sealJson,
  unseal,
  unsealJson,
} from "./seal.server";

export { emailMac };

const DAY_MS = 86_400_000;

/** A private link's token: 32 random bytes, base64url (43 characters). */
export const newToken = () => randomBytes(32).toString("base64url");
/** Only the token's SHA-256 is stored: the database alone opens no application. */
export const tokenHash = (token: string) => createHash("sha256").update(token).digest("hex");

/**
 * The audit that outlives withdrawal, erasure and retention (migration 0021): the application's
 * id, what happened, when and which staff member's sign-in subject (none: the applicant or the
 * site), nothing personal (docs/decisions/0075-erasure-reaches-everything.md). Call it before
 * the application's staff events are deleted: they are copied in, stripped, first.
 */
async function audit(
  tx: Queryable,
  applicationIds: readonly number[],
  event: "withdrawn" | "erased" | "person erased" | "retention",
  at: Date,
  actorId: string | null = null,
) {
  if (applicationIds.length === 0) return;
  // The staff events first, stripped to the staff member's sign-in subject, before they go
  // (only a person's part is erased: the application stays, with its events).
  if (event !== "person erased") {
    await tx.query(
      `INSERT INTO application_audit (application_id, event, at, actor_id)
       SELECT e.application_id, e.action, e.at,
         (SELECT min(u.sub) FROM users u
          WHERE lower(u.email) = lower(e.by_email) OR u.sub = e.by_email)
       FROM application_events e WHERE e.application_id = ANY($1::bigint[]) ORDER BY e.id`,
      [applicationIds],
    );
  }
  await tx.query(
    `INSERT INTO application_audit (application_id, event, at, actor_id)
     SELECT unnest($1::bigint[]), $2, $3, $4`,
    [applicationIds, event, at, actorId],
  );
}

export interface ApplicationListing {
  collection: Collection;
  id: string;
  address: string;
}

export interface OpenedApplication {
  applicationId: number;
  status: ApplicationStatus;
  statusAt: string;
  listing: ApplicationListing | null;
  applicant: { id: number; position: number; step: StepId; completedAt: string | null };
  /** Empty once withdrawn (everything was erased). */
  answers: Answers;
}

/** Starts an application with its main applicant's first answers; returns the private link's token. */
export async function startApplication(
  db: Db,
  key: KeyMaterial,
  start: { listing: ApplicationListing | null; answers: Answers; step: StepId; now?: Date },
  /** Runs in the same transaction (the 'Save and finish later' e-mail). */
  afterwards?: (tx: Queryable, started: { applicationId: number; token: string }) => Promise<void>,
): Promise<{ applicationId: number; token: string }> {
  const now = start.now ?? new Date();
  const token = newToken();
  return db.transaction(async (tx) => {
    const [row] = await tx.query<{ id: number }>(
      `INSERT INTO applications (collection, listing_id, listing_address, created_at, updated_at, status_at)
       VALUES ($1, $2, $3, $4, $4, $4) RETURNING id::int AS id`,
      [
        start.listing?.collection ?? null,
        start.listing?.id ?? null,
        start.listing?.address ?? null,
        now,
      ],
    );
    const applicationId = row?.id as number;
    await insertApplicant(tx, key, applicationId, 0, token, start.answers, start.step, now);
    await afterwards?.(tx, { applicationId, token });
    return { applicationId, token };
  });
}

async function insertApplicant(
  tx: Queryable,
  key: KeyMaterial,
  applicationId: number,
  position: number,
  token: string,
  answers: Answers,
  step: StepId,
  now: Date,
) {
  await tx.query(
    `INSERT INTO applicants (application_id, position, token_hash, token_expires_at, email_mac,
       answers, step, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      applicationId,
      position,
      tokenHash(token),
      new Date(now.getTime() + RESUME_LINK_DAYS * DAY_MS),
      answers.email ? emailMac(key, answers.email) : null,
      sealJson(key, answers, answersContext(applicationId, position)),
      step,
      now,
    ],
  );
}

interface ApplicantRow {
  applicationId: number;
  status: ApplicationStatus;
  statusAt: Date | string;
  collection: Collection | null;
  listingId: string | null;
  listingAddress: string | null;
  id: number;
  position: number;
  step: StepId;
  completedAt: Date | string | null;
  answers: Uint8Array | null;
  expiresAt: Date | string;
}

const iso = (d: Date | string) => new Date(d).toISOString();

/** The application behind a private link, or null (unknown or expired link). */
export async function openApplication(
  db: Queryable,
  key: KeyMaterial,
  token: string,
  now = new Date(),
): Promise<OpenedApplication | null> {
  const [row] = await db.query<ApplicantRow>(
    `SELECT a.id::int AS "applicationId", a.status, a.status_at AS "statusAt", a.collection,
       a.listing_id AS "listingId", a.listing_address AS "listingAddress",
       p.id::int AS id, p.position, p.step, p.completed_at AS "completedAt", p.answers,
       p.token_expires_at AS "expiresAt"
     FROM applicants p JOIN applications a ON a.id = p.application_id
     WHERE p.token_hash = $1`,
    [tokenHash(token)],
  );
  // Only the main applicant's link outlives its 30 days, as the status page of a submitted
  // application; another adult's expires like a draft's (docs/behaviour.md §32).
  const expired = new Date(row?.expiresAt ?? 0) <= now;
  if (!row || (expired && (row.status === "draft" || row.position > 0))) return null;
  return {
    applicationId: row.applicationId,
    status: row.status,
    statusAt: iso(row.statusAt),
    listing:
      row.collection && row.listingId
        ? { collection: row.collection, id: row.listingId, address: row.listingAddress ?? "" }
        : null,
    applicant: {
      id: row.id,
      position: row.position,
      step: row.step,
      completedAt: row.completedAt ? iso(row.completedAt) : null,
    },
    answers: row.answers
      ? unsealJson<Answers>(
          key,
          Buffer.from(row.answers),
          answersContext(row.applicationId, row.position),
        )
      : {},
  };
}

/**
 * Saves a step's answers over the applicant's earlier ones and where they stopped; the link's
 * 30 days start again. Refused (false) once the application or the adult's part is finished.
 */
export async function saveAnswers(
  db: Db,
  key: KeyMaterial,
  token: string,
  answers: Answers,
  step: StepId,
  now = new Date(),
  /** Runs in the same transaction with every answer saved (the 'Save and finish later' e-mail). */
  afterwards?: (tx: Queryable, saved: { applicationId: number; answers: Answers }) => Promise<void>,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [row] = await tx.query<ApplicantRow>(
      `SELECT a.id::int AS "applicationId", a.status, p.position, p.completed_at AS "completedAt",
         p.answers, p.token_expires_at AS "expiresAt"
       FROM applicants p JOIN applications a ON a.id = p.application_id
       WHERE p.token_hash = $1 FOR UPDATE OF p`,
      [tokenHash(token)],
    );
    if (!row || new Date(row.expiresAt) <= now || row.completedAt) return false;
    const editable = row.position === 0 ? row.status === "draft" : row.status !== "withdrawn";
    if (!editable) return false;
    const context = answersContext(row.applicationId, row.position);
    const earlier = row.answers ? unsealJson<Answers>(key, Buffer.from(row.answers), context) : {};
    const merged = { ...earlier, ...answers };
    await tx.query(
      `UPDATE applicants SET answers = $2, step = $3, updated_at = $4, token_expires_at = $5,
         email_mac = $6
       WHERE token_hash = $1`,
      [
        tokenHash(token),
        sealJson(key, merged, context),
        step,
        now,
        new Date(now.getTime() + RESUME_LINK_DAYS * DAY_MS),
        merged.email ? emailMac(key, merged.email) : null,
      ],
    );
    await tx.query("UPDATE applications SET updated_at = $2 WHERE id = $1", [
      row.applicationId,
      now,
    ]);
    await afterwards?.(tx, { applicationId: row.applicationId, answers: merged });
    return true;
  });
}

/**
 * Submits a draft: 'Received', and a row with a private link for each other adult named (their
 * tokens are returned for their e-mails, written by the caller in the same transaction).
 */
export async function submitApplication(
  db: Db,
  key: KeyMaterial,
  token: string,
  now = new Date(),
  afterwards?: (
    tx: Queryable,
    submitted: { applicationId: number; adults: { name: string; email: string; token: string }[] },
  ) => Promise<void>,
): Promise<{ applicationId: number } | null> {
  return db.transaction(async (tx) => {
    const opened = await openApplication(tx, key, token, now);
    if (opened?.status !== "draft" || opened.applicant.position !== 0) return null;
    const { applicationId } = opened;
    // Only a draft is submitted: of two submits at once, the second finds it received.
    const submitted = await tx.query(
      `UPDATE applications SET status = 'received', status_at = $2, submitted_at = $2, updated_at = $2
       WHERE id = $1 AND status = 'draft' RETURNING id`,
      [applicationId, now],
    );
    if (submitted.length === 0) return null;
    await tx.query(
      "UPDATE applicants SET completed_at = $2, step = 'review' WHERE token_hash = $1",
      [tokenHash(token), now],
    );
    const adults = otherAdults(opened.answers).map((adult) => ({ ...adult, token: newToken() }));
    for (const [i, adult] of adults.entries()) {
      await insertApplicant(
        tx,
        key,
        applicationId,
        i + 1,
        adult.token,
        // The household's own answers start them off; they may change them.
        {
          fullName: adult.name,
          email: adult.email,
          moveIn: opened.answers.moveIn ?? "",
          occupants: opened.answers.occupants ?? "",
        },
        "applicant",
        now,
      );
    }
    await afterwards?.(tx, { applicationId, adults });
    return { applicationId };
  });
}

/**
 * 'Withdraw and delete my application': every answer and document erased at once; the link then
 * shows 'Withdrawn' only. Returns the documents' storage keys, to remove from private storage.
 */
export async function withdrawApplication(
  db: Db,
  token: string,
  now = new Date(),
): Promise<{ storageKeys: string[] } | null> {
  return db.transaction(async (tx) => {
    const [row] = await tx.query<{
      applicationId: number;
      status: ApplicationStatus;
      position: number;
    }>(
      `SELECT a.id::int AS "applicationId", a.status, p.position
       FROM applicants p JOIN applications a ON a.id = p.application_id
       WHERE p.token_hash = $1 FOR UPDATE OF a`,
      [tokenHash(token)],
    );
    if (row?.position !== 0) return null;
    if (row.status === "withdrawn") return { storageKeys: [] };
    const documents = await tx.query<{ key: string }>(
      `DELETE FROM application_documents d USING applicants p
       WHERE d.applicant_id = p.id AND p.application_id = $1 RETURNING d.storage_key AS key`,
      [row.applicationId],
    );
    await tx.query(
      "UPDATE applicants SET answers = NULL, email_mac = NULL, updated_at = $2 WHERE application_id = $1",
      [row.applicationId, now],
    );
    await tx.query(
      `UPDATE applications SET status = 'withdrawn', status_at = $2, ended_at = $2, updated_at = $2,
         notes = '', notes_sealed = NULL
       WHERE id = $1`,
      [row.applicationId, now],
    );
    // The staff history goes; its audit (no personal data) stays, with the withdrawal.
    await audit(tx, [row.applicationId], "withdrawn", now);
    await tx.query("DELETE FROM application_events WHERE application_id = $1", [row.applicationId]);
    await eraseMailOf(tx, [applicationRef(row.applicationId)]);
    await queueFileDeletions(
      tx,
      documents.map((d) => d.key),
    );
    return { storageKeys: documents.map((d) => d.key) };
  });
}

/**
 * Retention (docs/behaviour.md §32): applications APPLICATION_RETENTION_DAYS after a decision or
 * a withdrawal, drafts DRAFT_RETENTION_DAYS after their last change, and submitted applications
 * never decided APPLICATION_UNDECIDED_DAYS after their last change. Returns what was erased and
 * the documents' storage keys (queued for deletion: file-deletions.server.ts).
 */
export async function purgeApplications(
  db: Db,
  {
    now = new Date(),
    retentionDays,
    draftDays,
    undecidedDays,
  }: { now?: Date; retentionDays: number; draftDays: number; undecidedDays: number },
): Promise<{ erased: number; ids: number[]; storageKeys: string[] }> {
  return db.transaction(async (tx) => {
    const due = await tx.query<{ id: number }>(
      `SELECT id::int AS id FROM applications
       WHERE (ended_at IS NOT NULL AND ended_at <= $1) OR (status = 'draft' AND updated_at <= $2)
         OR (status IN ('received', 'under-review') AND greatest(status_at, updated_at) <= $3)
       FOR UPDATE`,
      [
        new Date(now.getTime() - retentionDays * DAY_MS),
        new Date(now.getTime() - draftDays * DAY_MS),
        new Date(now.getTime() - undecidedDays * DAY_MS),
      ],
    );
    const ids = due.map((r) => r.id);
    if (ids.length === 0) return { erased: 0, ids, storageKeys: [] };
    const documents = await tx.query<{ key: string }>(
      `SELECT d.storage_key AS key FROM application_documents d
       JOIN applicants p ON p.id = d.applicant_id WHERE p.application_id = ANY($1::bigint[])`,
      [ids],
    );
    await tx.query("DELETE FROM applications WHERE id = ANY($1::bigint[])", [ids]);
    await eraseMailOf(
      tx,
      ids.map((id) => applicationRef(id)),
    );
    await audit(tx, ids, "retention", now);
    await queueFileDeletions(
      tx,
      documents.map((d) => d.key),
    );
    return { erased: ids.length, ids, storageKeys: documents.map((d) => d.key) };
  });
}

export const DOCUMENT_REFUSALS = {
  tooMany: `You can send at most ${DOCUMENT_LIMITS.files} files.`,
  closed: "This application can no longer be changed.",
  quota: (mb: number) =>
    `This application's documents may take at most ${mb} MB in all. Remove a document to make room, or send a smaller file.`,
  churn: (mb: number) =>
    `This application has received ${mb} MB of documents, the most one application can. Contact us to send more.`,
} as const;

/** Default of APPLICATION_DOCUMENT_QUOTA_MB. */
export const DOCUMENT_QUOTA_MB = 40;
/** Bytes uploaded over an application's life, removed ones included, per byte of quota. */
export const DOCUMENT_CHURN_FACTOR = 3;

/**
 * Adds a document to the applicant behind `token`: checked (documents.server.ts), sealed into
 * the vault, then recorded; if recording fails, the stored file is removed again.
 */
export async function addDocument(
  db: Db,
  key: KeyMaterial,
  vault: DocumentVault,
  token: string,
  upload: { kind: keyof typeof DOCUMENT_KINDS; name: string; bytes: Buffer },
  now = new Date(),
  quotaMb = DOCUMENT_QUOTA_MB,
): Promise<{ id: number }> {
  const opened = await editableApplicant(db, token, now);
  if (!opened) throw new DocumentRejectedError(DOCUMENT_REFUSALS.closed, 409);
  const quota = quotaMb * 1024 * 1024;
  const allowance = quota * DOCUMENT_CHURN_FACTOR;
  // Bytes kept over the application's life, removed ones included, so that removing and sending
  // again cannot make the server check and store without end (docs/decisions/0073). Read here
  // so a file over it is not even checked; counted for good in the transaction below.
  const [life] = await db.query<{ bytes: number }>(
    "SELECT documents_uploaded_bytes::float8 AS bytes FROM applications WHERE id = $1",
    [opened.applicationId],
  );
  const churn = DOCUMENT_REFUSALS.churn(quotaMb * DOCUMENT_CHURN_FACTOR);
  if (Number(life?.bytes ?? 0) + upload.bytes.length > allowance) {
    throw new DocumentRejectedError(churn);
  }
  const checked = await checkDocument(upload.bytes);
  const storageKey = await vault.store(opened.applicationId, checked.data);
  try {
    return await db.transaction(async (tx) => {
      // Locks the application, then the applicant, so two uploads at once cannot both take the
      // tenth place or the quota's last bytes.
      await tx.query("SELECT id FROM applications WHERE id = $1 FOR UPDATE", [
        opened.applicationId,
      ]);
      await tx.query("SELECT id FROM applicants WHERE id = $1 FOR UPDATE", [opened.applicantId]);
      const [count] = await tx.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM application_documents WHERE applicant_id = $1",
        [opened.applicantId],
      );
      if ((count?.n ?? 0) >= DOCUMENT_LIMITS.files) {
        throw new DocumentRejectedError(DOCUMENT_REFUSALS.tooMany);
      }
      // The household's documents together (every adult's), under the application's lock.
      const [stored] = await tx.query<{ bytes: number }>(
        `SELECT coalesce(sum(d.bytes), 0)::bigint::float8 AS bytes FROM application_documents d
         JOIN applicants p ON p.id = d.applicant_id WHERE p.application_id = $1`,
        [opened.applicationId],
      );
      if (Number(stored?.bytes ?? 0) + checked.data.length > quota) {
        throw new DocumentRejectedError(DOCUMENT_REFUSALS.quota(quotaMb));
      }
      const [counted] = await tx.query<{ id: number }>(
        `UPDATE applications SET documents_uploaded_bytes = documents_uploaded_bytes + $2
         WHERE id = $1 AND documents_uploaded_bytes + $2 <= $3 RETURNING id::int AS id`,
        [opened.applicationId, upload.bytes.length, allowance],
      );
      if (!counted) throw new DocumentRejectedError(churn);
      const name = upload.name.replace(/[\p{Cc}/\\]/gu, "_").slice(0, 200) || "document";
      const [row] = await tx.query<{ id: number }>(
        `INSERT INTO application_documents (applicant_id, kind, storage_key, name_sealed, content_type, bytes)
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING id::int AS id`,
        [
          opened.applicantId,
          upload.kind,
          storageKey,
          seal(key, Buffer.from(name, "utf8"), documentNameContext(storageKey)),
          checked.type,
          checked.data.length,
        ],
      );
      return { id: row?.id as number };
    });
  } catch (error) {
    // Queued first, so that a failing store leaves it to the retention worker, not behind.
    await queueFileDeletions(db, [storageKey]).catch(() => undefined);
    await removeQueued(db, vault, [storageKey]);
    throw error;
  }
}

/**
 * The applicant behind `token` while they may still change their part (their own part is not
 * finished; the main applicant's application is still a draft, another adult's not withdrawn).
 */
async function editableApplicant(
  db: Queryable,
  token: string,
  now: Date,
): Promise<{ applicationId: number; applicantId: number; position: number } | null> {
  const [row] = await db.query<{
    applicationId: number;
    applicantId: number;
    position: number;
    status: ApplicationStatus;
    completedAt: Date | null;
    expiresAt: Date;
  }>(
    `SELECT a.id::int AS "applicationId", p.id::int AS "applicantId", p.position, a.status,
       p.completed_at AS "completedAt", p.token_expires_at AS "expiresAt"
     FROM applicants p JOIN applications a ON a.id = p.application_id WHERE p.token_hash = $1`,
    [tokenHash(token)],
  );
  if (!row || row.completedAt || new Date(row.expiresAt) <= now) return null;
  const editable = row.position === 0 ? row.status === "draft" : row.status !== "withdrawn";
  return editable ? row : null;
}

export interface OwnDocument {
  id: number;
  kind: keyof typeof DOCUMENT_KINDS;
  name: string;
  contentType: string;
  bytes: number;
}

/** The documents an applicant sent, oldest first, with their names unsealed. */
export async function listOwnDocuments(
  db: Queryable,
  key: KeyMaterial,
  applicantId: number,
): Promise<OwnDocument[]> {
  const rows = await db.query<{
    id: number;
    kind: keyof typeof DOCUMENT_KINDS;
    nameSealed: Uint8Array;
    storageKey: string;
    contentType: string;
    bytes: number;
  }>(
    `SELECT id::int AS id, kind, name_sealed AS "nameSealed", storage_key AS "storageKey",
       content_type AS "contentType", bytes
     FROM application_documents WHERE applicant_id = $1 ORDER BY id`,
    [applicantId],
  );
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    name: unseal(key, Buffer.from(r.nameSealed), documentNameContext(r.storageKey)).toString(
      "utf8",
    ),
    contentType: r.contentType,
    bytes: r.bytes,
  }));
}

/** Removes one of the applicant's own documents while they may change their part. */
export async function removeDocument(
  db: Db,
  vault: DocumentVault,
  token: string,
  documentId: number,
  now = new Date(),
): Promise<boolean> {
  const removed = await db.transaction(async (tx) => {
    const opened = await editableApplicant(tx, token, now);
    if (!opened) return null;
    const [row] = await tx.query<{ key: string }>(
      `DELETE FROM application_documents WHERE id = $1 AND applicant_id = $2
       RETURNING storage_key AS key`,
      [documentId, opened.applicantId],
    );
    if (row) await queueFileDeletions(tx, [row.key]);
    return row?.key ?? null;
  });
  if (!removed) return false;
  await removeQueued(db, vault, [removed]);
  return true;
}

/**
 * Another adult's 'Submit application': their own part is finished (the household's status page
 * shows it). False when the link is not another adult's or their part is already finished.
 */
export async function completeApplicant(db: Db, token: string, now = new Date()) {
  return db.transaction(async (tx) => {
    const opened = await editableApplicant(tx, token, now);
    if (!opened || opened.position === 0) return false;
    const done = await tx.query(
      `UPDATE applicants SET completed_at = $2, step = 'review', updated_at = $2
       WHERE id = $1 AND completed_at IS NULL RETURNING id`,
      [opened.applicantId, now],
    );
    await tx.query("UPDATE applications SET updated_at = $2 WHERE id = $1", [
      opened.applicationId,
      now,
    ]);
    return done.length > 0;
  });
}

/** Each adult's name and whether their part is finished (the main applicant's status page). */
export async function householdProgress(
  db: Queryable,
  key: KeyMaterial,
  applicationId: number,
): Promise<{ position: number; name: string; done: boolean }[]> {
  const rows = await db.query<{
    position: number;
    answers: Uint8Array | null;
    completedAt: Date | null;
  }>(
    `SELECT position, answers, completed_at AS "completedAt" FROM applicants
     WHERE application_id = $1 ORDER BY position`,
    [applicationId],
  );
  return rows.map((r) => ({
    position: r.position,
    name: r.answers
      ? (unsealJson<Answers>(key, Buffer.from(r.answers), answersContext(applicationId, r.position))
          .fullName ?? "")
      : "",
    done: r.completedAt !== null,
  }));
}

/**
 * 'Erase this person' (docs/behaviour.md §27, §32): the applications whose main applicant used
 * this address go whole; where they were another adult, their answers, documents and link go,
 * and so do their name and address in the household's answers (a draft's too); every e-mail to
 * the address goes from the outbox. Found by the address's HMAC (the address itself is stored
 * only sealed). Returns how many applications were touched and the documents' storage keys
 * (queued for deletion: file-deletions.server.ts).
 */
export async function eraseApplicationsOf(
  db: Db,
  key: KeyMaterial,
  email: string,
  { actorId = null, now = new Date() }: { actorId?: string | null; now?: Date } = {},
): Promise<{ erased: number; storageKeys: string[] }> {
  if (/\p{Cc}/u.test(email) || email.trim() === "") return { erased: 0, storageKeys: [] };
  // Under every key still configured, and as stored before subkeys (docs/operations.md).
  const macs = emailMacs(key, email);
  const address = email.trim().toLowerCase();
  return db.transaction(async (tx) => {
    await eraseMailTo(tx, email);
    const people = await tx.query<{ id: number; applicationId: number; position: number }>(
      `SELECT id::int AS id, application_id::int AS "applicationId", position
       FROM applicants WHERE email_mac = ANY($1::text[]) FOR UPDATE`,
      [macs],
    );
    const whole = [...new Set(people.filter((p) => p.position === 0).map((p) => p.applicationId))];
    const adults = people.filter((p) => p.position > 0 && !whole.includes(p.applicationId));
    // Households that name the address: those it joined, and drafts naming it before submit.
    const naming = await tx.query<{ id: number; applicationId: number; answers: Uint8Array }>(
      `SELECT p.id::int AS id, p.application_id::int AS "applicationId", p.answers
       FROM applicants p JOIN applications a ON a.id = p.application_id
       WHERE p.position = 0 AND p.answers IS NOT NULL AND NOT (a.id = ANY($1::bigint[]))
         AND (a.status = 'draft' OR a.id = ANY($2::bigint[]))
       FOR UPDATE OF p`,
      [whole, adults.map((p) => p.applicationId)],
    );
    const named: number[] = [];
    for (const row of naming) {
      const context = answersContext(row.applicationId, 0);
      const answers = unsealJson<Answers>(key, Buffer.from(row.answers), context);
      const kept = { ...answers };
      for (const [field, value] of Object.entries(answers)) {
        const adult = /^adult\.(\d+)\.email$/.exec(field);
        if (adult && value.trim().toLowerCase() === address) {
          delete kept[field];
          delete kept[`adult.${adult[1]}.name`];
        }
      }
      if (Object.keys(kept).length === Object.keys(answers).length) continue;
      named.push(row.applicationId);
      await tx.query("UPDATE applicants SET answers = $2 WHERE id = $1", [
        row.id,
        sealJson(key, kept, context),
      ]);
    }
    const touched = [...new Set([...adults.map((p) => p.applicationId), ...named])];
    if (whole.length === 0 && touched.length === 0) return { erased: 0, storageKeys: [] };
    const documents = await tx.query<{ key: string }>(
      `SELECT d.storage_key AS key FROM application_documents d JOIN applicants p ON p.id = d.applicant_id
       WHERE p.application_id = ANY($1::bigint[]) OR p.id = ANY($2::bigint[])`,
      [whole, adults.map((p) => p.id)],
    );
    await audit(tx, whole, "erased", now, actorId);
    await audit(tx, touched, "person erased", now, actorId);
    await tx.query("DELETE FROM applications WHERE id = ANY($1::bigint[])", [whole]);
    await eraseMailOf(
      tx,
      whole.map((id) => applicationRef(id)),
    );
    if (adults.length > 0) {
      const ids = adults.map((p) => p.id);
      await tx.query("DELETE FROM application_documents WHERE applicant_id = ANY($1::bigint[])", [
        ids,
      ]);
      // Their link no longer opens (another adult's expires: openApplication).
      await tx.query(
        `UPDATE applicants SET answers = NULL, email_mac = NULL, token_expires_at = $2
         WHERE id = ANY($1::bigint[])`,
        [ids, new Date(0)],
      );
    }
    await queueFileDeletions(
      tx,
      documents.map((d) => d.key),
    );
    return {
      erased: new Set([...whole, ...touched]).size,
      storageKeys: documents.map((d) => d.key),
    };
  });
}
