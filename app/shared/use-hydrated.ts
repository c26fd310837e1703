import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

/**
 * False in the server's markup and until this component has hydrated, then true. Buttons whose
 * work needs JavaScript stay disabled until then: a click on markup React has not hydrated yet
 * (a lazily loaded block) would be lost silently (docs/decisions/0044-admin-buttons-wait-for-hydration.md).
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
