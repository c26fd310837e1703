// The resilience suites' randomness comes from one seed per run, printed at the start, so a
// failure can be replayed (docs/decisions/0036-resilience-suites.md): `RESILIENCE_SEED=<n>`.

/** The run's seed: RESILIENCE_SEED (set once per run by vitest.resilience.config.ts), else one picked now. */
export const RESILIENCE_SEED = Number(process.env.RESILIENCE_SEED ?? Date.now() % 2 ** 31);

/**
 * A generator of numbers in [0, 1) from `seed` and a suite's name (mulberry32), so each suite
 * has its own sequence and adding a draw to one suite does not move another's.
 */
export function seededRandom(suite: string, seed = RESILIENCE_SEED): () => number {
  let state = seed >>> 0;
  for (const char of suite) state = Math.imul(state ^ char.charCodeAt(0), 2_654_435_761) >>> 0;
  console.log(`${suite}: seed ${seed} (RESILIENCE_SEED=${seed} replays it)`);
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}
