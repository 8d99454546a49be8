// From trace events to a timeline, one event at a time, in the order they were written.
// Each kind of thing gets its own track: a loop slot, a thread, a walking actor, a
// sound slot, a cricket. The timeline's detail kinds (thread runs and waits, loop
// arming) give the threads and loops their spans; a plain trace still gives firings,
// walks, sounds, sets, prints and frames.
import type { TraceEvent } from '../trace/events.ts';
import { GROUPS, type Args, type Group, type Inserted, type Kind, type Span, type Timeline, type Track } from './model.ts';

interface TrackState extends Track {
  /** Order of first appearance (tracks are shown by group, then by this). */
  seq: number;
  /** Spans still open, outermost first. */
  open: Span[];
  /** A thread lane: the thread that has it now, or -1 when free. */
  holder: number;
}

const WALK_NAMES: Record<string, string> = { defer: 'walktostar', walktoxyz: 'walktoxyz', walkonpath: 'walkonpath' };

const str = (v: unknown): string => (v === undefined || v === null ? '' : String(v));

export class TimelineBuilder {
  private tracks = new Map<string, TrackState>();
  private nextSeq = 0;
  /** Each live thread's track. */
  private threads = new Map<number, TrackState>();
  /** Thread tracks by origin: threads started by the same thing share a track while they do not overlap. */
  private lanes = new Map<string, TrackState[]>();
  /** The loop slot armed for each (kind, event), and the track it is shown on. */
  private armed = new Map<string, TrackState>();
  /** Spans that end at a known time (screen fades): closed once the trace passes it. */
  private due: { track: TrackState; span: Span; at: number }[] = [];
  private first = Infinity;
  /** Axis time of the latest event, in ms. */
  last = 0;
  /** Game time of the latest event, in ms. */
  lastGame = 0;
  /** The savetimer windows met so far, each as long on the axis as it lasted in wall time. */
  private inserted: Inserted[] = [];
  /** The open savetimer window: where it began on the axis and on the wall clock. */
  private saving: { at: number; start: number; wall: number } | null = null;
  /** Axis ms gained by the windows closed so far. */
  private gained = 0;
  /** Threads of the boot library's calctime, which the engine runs every heartbeat: not drawn, or they would bury the world's own. */
  private hidden = new Set<number>();
  /** Whether the trace has the timeline's detail (thread runs and waits): a plain one draws no threads. */
  threadDetail = false;

  /** Takes the next trace event (they come in time order). */
  add(ev: TraceEvent): void {
    const t = this.axis(ev);
    if (ev.t > this.lastGame) this.lastGame = ev.t;
    if (t < this.first) this.first = t;
    if (t > this.last) this.last = t;
    if (this.due.length > 0) this.closeDue(t);
    switch (ev.ev) {
      case 'print':
        return this.mark(this.world('print', 'print'), str(ev.text), 'print', t, {});
      case 'warning':
        return this.mark(this.world('problems', 'warnings and errors'), `warning: ${str(ev.message)}`, 'warning', t, {});
      case 'error':
        return this.mark(this.world('problems', 'warnings and errors'), `error: ${str(ev.message)}`, 'error', t, { at: ev.at });
      case 'dropped':
        return this.mark(this.world('problems', 'warnings and errors'), `dropped ${str(ev.ms)} ms of catch-up`, 'dropped', t, { ms: ev.ms });
      case 'set': {
        const track = this.world('set', 'current set');
        this.closeAll(track, t);
        this.mark(track, `gotoset ("${str(ev.to)}")`, 'set', t, { from: ev.from });
        this.push(track, str(ev.to), 'set', t, {});
        return;
      }
      case 'click':
        return this.mark(this.world('input', 'input'), `click on ${str(ev.to)}`, 'input', t, {});
      case 'mouse':
        return this.mark(this.world('input', 'input'), `mouse ${ev.down ? 'down' : 'up'}`, 'input', t, {});
      case 'clock':
        return this.clock(ev, t);
      case 'turn': {
        const track = this.world('camera', 'camera');
        this.closeAll(track, t);
        this.push(track, `turn to ${str(ev.view)}`, 'camera', t, { frames: ev.frames });
        return;
      }
      case 'view': {
        const track = this.world('camera', 'camera');
        this.closeAll(track, t);
        return this.mark(track, `view ${str(ev.view)}`, 'camera', t, {});
      }
      case 'fade': {
        const track = this.world('screen', 'screen');
        this.closeAll(track, t);
        const span = this.push(track, `${str(ev.kind)} ${str(ev.what)}`, 'screen', t, { steps: ev.steps, ms: ev.ms });
        this.due.push({ track, span, at: t + (typeof ev.ms === 'number' ? ev.ms : 0) });
        return;
      }
      case 'frame':
        return this.mark(this.world('frames', 'game frames'), `frame ${str(ev.n)}`, 'frame', t, {});
      case 'arm':
        return this.arm(ev, t);
      case 'loop':
        return this.fired(ev, t);
      case 'stoploop': {
        const track = this.armed.get(loopId(ev));
        if (!track) return;
        this.armed.delete(loopId(ev));
        this.closeAll(track, t);
        return this.mark(track, 'stoploop', 'fired', t, {});
      }
      case 'thread':
        this.threadDetail = true;
        if (ev.origin === 'calctime') {
          this.hidden.add(Number(ev.thread));
          return;
        }
        return this.threadStarted(Number(ev.thread), str(ev.origin), str(ev.handler), t);
      case 'run': {
        if (this.hidden.has(Number(ev.thread))) return;
        const track = this.thread(Number(ev.thread), t);
        this.closeTo(track, 1, t);
        this.push(track, 'run', 'run', t, {});
        return;
      }
      case 'wait': {
        if (this.hidden.has(Number(ev.thread))) return;
        const track = this.thread(Number(ev.thread), t);
        this.closeTo(track, 1, t);
        const onFrames = ev.on === 'display' || ev.on === 'gameframe';
        this.push(track, str(ev.for), onFrames ? 'wait-frame' : 'wait-time', t, { at: ev.at });
        return;
      }
      case 'exit': {
        if (this.hidden.delete(Number(ev.thread))) return;
        const track = this.threads.get(Number(ev.thread));
        if (!track) return;
        const life = track.open[0];
        if (life && ev.how !== 'done') life.args.how = ev.how;
        this.closeAll(track, t);
        track.holder = -1;
        this.threads.delete(Number(ev.thread));
        return;
      }
      case 'walk':
        return this.walk(ev, t);
      case 'endturn': {
        const track = this.actor(str(ev.actor));
        this.closeTo(track, 1, t);
        this.push(track, 'moving', 'moving', t, { facing: ev.facing });
        return;
      }
      case 'leg': {
        const track = this.actor(str(ev.actor));
        this.closeTo(track, 1, t);
        this.mark(track, `at ${str(ev.star) || `${str(ev.x)},${str(ev.y)},${str(ev.z)}`}`, 'arrival', t, { x: ev.x, y: ev.y, z: ev.z });
        this.push(track, 'turning', 'turning', t, {});
        return;
      }
      case 'endwalk': {
        const track = this.actor(str(ev.actor));
        this.closeAll(track, t);
        const where = str(ev.star) || `${str(ev.x)},${str(ev.y)},${str(ev.z)}`;
        return this.mark(track, `arrives at ${where}`, 'arrival', t, { x: ev.x, y: ev.y, z: ev.z });
      }
      case 'stopwalk': {
        const track = this.actor(str(ev.actor));
        this.closeAll(track, t);
        return this.mark(track, 'stopwalk', 'arrival', t, {});
      }
      case 'sound':
        return this.sound(ev, t);
      case 'soundend': {
        const track = this.tracks.get(`sound ${str(ev.slot)}`);
        if (track) this.closeAll(track, t);
        return;
      }
      default:
        // event, ignored, and kinds this version does not know: nothing to draw
        return;
    }
  }

  /** Everything from `from` to `to` (ms of game time; the whole trace by default): spans cut at the window's edges, open spans ended at `to`. */
  build(fromGame?: number, toGame?: number): Timeline {
    const from = fromGame === undefined ? (this.first === Infinity ? 0 : this.first) : this.axisOf(fromGame);
    const to = toGame === undefined ? this.last : this.axisOf(toGame);
    const tracks: Track[] = [];
    const ordered = [...this.tracks.values()].sort((a, b) => GROUPS.indexOf(a.group) - GROUPS.indexOf(b.group) || place(a) - place(b) || a.seq - b.seq);
    for (const tr of ordered) {
      const spans: Span[] = [];
      for (const s of tr.spans) {
        if (s.start > to || s.end < from) continue;
        const args: Args = { ...s.args };
        if (s.start < from) args.startedBefore = true;
        if (s.end > to) args.continues = true;
        spans.push({ ...s, start: Math.max(s.start, from), end: Math.min(s.end, to), args });
      }
      const marks = tr.marks.filter((m) => m.t >= from && m.t <= to);
      if (spans.length > 0 || marks.length > 0) tracks.push({ key: tr.key, group: tr.group, name: tr.name, spans, marks });
    }
    const inserted = this.inserted.filter((w) => w.end >= from && w.start <= to);
    if (this.saving && this.saving.start <= to) inserted.push({ at: this.saving.at, start: this.saving.start, end: Math.max(this.saving.start, this.last) });
    let gainedBefore = this.gained;
    for (const w of this.inserted) if (w.end > from) gainedBefore -= w.end - w.start;
    return { from, to, inserted, gainedBefore, tracks };
  }

  /** Lets go of everything over before `before` (ms), so a long session keeps only a recent window. */
  forget(beforeGame: number): void {
    const before = this.axisOf(beforeGame);
    this.inserted = this.inserted.filter((w) => w.end >= before);
    for (const [key, tr] of this.tracks) {
      tr.spans = tr.spans.filter((s) => s.end >= before);
      tr.marks = tr.marks.filter((m) => m.t >= before);
      // (a thread lane stays known by its origin, and comes back when a thread takes it)
      if (tr.spans.length === 0 && tr.marks.length === 0 && tr.holder < 0) this.tracks.delete(key);
    }
    if (this.first < before) this.first = before;
  }

  /** Spans and marks held, for keeping a session's memory bounded. */
  get size(): number {
    let n = 0;
    for (const tr of this.tracks.values()) n += tr.spans.length + tr.marks.length;
    return n;
  }

  // ---- tracks -----------------------------------------------------------------

  private track(key: string, group: Group, name: string): TrackState {
    let tr = this.tracks.get(key);
    if (!tr) {
      tr = { key, group, name, spans: [], marks: [], seq: this.nextSeq++, open: [], holder: -1 };
      this.tracks.set(key, tr);
    }
    return tr;
  }

  private world(key: string, name: string): TrackState {
    return this.track(key, 'world', name);
  }

  private push(tr: TrackState, name: string, kind: Kind, t: number, args: Args): Span {
    const s: Span = { name, kind, start: t, end: Infinity, depth: tr.open.length, args };
    tr.spans.push(s);
    tr.open.push(s);
    return s;
  }

  /** Closes open spans until `depth` are left. */
  private closeTo(tr: TrackState, depth: number, t: number): void {
    while (tr.open.length > depth) tr.open.pop()!.end = t;
  }

  private closeAll(tr: TrackState, t: number): void {
    this.closeTo(tr, 0, t);
  }

  private closeDue(t: number): void {
    const still: typeof this.due = [];
    for (const d of this.due) {
      if (d.at > t) still.push(d);
      // (unless something on its track ended it already)
      else if (d.track.open.includes(d.span)) this.closeTo(d.track, d.span.depth, d.at);
    }
    this.due = still;
  }

  private mark(tr: TrackState, name: string, kind: Kind, t: number, args: Args): void {
    tr.marks.push({ name, kind, t, args });
  }

  // ---- the kinds of track -----------------------------------------------------

  /**
   * Where an event goes on the axis: its game time plus the windows before it; inside a
   * savetimer window, where its wall time says (a trace that has no wall times, from an
   * older version, gives windows no length).
   */
  private axis(ev: TraceEvent): number {
    const s = this.saving;
    if (s && typeof ev.wall === 'number') return s.start + Math.max(0, ev.wall - s.wall);
    // (time never goes back on the axis)
    return s ? Math.max(this.last, ev.t + this.gained) : ev.t + this.gained;
  }

  /** A game time (ms) on the axis: after the windows that began before it. */
  axisOf(game: number): number {
    // (counted back from the total, as windows long past may have been let go of)
    let gained = this.gained;
    for (const w of this.inserted) if (w.at >= game) gained -= w.end - w.start;
    if (this.saving && this.saving.at < game) gained += this.last - this.saving.start;
    return game + gained;
  }

  private clock(ev: TraceEvent, t: number): void {
    const save = ev.op === 'save' || ev.op === 'restore';
    const track = this.world(save ? 'clock save' : 'clock lock', save ? 'savetimer window' : 'locktimer window');
    const opening = ev.op === 'lock' || ev.op === 'save';
    if (opening && ev.depth === 1) {
      const args: Args = save ? { gametime: ev.t } : {};
      this.push(track, save ? 'game clock saved' : 'game clock locked', 'clock', t, args);
      if (save && typeof ev.wall === 'number') this.saving = { at: ev.t, start: t, wall: ev.wall };
    } else if (!opening && ev.depth === 0) {
      this.closeAll(track, t);
      if (save && this.saving) {
        this.inserted.push({ at: this.saving.at, start: this.saving.start, end: t });
        this.gained += t - this.saving.start;
        track.spans.at(-1)!.args.wallMs = t - this.saving.start;
        this.saving = null;
      }
    }
  }

  private loopTrack(ev: TraceEvent): TrackState {
    const kind = str(ev.kind);
    const target = str(ev.target);
    const owner = kind === 'scene' ? `set ${target || '(none)'}` : `${kind} ${target}`;
    const id = loopId(ev);
    const existing = this.armed.get(id);
    if (existing) return existing;
    // a slot's track is named after its first owner; a scene loop keeps the set it was armed in
    return this.track(`loop ${kind} ${kind === 'scene' ? '' : target} ${str(ev.event)}`, 'loops', `${owner} · ${str(ev.event)}`);
  }

  private arm(ev: TraceEvent, t: number): void {
    const id = loopId(ev);
    const before = this.armed.get(id);
    if (before) {
      // re-arming replaces the slot: its countdown starts again
      this.closeAll(before, t);
      this.armed.delete(id);
    }
    const track = this.loopTrack(ev);
    this.armed.set(id, track);
    this.push(track, `armed ${str(ev.steps)} steps`, 'armed', t, { steps: ev.steps, ...(before ? { rearmed: true } : {}) });
  }

  private fired(ev: TraceEvent, t: number): void {
    const track = this.loopTrack(ev);
    this.armed.delete(loopId(ev));
    this.closeAll(track, t);
    this.mark(track, `fires ${str(ev.event)}`, 'fired', t, { target: ev.target });
  }

  private threadStarted(id: number, origin: string, handler: string, t: number): void {
    let lanes = this.lanes.get(origin);
    if (!lanes) this.lanes.set(origin, (lanes = []));
    let track = lanes.find((l) => l.holder < 0);
    if (!track) {
      const n = lanes.length + 1;
      track = this.track(`thread ${origin} ${n}`, 'threads', n === 1 ? origin : `${origin} (${n})`);
      lanes.push(track);
    }
    if (!this.tracks.has(track.key)) this.tracks.set(track.key, track);
    track.holder = id;
    this.threads.set(id, track);
    this.push(track, handler || `thread ${id}`, 'thread', t, { thread: id, origin });
  }

  /** A thread's track; for one met first in the middle of its life (started before the trace or the window kept), a new one. */
  private thread(id: number, t: number): TrackState {
    let track = this.threads.get(id);
    if (!track) {
      this.threadStarted(id, `thread ${id}`, '', t);
      track = this.threads.get(id)!;
      track.open[0]!.args.startedBefore = true;
    }
    return track;
  }

  private actor(name: string): TrackState {
    return this.track(`actor ${name}`, 'actors', `actor ${name}`);
  }

  private walk(ev: TraceEvent, t: number): void {
    const track = this.actor(str(ev.actor));
    this.closeAll(track, t);
    const kind = WALK_NAMES[str(ev.kind)] ?? str(ev.kind);
    this.push(track, `${kind} ${str(ev.dest)}`, 'walk', t, {});
    this.push(track, 'turning', 'turning', t, {});
  }

  private sound(ev: TraceEvent, t: number): void {
    const slot = str(ev.slot);
    const track = this.track(`sound ${slot}`, 'sound', slot === 'voice' ? 'voice' : `sound slot ${slot}`);
    this.closeAll(track, t);
    const cricket = ev.cricket === undefined ? undefined : str(ev.cricket);
    const args: Args = { volume: ev.volume, pan: ev.pan, ms: ev.ms };
    if (cricket !== undefined) args.cricket = cricket;
    const span = this.push(track, str(ev.sound), cricket === undefined ? 'sound' : 'cricket', t, args);
    // a sound plays on the wall clock: one begun in a savetimer window ends by its length, not by the game time its end is noticed at
    if (this.saving && typeof ev.ms === 'number') this.due.push({ track, span, at: t + ev.ms });
    if (cricket !== undefined) {
      const ct = this.track(`cricket ${cricket}`, 'sound', `cricket ${cricket}`);
      this.mark(ct, str(ev.sound), 'cricket', t, { volume: ev.volume, pan: ev.pan, ms: ev.ms });
    }
  }
}

// The world's tracks in a fixed order, the sound slots before the crickets; the rest by first appearance.
const WORLD_ORDER = ['set', 'print', 'problems', 'input', 'clock lock', 'clock save', 'camera', 'screen', 'frames'];
const SLOT_ORDER = ['sound 1', 'sound 2', 'sound voice'];

function place(tr: TrackState): number {
  if (tr.group === 'world') return WORLD_ORDER.indexOf(tr.key);
  if (tr.group === 'sound') return tr.key.startsWith('sound ') ? SLOT_ORDER.indexOf(tr.key) : SLOT_ORDER.length;
  return 0;
}

function loopId(ev: TraceEvent): string {
  return `${str(ev.kind)} ${str(ev.event)}`;
}

/** A whole trace at once. */
export function timelineOf(events: Iterable<TraceEvent>, from?: number, to?: number): Timeline {
  const b = new TimelineBuilder();
  for (const ev of events) b.add(ev);
  return b.build(from, to);
}

/**
 * The recent past of a live world, for the REPL: a builder that lets go of what is
 * older than the window, and of more when the world is so busy that even the window
 * would hold too much.
 */
export class RecentTimeline {
  private b = new TimelineBuilder();
  private nextTrim = 0;

  constructor(
    /** How much game time to keep, in ms. */
    readonly windowMs = 60_000,
    /** Most spans and marks kept. */
    readonly maxItems = 100_000,
  ) {}

  add(ev: TraceEvent): void {
    this.b.add(ev);
    if (ev.t >= this.nextTrim) this.trim(ev.t);
  }

  private trim(now: number): void {
    // every few seconds of game time, or sooner when a busy world fills it fast
    this.nextTrim = now + this.windowMs / 12;
    let keep = this.windowMs;
    this.b.forget(now - keep);
    while (this.b.size > this.maxItems && keep > 1000) {
      keep /= 2;
      this.b.forget(now - keep);
    }
  }

  /** The last window up to `now` (ms). */
  build(now: number): Timeline {
    return this.b.build(Math.max(0, now - this.windowMs), now);
  }

  /** The world jumped in time (a restore): what came before is another history. */
  reset(): void {
    this.b = new TimelineBuilder();
    this.nextTrim = 0;
  }
}
