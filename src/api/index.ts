// `pocketwatch`: the package core. Compile scripts in memory, run them in a world driven
// by the host's own frames, save and restore it. Nothing here needs Node: the same code
// runs in a browser.
export { compile, CompileError, Program, type Diagnostic, type SourceFile, type CompileOptions, type BuiltinDeclaration } from './program.ts';
export {
  World,
  SnapshotError,
  HostCallbackError,
  displayTime,
  type HostCallback,
  type SlotName,
  type WorldOptions,
  type WorldHost,
  type SoundEvent,
  type WorldSnapshot,
  type TraceEvent,
  type PendingRequest,
  type HostValue,
} from './world.ts';
export type { WorldView, LoopView, CricketView, ActorView, SoundView, ThreadView } from '../session/view.ts';
export { highlight, type HighlightSpan, type HighlightKind } from './highlight.ts';
export { describeTrace as describeEvent, kindOfTrace as eventKind, WORLD_KINDS as EVENT_KINDS, DEFAULT_WORLD_KINDS as DEFAULT_EVENT_KINDS, type WorldKind as EventKind } from '../trace/describe.ts';
export { clockText, statusFields, type StatusInfo, type StatusField } from './status.ts';
export { explore, type ExploreOptions, type ExploreReport, type Finding, type FindingKind, type PathStep, type Coverage, type LineCoverage } from './explore.ts';
export { OracleRecorder, type RecorderOptions } from './record.ts';
