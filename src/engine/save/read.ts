// Reading a snapshot, in two steps. decodeSnapshot checks the file by itself — JSON,
// checksum, format and version, every field against the schema and the limits a
// running world keeps — without any program: nothing of a snapshot is trusted, and
// nothing it names is read or shown, before that. fitSnapshot then places it in a
// program: handlers by name, checked by the digest of their code; globals, objects
// and properties by name. A snapshot restores into a patched program as long as every
// handler a saved thread is suspended in is unchanged; objects and properties the
// patch added get their initial values, removed ones are reported.
import { objectKey, type Program } from '../../vm/program.ts';
import { newThread, type Thread } from '../../vm/thread.ts';
import { MAX_STRING, type Value } from '../../vm/value.ts';
import { CODE_FORMAT, nextPc, Op } from '../../vm/opcodes.ts';
import { handlerNaming, loopPoints, resumePoints } from '../../vm/names.ts';
import { liveAtLoopHeads, liveAtResume } from '../../vm/analysis.ts';
import { MAX_CALL_DEPTH } from '../../vm/ops.ts';
import { WAIT_OF_KIND } from '../../vm/guard.ts';
import { dict } from '../../vm/dict.ts';
import type { WorldState } from '../../world/state.ts';
import { builtinsFor } from '../../builtins/host.ts';
import type { Builtin } from '../../builtins/registry.ts';
import { sha256Hex } from '../../hash/sha256.ts';
import { SnapshotError, describeJson, field, own, int, list, maybe, num, obj, oneOf, raw, read, refuse, shown, str, table, readNumber } from './schema.ts';
import { HOST, WORLD } from './world.ts';
import { ValueReader } from './values.ts';
import { SNAPSHOT_FORMAT, SNAPSHOT_VERSION, type HostInfo, type SnapshotBody } from './format.ts';
import { decodeVersion2, type Version2 } from './version2.ts';
import { fileDigests, savedHandlerDigest } from './write.ts';

export interface SnapshotLimits {
  maxThreads: number;
  maxString: number;
  maxList: number;
}

export const DEFAULT_LIMITS: SnapshotLimits = { maxThreads: 20_000, maxString: MAX_STRING, maxList: 1_000_000 };

/** A snapshot checked by itself, not yet placed in a program. */
export interface DecodedSnapshot {
  body: SnapshotBody | null;
  /** A version 2 snapshot, to be migrated once its program is known. */
  version2: Version2 | null;
  host: HostInfo;
  /** The script files it was saved with, and the SHA-256 of each. */
  files: { name: string; sha256: string }[];
  limits: SnapshotLimits;
}

export interface RestoredWorld {
  state: WorldState;
  threads: Thread[];
  host: HostInfo;
  files: { name: string; sha256: string }[];
  /** What the program has that the snapshot had not (their initial values are due), and what it lost. */
  changes: RestoreChanges;
  /** Saved threads left out because a handler on their stack changed or is gone (only with `dropChanged`). */
  dropped: DroppedThread[];
}

/** What a program has that the snapshot had not, and what it lost. */
export interface RestoreChanges {
  /** Objects and properties new to the snapshot: their initial values are due. */
  addedObjects: number[];
  addedProperties: [number, number][];
  /** Globals, objects, properties and actors the scripts no longer have, each named once ("actor steward"). */
  removed: string[];
  /** Saved loops aimed at a handler the changed scripts lack ("flat loop gobedsit (flat tour has no handler gobedsit)"): they fire into nothing. */
  loops: string[];
}

/** What a restore into changed scripts says about them, a line each (pw run prints them; World.restore warns its host). */
export function describeChanges(changes: RestoreChanges): string[] {
  const out: string[] = [];
  const { removed, loops } = changes;
  if (removed.length > 0) out.push(`the scripts no longer have ${removed.join(', ')}: restored without ${removed.length === 1 ? 'it' : 'them'}`);
  if (loops.length > 0)
    out.push(`the scripts no longer have what ${loops.length === 1 ? 'a saved loop aims' : 'saved loops aim'} at: ${loops.join(', ')}; ${loops.length === 1 ? 'it fires' : 'they fire'} into nothing`);
  return out;
}

export interface DroppedThread {
  id: number;
  origin: string;
  /** The handler that changed (the innermost one, if several did), by its stable name. */
  handler: string;
  why: 'changed' | 'gone';
}

export interface FitOptions {
  /** Leave out, and report, a saved thread waiting in a handler that changed or is gone, instead of refusing the whole snapshot (a hot reload). */
  dropChanged?: boolean;
}

const FRAME = obj({ handler: str(), at: int(-1, 2 ** 31), loop: int(0, 2 ** 31), registers: raw }, ['loop']);

/** The checks that do not need a program: a SnapshotError names the first thing wrong. */
export function decodeSnapshot(text: string, limits: SnapshotLimits = DEFAULT_LIMITS): DecodedSnapshot {
  let outer: unknown;
  try {
    outer = JSON.parse(text);
  } catch (err) {
    throw new SnapshotError(`not a snapshot: the file is not valid JSON (${(err as Error).message})`);
  }
  const o = { checksum: own(outer, 'checksum'), body: own(outer, 'body') };
  if (typeof o.checksum !== 'string' || typeof o.body !== 'object' || o.body === null || Array.isArray(o.body)) {
    throw new SnapshotError('not a snapshot: it has no checksum and body');
  }
  // the checksum covers the body exactly as written
  const start = text.indexOf('"body":');
  const bodyText = start >= 0 ? text.slice(start + 7).replace(/\}\s*$/, '') : '';
  if (sha256Hex(bodyText) !== o.checksum) throw new SnapshotError('the snapshot was changed or damaged after it was saved (its checksum does not match)');
  // every field of the body by its own name only
  const b = dict<unknown>(o.body as Record<string, unknown>);
  if (b.format !== SNAPSHOT_FORMAT) throw new SnapshotError(`not a Pocketwatch world snapshot (format ${describeJson(b.format)})`);
  if (b.version === 2) {
    const v2 = decodeVersion2(b);
    return { body: null, version2: v2, host: v2.host, files: [], limits };
  }
  if (b.version !== SNAPSHOT_VERSION) {
    throw new SnapshotError(`the snapshot is version ${describeJson(b.version)}; this Pocketwatch reads version ${SNAPSHOT_VERSION} (and migrates version 2)`);
  }
  if (b.code !== CODE_FORMAT) {
    throw new SnapshotError(`the snapshot's threads are in bytecode format ${describeJson(b.code)}; this Pocketwatch runs format ${CODE_FORMAT}`);
  }
  try {
    const body = checkBody(b, limits);
    return { body, version2: null, host: body.host, files: body.program.files, limits };
  } catch (err) {
    if (err instanceof SnapshotError && err.message.startsWith('its ')) throw new SnapshotError(`the snapshot is malformed: ${err.message}`);
    throw err;
  }
}

function checkBody(b: Record<string, unknown>, limits: SnapshotLimits): SnapshotBody {
  const fields = ['format', 'version', 'code', 'program', 'host', 'world', 'globals', 'objects', 'threads', 'lists'];
  for (const k of Object.keys(b)) if (!fields.includes(k)) refuse(k, 'is not something a saved world has');
  const program = read(obj({ files: list(obj({ name: str(), sha256: str(64) }), 100_000), handlers: table(str(64)) }), b.program, 'program') as SnapshotBody['program'];
  const host = read(HOST, b.host, 'host') as HostInfo;
  const world = read(WORLD, b.world, 'world') as Record<string, unknown>;
  // script values: every list of the table, then every value, against the limits
  const values = new ValueReader(b.lists, limits);
  const valueTable = (v: unknown, path: string): Record<string, unknown> => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) refuse(path, 'should be an object');
    const out = dict<unknown>();
    for (const [k, x] of Object.entries(v as object)) out[k] = values.value(x, field(path, k));
    return out;
  };
  const globals = valueTable(b.globals, 'globals');
  if (b.objects === null || typeof b.objects !== 'object' || Array.isArray(b.objects)) refuse('objects', 'should be an object');
  const objects = dict<Record<string, unknown>>();
  for (const [k, v] of Object.entries(b.objects as object)) objects[k] = valueTable(v, field('objects', k));
  if (!Array.isArray(b.threads)) refuse('threads', 'should be a list');
  const rawThreads = b.threads as unknown[];
  if (rawThreads.length > limits.maxThreads) refuse('threads', `has ${rawThreads.length} threads; a world runs at most ${limits.maxThreads}`);
  const ids = new Set<number>();
  const threads = rawThreads.map((t, i) => {
    const path = `threads[${i}]`;
    const x = read(
      obj({
        id: int(1, (world.nextThreadId as number) - 1),
        origin: str(),
        wait: oneOf('time', 'wall', 'display', 'gameframe', 'ready', 'paused', 'host'),
        wakeAt: num(0, Infinity),
        order: int(),
        since: num(0, Infinity),
        guard: obj({ loops: int(0, 2 ** 31), calls: int(0, 2 ** 31) }),
        resume: maybe(str()),
        frames: list(FRAME, MAX_CALL_DEPTH),
        result: raw,
      }),
      t,
      path,
    ) as SnapshotBody['threads'][number];
    if (ids.has(x.id)) refuse(`${path}.id`, `repeats thread ${x.id}`);
    ids.add(x.id);
    if (x.frames.length === 0) refuse(`${path}.frames`, 'is empty: a live thread has a frame');
    x.frames.forEach((f, j) => {
      f.registers = valueTable(f.registers, `${path}.frames[${j}].registers`) as never;
    });
    x.result = values.value(x.result, `${path}.result`) as never;
    return x;
  });
  return { ...(b as unknown as SnapshotBody), program, host, world, globals: globals as never, objects: objects as never, threads, lists: [] };
}

/** Reads a snapshot and places it in `program`: decodeSnapshot, then fitSnapshot. */
export function readSnapshot(text: string, program: Program, limits: SnapshotLimits = DEFAULT_LIMITS, options: FitOptions = {}): RestoredWorld {
  return fitSnapshot(decodeSnapshot(text, limits), program, options);
}

/** Places a checked snapshot in `program`; a SnapshotError says why it does not fit. */
export function fitSnapshot(decoded: DecodedSnapshot, program: Program, options: FitOptions = {}): RestoredWorld {
  if (decoded.version2) {
    const migrated = decoded.version2.migrate(program);
    return fitSnapshot(decodeSnapshot(migrated, decoded.limits), program, options);
  }
  const body = decoded.body!;
  const naming = handlerNaming(program);
  const builtins = builtinsFor(program);
  const removed: string[] = [];
  // digests of the handlers saved threads are in: each must be unchanged
  const unfit = new Map<string, DroppedThread['why']>();
  for (const [name, digest] of Object.entries(body.program.handlers)) {
    const hi = naming.index.get(name);
    if (hi === undefined) {
      if (options.dropChanged) unfit.set(name, 'gone');
      else throw new SnapshotError(`a saved thread waits in handler ${name}, which these scripts do not have`);
      continue;
    }
    const h = program.handlers[hi];
    if (savedHandlerDigest(program, hi) !== digest) {
      if (options.dropChanged) unfit.set(name, 'changed');
      else throw new SnapshotError(`a saved thread waits in handler ${name} (${h.file}:${h.line}), which has changed since the snapshot was saved`);
    }
  }
  const w = body.world as unknown as WorldState;
  // the set the world is in is one of these scripts' (a patch that removed it cannot place the world anywhere)
  if (w.set !== '' && program.objectIndex[objectKey('set', w.set)] === undefined) {
    throw new SnapshotError(`the snapshot's world.set names set ${shown(w.set)}, which these scripts do not have`);
  }
  const state: WorldState = { ...w, globals: program.globals.map(() => undefined), props: program.objects.map(() => []), requests: w.requests ?? { next: 1, pending: [] } };
  state.keys ??= dict();
  state.keyPolls ??= dict();
  // globals and properties by name
  const globalIndex = new Map(program.globals.map((g, i) => [g, i]));
  for (const [name, v] of Object.entries(body.globals)) {
    const i = globalIndex.get(name);
    if (i === undefined) removed.push(`global ${name}`);
    else state.globals[i] = v as unknown as Value;
  }
  const addedObjects: number[] = [];
  const addedProperties: [number, number][] = [];
  const objectIndex = new Map(program.objects.map((o, i) => [`${o.kind} ${o.name}`, i]));
  for (const key of Object.keys(body.objects)) if (!objectIndex.has(key)) removed.push(key);
  program.objects.forEach((o, i) => {
    const saved = body.objects[`${o.kind} ${o.name}`];
    if (saved === undefined) {
      addedObjects.push(i);
      return;
    }
    for (const k of Object.keys(saved)) if (!o.properties.includes(k)) removed.push(`property ${k} of ${o.kind} ${o.name}`);
    o.properties.forEach((p, j) => {
      if (Object.hasOwn(saved, p)) state.props[i][j] = saved[p] as unknown as Value;
      else if (o.init >= 0) addedProperties.push([i, j]);
    });
  });
  // actors exist once their block is loaded: one whose block is gone is gone (and named once, as the object it was)
  const actors = dict(w.actors);
  for (const name of Object.keys(actors)) {
    if (program.objectIndex[objectKey('actor', name)] === undefined) {
      delete actors[name];
      if (!removed.includes(`actor ${name}`)) removed.push(`actor ${name}`);
    }
  }
  state.actors = actors;
  // a loop aimed at a handler the changed scripts lack would fire into nothing without a word
  const loops = changedScripts(body, program) ? aimless(w, program) : [];
  const dropped: DroppedThread[] = [];
  const threads: Thread[] = [];
  body.threads.forEach((t, i) => {
    const bad = t.frames.findLast((f) => unfit.has(f.handler));
    if (bad) dropped.push({ id: t.id, origin: t.origin, handler: bad.handler, why: unfit.get(bad.handler)! });
    else threads.push(fitThread(t, i, program, naming.index, builtins));
  });
  fitRequests(state.requests, threads, program, builtins);
  return { state, threads, host: decoded.host, files: decoded.files, changes: { addedObjects, addedProperties, removed, loops }, dropped };
}

/** Whether `program` is other scripts than those the snapshot was saved with. */
function changedScripts(body: SnapshotBody, program: Program): boolean {
  const now = fileDigests(program);
  return now.length !== body.program.files.length || now.some((f, i) => f.name !== body.program.files[i].name || f.sha256 !== body.program.files[i].sha256);
}

/** The saved loops whose event reaches no handler in `program` (a scene loop's goes to the current set). */
function aimless(w: WorldState, program: Program): string[] {
  const out: string[] = [];
  for (const l of w.loops) {
    const kind = l.kind === 'scene' ? 'set' : l.kind;
    const target = l.kind === 'scene' ? w.set : l.target;
    if (target === '') continue;
    const oi = program.objectIndex[objectKey(kind, target)];
    if (oi !== undefined && program.objects[oi].handlers[l.event] !== undefined) continue;
    out.push(`${l.kind} loop ${l.event} (${kind} ${target} ${oi === undefined ? 'is not in the scripts' : `has no handler ${l.event}`})`);
  }
  return out;
}

/**
 * The host builtin calls waiting for an answer, checked against the threads: each
 * request below the next number and made once, by a host builtin of these scripts
 * that waits, for a thread that waits in that builtin — on the host, or ready to take
 * an answer that has arrived — and every thread waiting on the host has its request.
 */
function fitRequests(requests: WorldState['requests'], threads: Thread[], program: Program, builtins: readonly Builtin[]): void {
  const byId = new Map(threads.map((th) => [th.id, th]));
  const seen = new Set<number>();
  const asked = new Set<number>();
  requests.pending.forEach((p, i) => {
    const bad = (what: string): never => {
      throw new SnapshotError(`the snapshot's request ${p.request} (world.requests.pending[${i}]) ${what}`);
    };
    if (p.request >= requests.next) bad(`is not below the next request number, ${requests.next}`);
    if (seen.has(p.request)) bad('is there twice');
    seen.add(p.request);
    const h = program.hostBuiltins.find((x) => x.name === p.builtin);
    if (h === undefined) bad(`calls host builtin ${p.builtin.slice(0, 40)}, which these scripts do not declare`);
    if (!h!.waits) bad(`calls host builtin ${p.builtin}, which does not wait`);
    if (p.args.length !== h!.params.length) bad(`gives ${p.builtin} ${p.args.length} arguments; it takes ${h!.params.length}`);
    const th = byId.get(p.thread);
    if (th === undefined) bad(`is waited for by thread ${p.thread}, which the snapshot does not have`);
    if (asked.has(p.thread)) bad(`is waited for by thread ${p.thread}, which waits for another request too`);
    asked.add(p.thread);
    const answered = p.answered !== undefined;
    if (th!.wait?.kind !== (answered ? 'ready' : 'host'))
      bad(`is ${answered ? 'answered' : 'not answered'}, but thread ${p.thread} ${th!.wait?.kind === 'host' ? 'waits on the host' : 'does not wait on the host'}`);
    if (builtins[th!.resumeWith]?.name !== p.builtin) bad(`calls ${p.builtin}, but thread ${p.thread} waits in ${builtins[th!.resumeWith]?.name ?? 'no host builtin'}`);
  });
  for (const th of threads) if (th.wait?.kind === 'host' && !asked.has(th.id)) throw new SnapshotError(`the snapshot's thread ${th.id} waits on the host, but no request of it is pending`);
}

function fitThread(t: SnapshotBody['threads'][number], i: number, program: Program, index: Map<string, number>, builtins: readonly Builtin[]): Thread {
  const path = `threads[${i}]`;
  const bad = (what: string): never => {
    throw new SnapshotError(`the snapshot's thread ${t.id} ${what}`);
  };
  let base = 0;
  let dst = -1;
  const stack: (Value | undefined)[] = [];
  const frameWords: number[] = [];
  let resumeDst = -1;
  let resumeWith = -1;
  t.frames.forEach((f, j) => {
    const hi = index.get(f.handler);
    if (hi === undefined) bad(`waits in handler ${f.handler}, which these scripts do not have`);
    const h = program.handlers[hi!];
    const innermost = j === t.frames.length - 1;
    const points = resumePoints(h.code);
    // a paused thread goes on at a loop head, or at the start of a handler it has just called
    const paused = innermost && t.wait === 'paused';
    if (f.loop !== undefined) {
      if (!paused) bad(`is paused at a loop of ${f.handler}, but ${innermost ? `its wait is ${t.wait}` : 'has a frame above it'}`);
      if (f.at !== -1) bad(`is both at call ${f.at} and at a loop of ${f.handler}`);
    } else if (f.at === -1 && !(innermost && ((j === 0 && t.wait === 'ready') || paused))) bad(`is at the start of ${f.handler} but has already started`);
    if (f.at >= points.length) bad(`waits at call ${f.at} of ${f.handler}, which has only ${points.length}`);
    const heads = f.loop === undefined ? [] : loopPoints(h.code);
    if (f.loop !== undefined && f.loop >= heads.length) bad(`is paused at loop ${f.loop} of ${f.handler}, which has only ${heads.length}`);
    if (paused && f.loop === undefined && f.at !== -1) bad(`is paused in ${f.handler} at a call`);
    const pc = f.loop !== undefined ? heads[f.loop] : f.at < 0 ? 0 : points[f.at];
    // the registers the code may still read there, by name
    const live = f.loop !== undefined ? liveAtLoopHeads(h).get(pc)! : f.at < 0 ? null : liveAtResume(h).get(pc)!;
    for (let r = 0; r < h.registers; r++) stack[base + r] = undefined;
    for (const [name, v] of Object.entries(f.registers)) {
      const r = name.startsWith('#') ? Number(name.slice(1)) : h.localNames.indexOf(name);
      if (!(Number.isInteger(r) && r >= 0 && r < h.registers)) bad(`has a register "${name.slice(0, 40)}" that ${f.handler} does not have`);
      if (live === null ? r >= h.params : live[r] !== 1) bad(`has a register "${name.slice(0, 40)}" that is not in use where it waits`);
      stack[base + r] = v as unknown as Value;
    }
    frameWords.push(hi!, pc, base, dst);
    if (f.at < 0) return;
    // the call it waits in: where its callee's frame starts, and where the result goes
    const call = resumeOpAt(h.code, pc);
    const op = h.code[call] as Op;
    const w = (k: number): number => h.code[call + 1 + k];
    if (!innermost) {
      if (op === Op.CALL) {
        if (w(1) !== index.get(t.frames[j + 1].handler)) bad(`has ${t.frames[j + 1].handler} called where ${f.handler} calls another handler`);
        base += w(2);
      } else if (op === Op.SEND) base += w(2) + (w(1) === 0 ? 1 : 2);
      else bad(`waits in ${f.handler} at a builtin call but has a frame above it`);
      dst = frameWords[frameWords.length - 2] + w(0);
    } else {
      if (op !== Op.CALLB || builtins[w(1)]?.waits === undefined) bad(`waits in ${f.handler} at a call that does not wait`);
      resumeDst = base + w(0);
      const b = builtins[w(1)];
      if (t.resume !== null) {
        if (t.resume !== b.name || b.resume === undefined) bad(`wakes with ${t.resume.slice(0, 40)} where it waits in ${b.name}`);
        resumeWith = w(1);
      }
      // a thread waits on the host only in a host builtin that waits, and wakes with its answer
      if (t.wait === 'host' && (b.host === undefined || t.resume !== b.name)) bad(`waits on the host in ${b.name}, which is no host builtin that waits`);
    }
  });
  if ((t.wait === 'time' || t.wait === 'wall') && !(readNumber(t.wakeAt, `${path}.wakeAt`) >= 0)) bad('wakes at no time');
  const innermost = frameWords.length - 4;
  const th = newThread(t.id, t.origin, frameWords[innermost], stack);
  th.pc = frameWords[innermost + 1];
  th.base = frameWords[innermost + 2];
  th.dst = frameWords[innermost + 3];
  th.frames = frameWords.slice(0, innermost);
  th.depth = t.frames.length;
  th.wait = WAIT_OF_KIND[t.wait];
  th.wakeAt = readNumber(t.wakeAt, `${path}.wakeAt`);
  th.sleepSeq = t.order;
  th.since = readNumber(t.since, `${path}.since`);
  th.backEdges = t.guard.loops;
  th.calls = t.guard.calls;
  th.resumeWith = resumeWith;
  th.resumeDst = resumeDst;
  th.result = t.result as unknown as Value;
  return th;
}

/** The pc of the call instruction a resume point follows. */
function resumeOpAt(code: Int32Array, resume: number): number {
  let pc = 0;
  let last = 0;
  while (pc < resume) {
    last = pc;
    pc = nextPc(code, pc);
  }
  return last;
}
