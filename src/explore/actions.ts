// What the explorer can do from a state. Each kind of action is one entry of ACTION_KINDS:
// what it offers in a state and the timed input it becomes (waits take none). An input
// arrives at the state's time and the world runs one heartbeat on, so it is handled;
// a wait runs the world to a later time. A new kind of input is one more entry.
import { Op, nextPc } from '../vm/opcodes.ts';
import type { Program } from '../vm/program.ts';
import { BUILTINS } from '../builtins/index.ts';
import type { TimedInput } from '../hosts/headless.ts';
import type { HostValue } from '../world/hostdata.ts';
import { STEP_UNITS } from '../time/units.ts';
import { nextDueAt } from '../time/stepper.ts';
import { keyName } from '../world/hostinput.ts';
import type { ExploreWorld } from './world.ts';

/** One action: inputs (`input` set) or a wait (`wait` set). `label` names it in reports. */
export interface Action {
  kind: string;
  label: string;
  /** The inputs it posts, given the game ms they arrive at (a key press: down, then up). */
  input?: (at: number) => TimedInput[];
  /** A wait: the game time (units) it runs the world to. */
  wait?: number;
}

/** What the action kinds need to know of a program, found once. */
export interface ProgramFacts {
  /** "prop faucet" for each object with a click handler, in load order. */
  clickable: string[];
  /** Whether any handler polls the mouse (stilldown). */
  pollsMouse: boolean;
  /** Keys the scripts read: the key names among the constants of `on key` handlers and of handlers that call keydown (). */
  keys: string[];
}

export interface ActionKind {
  name: string;
  offer(world: ExploreWorld, facts: ProgramFacts, horizon: number): Action[];
}

/** Heartbeats of the short wait. */
export const SHORT_WAIT_BEATS = 10;
/** The longest "until quiet" wait, in game units (a world that never goes quiet goes on ten seconds). */
export const QUIET_WAIT_LIMIT = 10_000 * 3;

export function programFacts(program: Program): ProgramFacts {
  const clickable: string[] = [];
  for (const o of program.objects) if (o.handlers['click'] !== undefined && o.kind !== 'set') clickable.push(`${o.kind} ${o.name}`);
  const stilldown = BUILTINS.findIndex((b) => b.name === 'stilldown');
  const keydown = BUILTINS.findIndex((b) => b.name === 'keydown');
  let pollsMouse = false;
  const keys = new Set<string>();
  for (const h of program.handlers) {
    let readsKeys = h.name === 'key';
    for (let pc = 0; pc < h.code.length; pc = nextPc(h.code, pc)) {
      if (h.code[pc] !== Op.CALLB) continue;
      if (h.code[pc + 2] === stilldown) pollsMouse = true;
      if (h.code[pc + 2] === keydown) readsKeys = true;
    }
    if (!readsKeys) continue;
    for (const c of h.consts) {
      const name = typeof c === 'string' ? keyName(c) : null;
      if (typeof name === 'string') keys.add(name);
    }
  }
  return { clickable, pollsMouse, keys: [...keys].sort() };
}

const clicks: ActionKind = {
  name: 'click',
  offer: (_w, facts) => facts.clickable.map((target) => ({ kind: 'click', label: `click ${target}`, input: (at) => [{ at, click: target }] })),
};

const mouse: ActionKind = {
  name: 'mouse',
  offer: (w, facts) => {
    if (!facts.pollsMouse) return [];
    const down = w.engine.state.mouseDown;
    return [{ kind: 'mouse', label: down ? 'mouse up' : 'mouse down', input: (at) => [{ at, mouse: down ? 'up' : 'down' }] }];
  },
};

/**
 * The keys the scripts read: one not held is pressed and let go at once (a press too
 * short for a frame is latched until a poll sees it) or pressed and held; one held is
 * let go.
 */
const keys: ActionKind = {
  name: 'key',
  offer: (w, facts) => {
    const out: Action[] = [];
    const held = w.engine.state.keys;
    for (const name of facts.keys) {
      if (held[name]?.down) out.push({ kind: 'key', label: `key up ${name}`, input: (at) => [{ at, key: { down: false, name } }] });
      else {
        out.push({
          kind: 'key',
          label: `key press ${name}`,
          input: (at) => [
            { at, key: { down: true, name } },
            { at, key: { down: false, name } },
          ],
        });
        out.push({ kind: 'key', label: `key down ${name}`, input: (at) => [{ at, key: { down: true, name } }] });
      }
    }
    return out;
  },
};

const waits: ActionKind = {
  name: 'wait',
  offer: (w, _facts, horizon) => {
    if (w.quiet) return [];
    const now = w.now;
    const out: Action[] = [];
    const due = w.nextDue();
    if (due < Infinity && due <= horizon) out.push({ kind: 'wait', label: 'wait until due', wait: due });
    const beats = now + SHORT_WAIT_BEATS * STEP_UNITS;
    if (beats <= horizon && beats !== due) out.push({ kind: 'wait', label: 'wait 0.5s', wait: beats });
    const quiet = Math.min(horizon, now + QUIET_WAIT_LIMIT);
    if (quiet > beats && quiet > due) out.push({ kind: 'wait', label: 'wait until quiet', wait: quiet });
    return out;
  },
};

/**
 * The host's answers: for each request a thread waits on, each answer pocketwatch.json
 * declares for that builtin (void when it declares none), delivered through the mailbox
 * at the next heartbeat as a host's answer is.
 */
const answers: ActionKind = {
  name: 'answer',
  offer: (w) => {
    const out: Action[] = [];
    const declared = w.program.hostBuiltins;
    for (const p of w.engine.hostCalls.pending()) {
      const b = declared.find((d) => d.name === p.name);
      const choices = b?.answers !== undefined && b.answers.length > 0 ? (b.answers as HostValue[]) : [null];
      for (const value of choices) {
        const request = p.request;
        out.push({ kind: 'answer', label: `answer ${request} ${JSON.stringify(value)}`, input: (at) => [{ at, answer: { request, value } }] });
      }
    }
    return out;
  },
};

/** Every kind of action, in the order its actions are tried. */
export const ACTION_KINDS: readonly ActionKind[] = [clicks, mouse, keys, answers, waits];

/** The actions from the world's state now, in a fixed order. */
export function actionsOf(world: ExploreWorld, facts: ProgramFacts, horizon: number): Action[] {
  const out: Action[] = [];
  for (const k of ACTION_KINDS) for (const a of k.offer(world, facts, horizon)) out.push(a);
  return out;
}

/**
 * The game time (units) an input arrives at and is handled at: the next heartbeat. An
 * input arriving at a heartbeat is taken by that heartbeat's pass, in a replay from the
 * start as here; one arriving at the state's own time (a heartbeat already served) would
 * be taken a heartbeat earlier in the replay than in the search.
 */
export function inputTime(world: ExploreWorld): number {
  return nextDueAt(world.engine.state.stepper);
}
