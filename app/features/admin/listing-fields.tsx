import { useId, useLayoutEffect, useRef } from "react";
import {
  type FactField,
  factFieldsOf,
  PET_LABELS,
  PET_POLICIES,
  SHOWINGS_LABELS,
  SHOWINGS_MODES,
  US_STATES,
} from "~/domain/listing-facts";
import { LISTING_FIELD_LABELS } from "~/domain/listing-fields";
import { type ListingKind, PROPERTY_TYPES } from "~/domain/listing-kinds";
import { addedMessages } from "~/domain/messages";
import { TextField } from "~/ui";
import type { ListingFormValues } from "./form-values";

/** A field the server refused (its `field`), with the server's message. */
export interface FieldError {
  field: string;
  message: string;
}

interface ListingFieldsProps {
  kind: ListingKind;
  mode: "add" | "edit";
  values: ListingFormValues;
  onChange: (next: ListingFormValues) => void;
  disabled?: boolean;
  /** Marks the refused field (aria-invalid, the message under it) beside the error dialog. */
  error?: FieldError | null;
}

/** The record's inputs for both kinds and both forms (docs/behaviour.md §2 lists which appear where). */
export function ListingFields({
  kind,
  mode,
  values,
  onChange,
  disabled,
  error,
}: ListingFieldsProps) {
  const id = useId();
  /** aria-invalid and the description of the refused field; nothing for the others. */
  const invalid = (key: string) =>
    error?.field === key
      ? { "aria-invalid": true as const, "aria-describedby": `${id}-${key}-error` }
      : {};
  const message = (key: string) =>
    error?.field === key ? (
      <p className="field-error" id={`${id}-${key}-error`}>
        {error.message}
      </p>
    ) : null;
  const set = <K extends keyof ListingFormValues>(key: K, value: ListingFormValues[K]) =>
    onChange({ ...values, [key]: value });
  const text = (
    key: "address" | "price" | "thumbnail_description" | "reserve_url",
    type = "text",
    note?: string,
  ) => (
    <div>
      <label className="form-label" htmlFor={`${id}-${key}`}>
        {LISTING_FIELD_LABELS[key]}
      </label>
      <input
        id={`${id}-${key}`}
        className="form-control"
        type={type}
        value={values[key]}
        onChange={(e) => set(key, e.currentTarget.value)}
        disabled={disabled}
        {...invalid(key)}
        aria-describedby={
          [error?.field === key ? `${id}-${key}-error` : "", note ? `${id}-${key}-note` : ""]
            .filter(Boolean)
            .join(" ") || undefined
        }
      />
      {message(key)}
      {note ? (
        <p id={`${id}-${key}-note`} className="form-warning" data-testid="form-warning">
          {note}
        </p>
      ) : null}
    </div>
  );
  // Only for Vacation properties, in both forms (docs/behaviour.md §2, 'Reservation URL').
  const reserveUrl =
    kind.hasOffer && values.property_type === "Vacation"
      ? text(
          "reserve_url",
          "url",
          values.reserve_url.trim() === "" ? addedMessages.noReservationUrl : undefined,
        )
      : null;
  const number = (key: "bedrooms" | "bathrooms") => (
    <div>
      <TextField
        id={`${id}-${key}`}
        label={LISTING_FIELD_LABELS[key]}
        type="number"
        min={0}
        step="any"
        inputMode="decimal"
        value={values[key]}
        onChange={(e) => set(key, e.currentTarget.value)}
        disabled={disabled}
        error={error?.field === key ? error.message : undefined}
      />
    </div>
  );
  const typeSelect = (
    <div>
      <label className="form-label" htmlFor={`${id}-type`}>
        {LISTING_FIELD_LABELS.property_type}
      </label>
      <select
        id={`${id}-type`}
        className="form-select"
        value={values.property_type}
        onChange={(e) =>
          set("property_type", e.currentTarget.value as ListingFormValues["property_type"])
        }
        disabled={disabled}
        {...invalid("property_type")}
      >
        {PROPERTY_TYPES.map((type) => (
          <option key={type} value={type}>
            {type}
          </option>
        ))}
      </select>
      {message("property_type")}
    </div>
  );
  const description = (
    <div>
      <label className="form-label" htmlFor={`${id}-description`}>
        {LISTING_FIELD_LABELS.description}
      </label>
      <AutoGrowTextarea
        id={`${id}-description`}
        value={values.description}
        onChange={(v) => set("description", v)}
        disabled={disabled}
        autoGrow={mode === "edit"}
        invalid={invalid("description")}
      />
      {message("description")}
    </div>
  );

  // The facts renters search by (app/domain/listing-facts.ts), optional, the same in both forms.
  const fact = (field: FactField) => {
    const key = field.key;
    const common = {
      id: `${id}-${key}`,
      value: values[key],
      disabled,
      ...invalid(key),
    };
    const onChange = (e: { currentTarget: { value: string } }) => set(key, e.currentTarget.value);
    let control: React.ReactNode;
    if (field.input === "state") {
      control = (
        <select className="form-select" {...common} onChange={onChange}>
          <option value="">—</option>
          {Object.entries(US_STATES).map(([code, name]) => (
            <option key={code} value={code}>
              {name}
            </option>
          ))}
        </select>
      );
    } else if (field.input === "pets") {
      control = (
        <select className="form-select" {...common} onChange={onChange}>
          <option value="">—</option>
          {PET_POLICIES.map((p) => (
            <option key={p} value={p}>
              {PET_LABELS[p]}
            </option>
          ))}
        </select>
      );
    } else if (field.input === "showings") {
      // Empty is 'Open hours', the default (docs/behaviour.md §33).
      control = (
        <select className="form-select" {...common} onChange={onChange}>
          <option value="">{SHOWINGS_LABELS.open}</option>
          {SHOWINGS_MODES.map((m) => (
            <option key={m} value={m}>
              {SHOWINGS_LABELS[m]}
            </option>
          ))}
        </select>
      );
    } else {
      control = (
        <input
          className="form-control"
          type={field.input === "date" ? "date" : field.input === "integer" ? "number" : "text"}
          {...(field.input === "integer" ? { min: 1, step: 1, inputMode: "numeric" as const } : {})}
          {...(field.input === "zip" ? { inputMode: "numeric" as const, autoComplete: "off" } : {})}
          {...common}
          onChange={onChange}
        />
      );
    }
    return (
      <div key={key}>
        <label className="form-label" htmlFor={`${id}-${key}`}>
          {LISTING_FIELD_LABELS[key]}
        </label>
        {control}
        {message(key)}
      </div>
    );
  };
  const facts = (
    <fieldset className="facts">
      <legend>Details</legend>
      <div className="row">{factFieldsOf(kind.collection).map(fact)}</div>
    </fieldset>
  );

  if (mode === "add") {
    return (
      <>
        {text("address")}
        <div className="row">
          {number("bedrooms")}
          {number("bathrooms")}
        </div>
        {description}
        {kind.hasOffer ? text("price") : null}
        {text("thumbnail_description")}
        {kind.hasOffer ? (
          <div className="form-check">
            <input
              id={`${id}-available`}
              type="checkbox"
              checked={values.currently_available}
              onChange={(e) => set("currently_available", e.currentTarget.checked)}
              disabled={disabled}
              {...invalid("currently_available")}
            />
            <label htmlFor={`${id}-available`}>Currently Available</label>
            {message("currently_available")}
          </div>
        ) : null}
        {typeSelect}
        {reserveUrl}
        {facts}
      </>
    );
  }
  return (
    <>
      {text("address")}
      {description}
      {kind.hasOffer ? text("price") : null}
      <div className="row">
        {number("bedrooms")}
        {number("bathrooms")}
      </div>
      {kind.hasOffer ? (
        <div>
          <label className="form-label" htmlFor={`${id}-status`}>
            Status
          </label>
          <select
            id={`${id}-status`}
            className="form-select"
            value={values.currently_available ? "available" : "not-available"}
            onChange={(e) => set("currently_available", e.currentTarget.value === "available")}
            disabled={disabled}
            {...invalid("currently_available")}
          >
            <option value="available">Available</option>
            <option value="not-available">Not Available</option>
          </select>
          {message("currently_available")}
        </div>
      ) : null}
      {typeSelect}
      {reserveUrl}
      {text("thumbnail_description")}
      {facts}
    </>
  );
}

function AutoGrowTextarea({
  id,
  value,
  onChange,
  disabled,
  autoGrow,
  invalid,
}: {
  id: string;
  value: string;
  onChange: (v: string) => void;
  disabled?: boolean;
  autoGrow: boolean;
  invalid?: Record<string, unknown>;
}) {
  const ref = useRef<HTMLTextAreaElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-measure whenever the text changes
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el || !autoGrow) return;
    el.style.height = "auto";
    el.style.height = `${el.scrollHeight + 2}px`;
  }, [value, autoGrow]);
  return (
    <textarea
      ref={ref}
      id={id}
      className="form-control"
      rows={5}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      disabled={disabled}
      {...invalid}
    />
  );
}
