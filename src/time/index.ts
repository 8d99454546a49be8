// Public API of the time core: exact units, the fixed stepper and the two clocks.
export {
  UNITS_PER_MS,
  TICK_UNITS,
  STEP_UNITS,
  msToUnits,
  unitsToMs,
  ticksAt,
  parseDuration,
  formatUnits,
} from './units.ts';
export {
  DEFAULT_MAX_CATCH_UP,
  createStepper,
  validateStepperConfig,
  advance,
  advanceInto,
  newStepSink,
  nextDueAt,
  resetStepper,
} from './stepper.ts';
export type { StepperConfig, StepperState, StepAdvance, StepSink } from './stepper.ts';
export {
  createClock,
  manageTime,
  lockTimer,
  unlockTimer,
  saveTimer,
  restoreTimer,
  isLocked,
  isSaved,
  isRunning,
  settleAt,
  gameAtWall,
} from './clock.ts';
export type { ClockState } from './clock.ts';
