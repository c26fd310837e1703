// The activity feature's public surface on the server (docs/decisions/0032-layers-and-feature-surfaces.md).
export {
  ACTIVITY_PAGE_SIZE,
  type ActivityItem,
  activityChoices,
  activityRecorder,
  listActivity,
  purgeActivity,
} from "./activity.server";
export { activityFeature } from "./feature.server";
