/**
 * The bench's verdict, kept apart from the benchmarks so that it can be tested
 * (.ci/bench-verdict.test.mjs): a floor's spread and noise from its repeats, and whether a row
 * meets its target, misses it by no more than that noise, or misses it.
 *
 * The noise rule (the one place it is computed; run-all.mjs states it too): every floor is measured
 * k ≥ 2 times in the same run, interleaved with Loupe's side (k runs or rounds, or k blocks of calls
 * whose medians are the repeats). The noise of the floor's figure is two standard errors of the
 * median of those repeats, relative to it: 2 · 1.2533 · σ / √k, with σ estimated robustly as
 * 1.4826 · MAD (median absolute deviation), so that one stray repeat on a shared machine does not
 * widen it: about how far the floor's own figure would move if the run were made again. A ratio's
 * noise is the ratio times that; an added time's noise is that times the floor, in ms.
 */

/** The floor's repeats → their min/median/max and the relative noise of its figure (undefined for k < 2). */
export function spread(repeats) {
  const values = repeats.filter((v) => Number.isFinite(v));
  const k = values.length;
  const mid = median(values);
  const sigma = 1.4826 * median(values.map((v) => Math.abs(v - mid)));
  const noise = k >= 2 && mid > 0 ? (2 * 1.2533 * sigma) / Math.sqrt(k) / mid : undefined;
  return { min: Math.min(...values), median: mid, max: Math.max(...values), repeats: k, values, noise };
}

/** Medians of consecutive chunks of `size`: the per-block figures of an interleaved run. */
export function blockMedians(times, size) {
  const out = [];
  for (let i = 0; i + size <= times.length; i += size) out.push(median(times.slice(i, i + size)));
  return out;
}

function median(values) {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/**
 * One row of the summary.
 * @typedef {object} Check
 * @property {string} label what is measured
 * @property {string} loupe Loupe's figure, as printed
 * @property {string} floor the floor's figure and spread, as printed
 * @property {number} [value] the judged figure: a ratio to the floor (unit '×') or ms added over it (unit 'ms')
 * @property {'×' | 'ms'} [unit]
 * @property {'most' | 'least'} [at] the target is an upper ('most') or lower ('least') bound
 * @property {number} [target]
 * @property {number} [noise] in the unit of `value`; undefined when the floor was not repeated
 * @property {string} [broken] why the row fails whatever its figure (notifications lost, no floor, could not run)
 * @property {boolean} [context] printed for context, never judged
 */

/** 'yes', 'within noise' or 'no' (or 'context'). */
export function judge(check) {
  if (check.context) return 'context';
  if (check.broken || !Number.isFinite(check.value) || !Number.isFinite(check.target)) return 'no';
  const over = check.at === 'least' ? check.target - check.value : check.value - check.target;
  if (over <= 0) return 'yes';
  return over <= (check.noise ?? 0) ? 'within noise' : 'no';
}

const digits = (x) => (Math.abs(x) >= 0.1 || x === 0 ? 2 : 3);
const fixed = (x) => x.toFixed(digits(x));

/** `1.53×` or `+0.071 ms`. */
export function figureText(value, unit) {
  if (!Number.isFinite(value)) return 'n/a';
  return unit === 'ms' ? `${value < 0 ? '−' : '+'}${fixed(Math.abs(value))} ms` : `${fixed(value)}×`;
}

export function targetText(check) {
  if (check.context) return '(context)';
  // As the target was written (1.3, not 1.30).
  return `${check.at === 'least' ? '≥' : '≤'} ${check.unit === 'ms' ? `+${check.target} ms` : `${check.target}×`}`;
}

export function noiseText(check) {
  if (check.context) return '';
  if (!Number.isFinite(check.noise)) return 'not measured';
  // Its digits, no trailing zeros: ±0.04×, ±0.012 ms.
  return `±${Number(fixed(check.noise))}${check.unit === 'ms' ? ' ms' : '×'}`;
}

/** The stderr line for a row that misses: `bench: MISSED <label>: 1.53× the floor (target ≤ 1.3×, noise ±0.04×)`. */
export function missLine(check) {
  if (!Number.isFinite(check.value)) return `bench: MISSED ${check.label}: ${check.broken ?? 'no figure'}`;
  const relation = check.unit === 'ms' ? 'over the floor' : 'the floor';
  const why = check.broken ? `, ${check.broken}` : '';
  return `bench: MISSED ${check.label}: ${figureText(check.value, check.unit)} ${relation}${why} (target ${targetText(check)}, noise ${noiseText(check)})`;
}

export const HEADER = ['row', 'Loupe', 'floor (same run; min–max of its repeats)', 'vs floor', 'target', 'noise', 'meets'];

/** The summary's rows (under HEADER) and the stderr lines of the rows that miss. */
export function summaryRows(checks) {
  const rows = [];
  const misses = [];
  for (const check of checks) {
    const meets = judge(check);
    const figure = Number.isFinite(check.value) ? figureText(check.value, check.unit) : '';
    rows.push([check.label, check.loupe, check.floor, figure, check.target === undefined && !check.context ? '' : targetText(check), figure ? noiseText(check) : '', meets]);
    if (meets === 'no') misses.push(missLine(check));
  }
  return { rows, misses };
}
