// The online application's screens (docs/behaviour.md §32): one step at a time with 'Back' and
// 'Next', 'Review and submit', 'Application received', the status page and withdrawal. Plain
// forms posted to the server, so they work without JavaScript; the server checks every field and
// writes every message (noValidate), and every value shown is what was saved or typed.
import { useId, useState } from "react";
import { Form, Link, useRevalidator } from "react-router";
import {
  type Answers,
  APPLICATION_LABELS,
  APPLICATION_STATUSES,
  APPLICATION_STEPS,
  DOCUMENT_KINDS,
  type FieldErrors,
  type FieldSpec,
  STEP_FIELDS,
  type StepId,
} from "~/domain/rental-application";
import { formatWhen } from "~/shared/format-when";
import { FieldError, FormError, invalidField, TextField } from "~/ui";
import type { ApplyAnswer, ApplyView } from "./apply-view";
import { APPLY_MESSAGES, APPLY_PATH, continueUrl } from "./apply-view";

const titleOf = (step: StepId) => APPLICATION_STEPS.find((s) => s.id === step)?.title ?? step;
const fieldsOf = (step: StepId): FieldSpec[] =>
  step === "documents" || step === "review" ? [] : STEP_FIELDS[step];

/** A heading before the first field of a repeated group. */
const GROUP_HEADINGS: Record<string, string> = {
  "earlier.0.address": "Earlier addresses in the last three years",
  "reference.0.name": "References",
  "adult.0.name": "Each adult who will live there with you",
};

const INPUT_TYPES: Record<FieldSpec["kind"], string> = {
  text: "text",
  email: "email",
  tel: "tel",
  date: "date",
  count: "text",
  money: "text",
  "long-text": "text",
};

const AUTOCOMPLETE: Record<string, string> = {
  fullName: "name",
  email: "email",
  phone: "tel",
  dateOfBirth: "bday",
  address: "street-address",
};

function Field({
  spec,
  value,
  error,
  formId,
}: {
  spec: FieldSpec;
  value: string;
  error?: string;
  formId: string;
}) {
  const common = {
    id: `${formId}-${spec.name.replaceAll(".", "-")}`,
    name: spec.name,
    label: spec.required ? spec.label : `${spec.label} (optional)`,
    defaultValue: value,
    maxLength: spec.max,
    error,
  };
  return (
    <div className="application-field">
      {spec.kind === "long-text" ? (
        <TextField rows={3} {...common} />
      ) : (
        <TextField
          type={INPUT_TYPES[spec.kind]}
          inputMode={
            spec.kind === "count" ? "numeric" : spec.kind === "money" ? "decimal" : undefined
          }
          autoComplete={AUTOCOMPLETE[spec.name] ?? "off"}
          {...common}
        />
      )}
    </div>
  );
}

function StepButtons({
  first,
  last,
  waiting = false,
}: {
  first: boolean;
  last: boolean;
  /** A chosen file is being sent: the buttons wait for it. */
  waiting?: boolean;
}) {
  return (
    <div className="application-buttons">
      {last ? null : (
        <button
          type="submit"
          name="intent"
          value="next"
          className="btn btn-primary"
          disabled={waiting}
        >
          {APPLICATION_LABELS.next}
        </button>
      )}
      {first ? null : (
        <button
          type="submit"
          name="intent"
          value="back"
          className="btn btn-outline"
          disabled={waiting}
        >
          {APPLICATION_LABELS.back}
        </button>
      )}
      <button type="submit" name="intent" value="later" className="btn btn-link" disabled={waiting}>
        {APPLICATION_LABELS.saveLater}
      </button>
    </div>
  );
}

type StepsView = Extract<ApplyView, { kind: "steps" }>;

function Progress({ view }: { view: StepsView }) {
  return (
    <ol className="application-progress">
      {view.steps.map((step) => (
        <li key={step} aria-current={step === view.step ? "step" : undefined}>
          {titleOf(step)}
        </li>
      ))}
    </ol>
  );
}

function Documents({ view }: { view: StepsView }) {
  const action = view.token ? continueUrl(view.token, { step: "documents" }) : APPLY_PATH;
  return (
    <>
      <p>
        Photo ID and proof of income (recent pay slips, an offer letter or bank statements): JPEG,
        PNG or PDF, up to 10 files of 10 MB each. They are kept encrypted and seen only by our
        staff.
      </p>
      {view.documents.length > 0 ? (
        <ul className="application-documents">
          {view.documents.map((d) => (
            <li key={d.id}>
              <span>
                {DOCUMENT_KINDS[d.kind]}: {d.name} ({Math.max(1, Math.round(d.bytes / 1024))} KB)
              </span>{" "}
              <Form method="post" action={action} className="inline-form">
                <input type="hidden" name="step" value="documents" />
                <input type="hidden" name="document" value={d.id} />
                <button
                  type="submit"
                  name="intent"
                  value="remove"
                  className="btn btn-sm btn-outline"
                  aria-label={`Remove ${d.name}`}
                >
                  Remove
                </button>
              </Form>
            </li>
          ))}
        </ul>
      ) : (
        <p>No documents yet.</p>
      )}
    </>
  );
}

/**
 * The upload's fields, inside the step's own form (multipart), so that 'Next', 'Back' and 'Save
 * and finish later' send a chosen file too: without JavaScript nothing chosen is lost. With it,
 * choosing a file is enough: it is sent at once with a progress bar (XMLHttpRequest, for its
 * upload progress), and the buttons wait for it (docs/behaviour.md §32).
 */
function UploadFields({
  errors,
  formId,
  action,
  uploading,
  setUploading,
}: {
  errors: FieldErrors;
  formId: string;
  action: string;
  uploading: number | null;
  setUploading: (progress: number | null) => void;
}) {
  const revalidator = useRevalidator();
  const [sendError, setSendError] = useState<string | null>(null);
  const fileError = sendError ?? errors.file;
  // Sending is loaded when a file is chosen (docs/decisions/0077-csv-guards-and-light-public-pages.md).
  // The buttons wait from the moment a file is chosen, not from when that code has arrived: a
  // 'Next' pressed in between would send the file a second time.
  // The form is read first: waiting disables the file field, and a disabled field is not sent.
  const send = (input: HTMLInputElement) => {
    if (!input.form || !input.files?.length) return;
    const body = new FormData(input.form);
    body.set("intent", "upload");
    setUploading(0);
    import("./upload-send").then(
      (m) =>
        m.sendUpload(input, body, action, {
          progress: setUploading,
          failed: setSendError,
          sent: () => void revalidator.revalidate(),
        }),
      () => {
        // Its code did not arrive: the file stays chosen for 'Upload' or 'Next'.
        setUploading(null);
        setSendError(APPLY_MESSAGES.uploadFailed);
      },
    );
  };
  return (
    <div className="application-upload">
      <label className="form-label" htmlFor={`${formId}-kind`}>
        Kind of document
      </label>
      <select
        id={`${formId}-kind`}
        name="kind"
        className="form-control"
        defaultValue="id"
        {...invalidField(`${formId}-kind-error`, errors.kind)}
      >
        {Object.entries(DOCUMENT_KINDS).map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </select>
      <FieldError id={`${formId}-kind-error`} message={errors.kind} />
      <label className="form-label" htmlFor={`${formId}-file`}>
        File (JPEG, PNG or PDF, up to 10 MB)
      </label>
      <input
        id={`${formId}-file`}
        type="file"
        name="file"
        className="form-control"
        accept="image/jpeg,image/png,application/pdf"
        onChange={(e) => send(e.currentTarget)}
        disabled={uploading !== null}
        {...invalidField(`${formId}-file-error`, fileError ?? undefined)}
      />
      {uploading !== null ? (
        <progress
          className="application-upload-progress"
          max={1}
          value={uploading}
          aria-label="Sending the file"
        />
      ) : null}
      <FieldError id={`${formId}-file-error`} message={fileError ?? undefined} />
      <button
        type="submit"
        name="intent"
        value="upload"
        className="btn btn-outline"
        disabled={uploading !== null}
      >
        Upload
      </button>
    </div>
  );
}

function Review({ view }: { view: StepsView }) {
  const token = view.token as string;
  return (
    <>
      {view.steps
        .filter((s) => s !== "review")
        .map((step) => (
          <section key={step} className="application-review">
            <h3>
              {titleOf(step)}{" "}
              <Link to={continueUrl(token, { step })} aria-label={`Edit ${titleOf(step)}`}>
                {APPLICATION_LABELS.edit}
              </Link>
            </h3>
            {step === "documents" ? (
              view.documents.length > 0 ? (
                <ul>
                  {view.documents.map((d) => (
                    <li key={d.id}>
                      {DOCUMENT_KINDS[d.kind]}: {d.name}
                    </li>
                  ))}
                </ul>
              ) : (
                <p>
                  {view.coApplicant ? APPLY_MESSAGES.noDocumentsOwn : APPLY_MESSAGES.noDocuments}
                </p>
              )
            ) : (
              <dl>
                {fieldsOf(step)
                  .filter((f) => (view.values[f.name] ?? "").trim() !== "")
                  .map((f) => (
                    <div key={f.name}>
                      <dt>{f.label}</dt>
                      <dd>{view.values[f.name]}</dd>
                    </div>
                  ))}
              </dl>
            )}
          </section>
        ))}
      {view.criteria ? (
        <section className="application-criteria">
          <h3>Screening criteria</h3>
          <p>{view.criteria}</p>
        </section>
      ) : null}
    </>
  );
}

function Steps({ view, answer }: { view: StepsView; answer: ApplyAnswer | null }) {
  const formId = useId();
  const [uploading, setUploading] = useState<number | null>(null);
  const errors = answer?.errors ?? {};
  const values: Answers = answer?.values ?? view.values;
  const at = view.steps.indexOf(view.step);
  // The step goes along, so that a refused post shows the same step again.
  const action = view.token ? continueUrl(view.token, { step: view.step }) : APPLY_PATH;
  const chosen = answer?.listing ?? view.listing?.value ?? "";
  return (
    <section className="application">
      <h1>{APPLICATION_LABELS.applyOnline}</h1>
      {view.listing ? <p className="application-for">For {view.listing.address}</p> : null}
      <Progress view={view} />
      <h2>{titleOf(view.step)}</h2>
      {view.saved ? (
        <p role="status" className="application-saved">
          {view.saved}
        </p>
      ) : null}
      <FormError message={errors.form} />
      {errors.step && view.token ? (
        <p>
          <Link to={continueUrl(view.token, { step: errors.step })}>
            {APPLICATION_LABELS.edit} {titleOf(errors.step as StepId)}
          </Link>
        </p>
      ) : null}
      {view.step === "applicant" && view.fee ? (
        <p className="application-fee">
          <strong>Application fee:</strong> {view.fee}
        </p>
      ) : null}
      {view.step === "documents" ? <Documents view={view} /> : null}
      {view.step === "review" ? <Review view={view} /> : null}
      <Form
        // Keyed by the documents sent, so that the form starts empty after each upload.
        key={view.documents.map((d) => d.id).join(",")}
        method="post"
        action={action}
        encType={view.step === "documents" ? "multipart/form-data" : undefined}
        noValidate
        className="application-form"
      >
        <input type="hidden" name="step" value={view.step} />
        {view.step === "documents" ? (
          <UploadFields
            errors={errors}
            formId={formId}
            action={action}
            uploading={uploading}
            setUploading={setUploading}
          />
        ) : null}
        {view.token === null && view.listing ? (
          <input type="hidden" name="listing" value={view.listing.value} />
        ) : null}
        {view.token === null && !view.listing && view.choices.length > 0 ? (
          <div className="application-field">
            <label className="form-label" htmlFor={`${formId}-listing`}>
              Property you are applying for
            </label>
            <select
              id={`${formId}-listing`}
              name="listing"
              className="form-control"
              defaultValue={chosen}
              {...invalidField(`${formId}-listing-error`, errors.listing)}
            >
              <option value="">Choose a property</option>
              {view.choices.map((c) => (
                <option key={c.value} value={c.value}>
                  {c.address}
                </option>
              ))}
            </select>
            <FieldError id={`${formId}-listing-error`} message={errors.listing} />
          </div>
        ) : null}
        {fieldsOf(view.step).map((spec) => (
          <div key={spec.name}>
            {GROUP_HEADINGS[spec.name] ? <h3>{GROUP_HEADINGS[spec.name]}</h3> : null}
            <Field
              spec={spec}
              value={values[spec.name] ?? ""}
              error={errors[spec.name]}
              formId={formId}
            />
          </div>
        ))}
        {view.step === "review" ? (
          <>
            <div className="form-check">
              <input
                id={`${formId}-confirm`}
                type="checkbox"
                name="confirm"
                {...invalidField(`${formId}-confirm-error`, errors.confirm)}
              />
              <label htmlFor={`${formId}-confirm`}>{APPLICATION_LABELS.confirm}</label>
            </div>
            <FieldError id={`${formId}-confirm-error`} message={errors.confirm} />
            <div className="application-buttons">
              <button type="submit" name="intent" value="submit" className="btn btn-primary">
                {APPLICATION_LABELS.submit}
              </button>
              <button type="submit" name="intent" value="back" className="btn btn-outline">
                {APPLICATION_LABELS.back}
              </button>
            </div>
          </>
        ) : (
          <StepButtons first={at === 0} last={false} waiting={uploading !== null} />
        )}
      </Form>
    </section>
  );
}

function StatusLine({ status, at }: { status: keyof typeof APPLICATION_STATUSES; at: string }) {
  return (
    <p className="application-status">
      Status: <strong>{APPLICATION_STATUSES[status]}</strong> since{" "}
      <time dateTime={at}>{formatWhen(at)}</time>
    </p>
  );
}

/** Every screen of the online application, from what the loader and the action answered. */
export function ApplicationPage({ view, answer }: { view: ApplyView; answer: ApplyAnswer | null }) {
  switch (view.kind) {
    case "closed":
    case "gone":
      return (
        <section className="application">
          <h1>{APPLICATION_LABELS.applyOnline}</h1>
          <p role="alert">{view.message}</p>
        </section>
      );
    case "withdrawn":
      return (
        <section className="application">
          <h1>Your application</h1>
          <StatusLine status="withdrawn" at={view.statusAt} />
        </section>
      );
    case "received":
      return (
        <section className="application">
          <h1>{APPLICATION_LABELS.received}</h1>
          <p>
            {view.coApplicant
              ? "Thank you: your part of the application is complete."
              : "Thank you. We have e-mailed you the link to your application's status page; keep it private."}
          </p>
          <p>
            <Link to={continueUrl(view.token)}>{APPLICATION_LABELS.statusLink}</Link>
          </p>
        </section>
      );
    case "status":
      return (
        <section className="application">
          <h1>Your application</h1>
          {view.address ? <p className="application-for">For {view.address}</p> : null}
          <StatusLine status={view.status} at={view.statusAt} />
          {view.household.length > 0 ? (
            <>
              <h2>Other adults</h2>
              <ul className="application-household">
                {view.household.map((p) => (
                  <li key={p.position}>
                    {p.name}: {p.done ? "Finished" : "Not finished yet"}
                  </li>
                ))}
              </ul>
            </>
          ) : null}
          {view.coApplicant ? null : view.confirmWithdraw ? (
            <div className="application-withdraw" role="alertdialog" aria-labelledby="withdraw-h">
              <h2 id="withdraw-h">{APPLICATION_LABELS.areYouSure}</h2>
              <p>Every answer and document of this application is erased at once.</p>
              <Form method="post" action={continueUrl(view.token)}>
                <button type="submit" name="intent" value="withdraw" className="btn btn-danger">
                  {APPLICATION_LABELS.withdraw}
                </button>{" "}
                <Link to={continueUrl(view.token)} className="btn btn-outline">
                  Cancel
                </Link>
              </Form>
            </div>
          ) : (
            <p>
              <Link to={continueUrl(view.token, { withdraw: "1" })} className="btn btn-outline">
                {APPLICATION_LABELS.withdraw}
              </Link>
            </p>
          )}
        </section>
      );
    case "steps":
      return <Steps view={view} answer={answer} />;
  }
}
