// The fixed heartbeat stepper: turns clock readings into due steps.
// It is pure and clock-injected (the caller passes every reading), and its state is
// plain data so a running world can be saved to JSON mid-run and restored.
//
// Bookkeeping: `anchor + served * step` is the boundary of the last served step and
// `acc` (always < step between calls) is the time seen since then. Their sum is the
// caller's latest reading, unwrapped. Dropped catch-up time moves `anchor` forward, so
// the grid shifts by exactly what was dropped and stays exact otherwise.

export interface StepperConfig {
  /** Units per step, > 0. */
  step: number;
  /** Most steps one advance returns, integer >= 1. */
  maxCatchUp: number;
  /** Readings are a counter modulo `wrap`; differences are taken modulo `wrap`. */
  wrap?: number;
  /** A forward jump larger than this is a gap: re-anchor, no steps. */
  gap?: number;
}

export interface StepperState {
  config: StepperConfig;
  /** Unwrapped time of step 0 on the current grid; null until the first reading. */
  anchor: number | null;
  /** The latest raw reading (as the caller's clock gave it). */
  last: number;
  /** Time carried towards the next step, in [0, step). */
  acc: number;
  /** Steps served since the anchor. */
  served: number;
}

export interface StepAdvance {
  /** Boundary time of each due step (unwrapped under `wrap`), oldest first. */
  steps: number[];
  /** Whole-step time discarded because more than maxCatchUp steps were due. */
  dropped: number;
  reanchored: 'backwards' | 'gap' | null;
}

export const DEFAULT_MAX_CATCH_UP = 64;

function describe(value: unknown): string {
  return typeof value === 'number' ? String(value) : `${typeof value} ${String(value)}`;
}

/** Validates and normalises a configuration; throws RangeError naming the bad value. */
export function validateStepperConfig(config: Partial<StepperConfig> & { step: number }): StepperConfig {
  const { step, wrap, gap } = config;
  const maxCatchUp = config.maxCatchUp ?? DEFAULT_MAX_CATCH_UP;
  if (typeof step !== 'number' || !Number.isFinite(step) || step <= 0) {
    throw new RangeError(`stepper: step must be a finite number > 0, got ${describe(step)}`);
  }
  if (typeof maxCatchUp !== 'number' || !Number.isInteger(maxCatchUp) || maxCatchUp < 1) {
    throw new RangeError(`stepper: maxCatchUp must be an integer >= 1, got ${describe(maxCatchUp)}`);
  }
  const out: StepperConfig = { step, maxCatchUp };
  if (wrap !== undefined) {
    if (typeof wrap !== 'number' || !Number.isSafeInteger(wrap) || wrap < 2) {
      throw new RangeError(`stepper: wrap must be a safe integer >= 2, got ${describe(wrap)}`);
    }
    out.wrap = wrap;
  }
  if (gap !== undefined) {
    if (typeof gap !== 'number' || !Number.isFinite(gap) || gap <= 0) {
      throw new RangeError(`stepper: gap must be a finite number > 0, got ${describe(gap)}`);
    }
    if (out.wrap !== undefined && gap >= out.wrap) {
      // Modulo differences never reach wrap, so such a gap could never trigger.
      throw new RangeError(`stepper: gap must be less than wrap (${out.wrap}), got ${gap}`);
    }
    out.gap = gap;
  }
  return out;
}

export function createStepper(config: Partial<StepperConfig> & { step: number }): StepperState {
  return { config: validateStepperConfig(config), anchor: null, last: 0, acc: 0, served: 0 };
}

function normalise(s: StepperState, now: number): number {
  if (typeof now !== 'number' || !Number.isFinite(now)) {
    throw new RangeError(`stepper: clock reading must be a finite number, got ${describe(now)}`);
  }
  const wrap = s.config.wrap;
  return wrap === undefined ? now : ((now % wrap) + wrap) % wrap;
}

/** Unwrapped time of the latest reading. */
function position(s: StepperState, anchor: number): number {
  return anchor + s.served * s.config.step + s.acc;
}

function anchorAt(s: StepperState, raw: number, unwrapped: number): void {
  s.anchor = unwrapped;
  s.last = raw;
  s.acc = 0;
  s.served = 0;
}

/** Feeds one clock reading; mutates `s` and returns the steps now due. */
export function advance(s: StepperState, now: number): StepAdvance {
  const out = newStepSink();
  advanceInto(s, now, out);
  return { steps: out.steps, dropped: out.dropped, reanchored: out.reanchored };
}

/**
 * advance(), reporting into a sink its caller keeps: the boundaries are the first
 * `count` entries of `steps`. The engine feeds a reading on every heartbeat, and this
 * way a reading allocates nothing.
 */
export interface StepSink {
  steps: number[];
  count: number;
  dropped: number;
  reanchored: 'backwards' | 'gap' | null;
}

export function newStepSink(): StepSink {
  return { steps: [], count: 0, dropped: 0, reanchored: null };
}

export function advanceInto(s: StepperState, now: number, out: StepSink): void {
  out.count = 0;
  out.dropped = 0;
  out.reanchored = null;
  const raw = normalise(s, now);
  const { step, maxCatchUp, wrap, gap } = s.config;
  if (s.anchor === null) {
    anchorAt(s, raw, raw);
    return;
  }
  let delta: number;
  if (wrap === undefined) {
    if (raw < s.last) {
      anchorAt(s, raw, raw);
      out.reanchored = 'backwards';
      return;
    }
    delta = raw - s.last;
  } else {
    // A smaller raw reading is the counter wrapping, not time going back.
    delta = (((raw - s.last) % wrap) + wrap) % wrap;
  }
  if (gap !== undefined && delta > gap) {
    // Under wrap the anchor stays unwrapped so boundaries remain monotonic.
    anchorAt(s, raw, wrap === undefined ? raw : position(s, s.anchor) + delta);
    out.reanchored = 'gap';
    return;
  }
  s.last = raw;
  const total = s.acc + delta;
  let due = Math.floor(total / step);
  // Guard a fractional step against a quotient rounded up past the true value.
  if (due * step > total) due -= 1;
  const take = Math.min(due, maxCatchUp);
  const dropped = (due - take) * step;
  const firstIndex = s.served + 1;
  for (let k = 0; k < take; k++) out.steps[k] = s.anchor + (firstIndex + k) * step;
  out.count = take;
  out.dropped = dropped;
  s.served += take;
  // The remainder is kept even when whole steps are dropped.
  s.acc = total - due * step;
  // Shift the grid past the dropped span so later boundaries stay consistent.
  s.anchor += dropped;
}

/**
 * advanceInto for a reading that is the last of a run the caller knows would drop
 * nothing (each reading of it at most maxCatchUp steps past the one before), without
 * wrap or gap: the stepper is left as those readings leave it. Returns how many steps
 * became due; the last of them is at anchor + served × step.
 */
export function advanceAll(s: StepperState, now: number): number {
  if (s.anchor === null || s.config.wrap !== undefined || s.config.gap !== undefined || !(now >= s.last))
    throw new Error('internal: advanceAll needs an anchored stepper, no wrap or gap, and time going forward');
  const step = s.config.step;
  const total = s.acc + (now - s.last);
  let due = Math.floor(total / step);
  if (due * step > total) due -= 1;
  s.last = now;
  s.served += due;
  s.acc = total - due * step;
  return due;
}

/**
 * The reading at which the next step becomes due (wrapped under `wrap`). Before the
 * first reading any reading is useful (it anchors), so this is -Infinity.
 */
export function nextDueAt(s: StepperState): number {
  if (s.anchor === null) return Number.NEGATIVE_INFINITY;
  const due = s.anchor + (s.served + 1) * s.config.step;
  const wrap = s.config.wrap;
  return wrap === undefined ? due : ((due % wrap) + wrap) % wrap;
}

/** Starts again from `now`, dropping the partial step and any backlog. */
export function resetStepper(s: StepperState, now: number): void {
  const raw = normalise(s, now);
  const wrap = s.config.wrap;
  if (s.anchor === null || wrap === undefined) {
    anchorAt(s, raw, raw);
    return;
  }
  const delta = (((raw - s.last) % wrap) + wrap) % wrap;
  anchorAt(s, raw, position(s, s.anchor) + delta);
}
