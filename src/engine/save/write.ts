// Writing a snapshot: the world by the schema, script values through the value writer,
// threads by name. Positions are stable names — a handler by its qualified name and
// the digest of its code, a place in it by the number of the call it waits in — never
// table indices, so a save restores into a program whose other parts were patched.
import { dict } from '../../vm/dict.ts';
import type { Program } from '../../vm/program.ts';
import { FRAME_WORDS, type Thread } from '../../vm/thread.ts';
import { CODE_FORMAT } from '../../vm/opcodes.ts';
import { handlerDigest, handlerNaming, loopPoints, resumePoints } from '../../vm/names.ts';
import { liveAtLoopHeads, liveAtResume } from '../../vm/analysis.ts';
import type { WorldState } from '../../world/state.ts';
import { builtinsFor } from '../../builtins/host.ts';
import { sha256Hex } from '../../hash/sha256.ts';
import { write, writeNumber } from './schema.ts';
import { WORLD } from './world.ts';
import { ValueWriter, type Encoded } from './values.ts';
import { SNAPSHOT_FORMAT, SNAPSHOT_VERSION, type HostInfo, type SavedFrame, type SavedThread, type SnapshotBody } from './format.ts';

/** Each source's SHA-256, hashed once per program (the history saves a checkpoint every second). */
const filesOf = new WeakMap<Program, { name: string; sha256: string }[]>();

export function fileDigests(program: Program): { name: string; sha256: string }[] {
  let files = filesOf.get(program);
  if (files === undefined) filesOf.set(program, (files = Object.entries(program.sources).map(([name, text]) => ({ name, sha256: sha256Hex(text) }))));
  return files;
}

/** Each handler's digest as saves name it (the program's builtins by name), worked out once per program: code never changes. */
const handlerDigestsOf = new WeakMap<Program, (string | undefined)[]>();

export function savedHandlerDigest(program: Program, hi: number): string {
  let digests = handlerDigestsOf.get(program);
  if (digests === undefined) handlerDigestsOf.set(program, (digests = []));
  let d = digests[hi];
  if (d === undefined) {
    const builtins = builtinsFor(program);
    d = digests[hi] = handlerDigest(program, hi, (b) => builtins[b]?.name ?? `#${b}`);
  }
  return d;
}

/** The world as JSON text: `{ "checksum": …, "body": … }`. */
export function writeSnapshot(state: WorldState, threads: Thread[], program: Program, host: HostInfo): string {
  const text = JSON.stringify(writeSnapshotBody(state, threads, program, host));
  return `{"checksum":"${sha256Hex(text)}","body":${text}}\n`;
}

/** A snapshot's body as data: what writeSnapshot writes as text. */
export function writeSnapshotBody(state: WorldState, threads: Thread[], program: Program, host: HostInfo): SnapshotBody {
  const values = new ValueWriter();
  const naming = handlerNaming(program);
  const builtins = builtinsFor(program);
  const builtinName = (b: number): string => builtins[b]?.name ?? `#${b}`;
  const digests: Record<string, string> = dict();
  const saved = threads.map((th) => savedThread(th, program, naming.names, digests, values, builtinName));
  const globals: Record<string, Encoded> = dict();
  program.globals.forEach((g, i) => {
    if (state.globals[i] !== undefined) globals[g] = values.value(state.globals[i]);
  });
  const objects: Record<string, Record<string, Encoded>> = dict();
  program.objects.forEach((o, i) => {
    const props: Record<string, Encoded> = dict();
    o.properties.forEach((p, j) => {
      const v = state.props[i]?.[j];
      if (v !== undefined) props[p] = values.value(v);
    });
    objects[`${o.kind} ${o.name}`] = props;
  });
  const body: SnapshotBody = {
    format: SNAPSHOT_FORMAT,
    version: SNAPSHOT_VERSION,
    code: CODE_FORMAT,
    program: { files: fileDigests(program), handlers: digests },
    host,
    world: write(WORLD, withLiveRequests(state, threads)) as Record<string, unknown>,
    globals,
    objects,
    threads: saved,
    lists: values.finish(),
  };
  return body;
}

/** The state with only the host requests a saved thread still waits for (one stopped meanwhile waits for nothing). */
function withLiveRequests(state: WorldState, threads: Thread[]): WorldState {
  const ids = new Set(threads.map((th) => th.id));
  const pending = state.requests.pending;
  return pending.every((p) => ids.has(p.thread)) ? state : { ...state, requests: { next: state.requests.next, pending: pending.filter((p) => ids.has(p.thread)) } };
}

function savedThread(th: Thread, program: Program, names: string[], digests: Record<string, string>, values: ValueWriter, builtinName: (b: number) => string): SavedThread {
  const frames: SavedFrame[] = [];
  const all = [...th.frames, th.hi, th.pc, th.base, th.dst];
  for (let fp = 0; fp < all.length; fp += FRAME_WORDS) {
    const hi = all[fp];
    const pc = all[fp + 1];
    const base = all[fp + 2];
    const h = program.handlers[hi];
    const name = names[hi];
    digests[name] ??= savedHandlerDigest(program, hi);
    // where it waits: the call it is in, by number; -1 for a frame not started yet; a
    // thread paused mid-loop (the innermost frame) by the loop head it goes on at
    const paused = th.wait?.kind === 'paused' && fp === all.length - FRAME_WORDS;
    const loop = paused ? loopPoints(h.code).indexOf(pc) : -1;
    const at = loop >= 0 || pc === 0 ? -1 : resumePoints(h.code).indexOf(pc);
    if (at < 0 && loop < 0 && pc !== 0) throw new Error(`internal: thread ${th.id} is at ${pc} in ${name}, which is no place to save`);
    const live = loop >= 0 ? liveAtLoopHeads(h).get(pc)! : at < 0 ? null : liveAtResume(h).get(pc)!;
    const registers: Record<string, Encoded> = dict();
    for (let r = 0; r < h.registers; r++) {
      // only what the code may still read: the same moment gives the same bytes on either engine
      if (live === null ? r >= h.params : live[r] !== 1) continue;
      const v = th.stack[base + r];
      if (v !== undefined) registers[h.localNames[r] ?? `#${r}`] = values.value(v);
    }
    frames.push(loop >= 0 ? { handler: name, at, loop, registers } : { handler: name, at, registers });
  }
  return {
    id: th.id,
    origin: th.origin,
    // (a thread the debugger holds is never saved: worlds are saved between frames)
    wait: th.wait === null || th.wait.kind === 'debugger' ? 'ready' : th.wait.kind,
    wakeAt: writeNumber(th.wakeAt),
    order: th.sleepSeq,
    since: writeNumber(th.since),
    guard: { loops: th.backEdges, calls: th.calls },
    resume: th.resumeWith >= 0 ? builtinName(th.resumeWith) : null,
    frames,
    result: values.value(th.result),
  };
}
