import { useId, useLayoutEffect, useRef } from "react";
import { type ListingKind, PROPERTY_TYPES } from "~/domain/listing-kinds";
import type { ListingFormValues } from "./form-values";

interface ListingFieldsProps {
  kind: ListingKind;
  mode: "add" | "edit";
  values: ListingFormValues;
  onChange: (next: ListingFormValues) => void;
  disabled?: boolean;
}

/** The record's inputs for both kinds and both forms (docs/behaviour.md §2 lists which appear where). */
export function ListingFields({ kind, mode, values, onChange, disabled }: ListingFieldsProps) {
  const id = useId();
  const set = <K extends keyof ListingFormValues>(key: K, value: ListingFormValues[K]) =>
    onChange({ ...values, [key]: value });
  const text = (
    key: "address" | "price" | "thumbnail_description" | "reserve_url",
    label: string,
    type = "text",
  ) => (
    <div>
      <label className="form-label" htmlFor={`${id}-${key}`}>
        {label}
      </label>
      <input
        id={`${id}-${key}`}
        className="form-control"
        type={type}
        value={values[key]}
        onChange={(e) => set(key, e.currentTarget.value)}
        disabled={disabled}
      />
    </div>
  );
  const number = (key: "bedrooms" | "bathrooms", label: string) => (
    <div>
      <label className="form-label" htmlFor={`${id}-${key}`}>
        {label}
      </label>
      <input
        id={`${id}-${key}`}
        className="form-control"
        type="number"
        min={0}
        step="any"
        inputMode="decimal"
        value={values[key]}
        onChange={(e) => set(key, e.currentTarget.value)}
        disabled={disabled}
      />
    </div>
  );
  const typeSelect = (
    <div>
      <label className="form-label" htmlFor={`${id}-type`}>
        Property Type
      </label>
      <select
        id={`${id}-type`}
        className="form-select"
        value={values.property_type}
        onChange={(e) =>
          set("property_type", e.currentTarget.value as ListingFormValues["property_type"])
        }
        disabled={disabled}
      >
        {PROPERTY_TYPES.map((type) => (
          <option key={type} value={type}>
            {type}
          </option>
        ))}
      </select>
    </div>
  );
  const description = (
    <div>
      <label className="form-label" htmlFor={`${id}-description`}>
        Description
      </label>
      <AutoGrowTextarea
        id={`${id}-description`}
        value={values.description}
        onChange={(v) => set("description", v)}
        disabled={disabled}
        autoGrow={mode === "edit"}
      />
    </div>
  );

  if (mode === "add") {
    return (
      <>
        {text("address", "Address")}
        <div className="row">
          {number("bedrooms", "Bedrooms")}
          {number("bathrooms", "Bathrooms")}
        </div>
        {description}
        {kind.hasOffer ? text("price", "Price") : null}
        {text("thumbnail_description", "Thumbnail Description")}
        {kind.hasOffer ? (
          <div className="form-check">
            <input
              id={`${id}-available`}
              type="checkbox"
              checked={values.currently_available}
              onChange={(e) => set("currently_available", e.currentTarget.checked)}
              disabled={disabled}
            />
            <label htmlFor={`${id}-available`}>Currently Available</label>
          </div>
        ) : null}
        {typeSelect}
      </>
    );
  }
  return (
    <>
      {text("address", "Address")}
      {description}
      {kind.hasOffer ? text("price", "Price") : null}
      <div className="row">
        {number("bedrooms", "Bedrooms")}
        {number("bathrooms", "Bathrooms")}
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
          >
            <option value="available">Available</option>
            <option value="not-available">Not Available</option>
          </select>
        </div>
      ) : null}
      {typeSelect}
      {kind.hasOffer && values.property_type === "Vacation"
        ? text("reserve_url", "Reservation URL", "url")
        : null}
      {text("thumbnail_description", "Thumbnail Description")}
    </>
  );
}

function AutoGrowTextarea({
  id,
  value,
  onChange,
  disabled,
  autoGrow,
}: {
  id: string;
  value: string;
  onChange: (v: string) => void;
  disabled?: boolean;
  autoGrow: boolean;
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
    />
  );
}
