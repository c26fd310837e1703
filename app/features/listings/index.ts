// The listings feature's public surface in the browser (docs/decisions/0032-layers-and-feature-surfaces.md).
export { FieldError, FormError, invalidField } from "~/shared/form-messages";
export { recordElapsed, SpamGuardFields } from "./spam-guard";
