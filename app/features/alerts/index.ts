// The alerts feature's public surface in the browser (docs/behaviour.md §31; decision 0069).
export { AlertForm } from "./alert-form";
export { AlertFormOnDemand } from "./alert-form-on-demand";
export { AlertLinkForm } from "./alert-link-form";
