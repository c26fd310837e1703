// The online applications feature's surface for pages (docs/behaviour.md §32).
export { ApplicationPage } from "./application-pages";
export {
  APPLY_PATH,
  type ApplyAnswer,
  type ApplyView,
  CONTINUE_PATH,
  continueUrl,
} from "./apply-view";
