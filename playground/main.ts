// The playground page: the demo world in an editor, run on requestAnimationFrame,
// drawn on a canvas, heard through Web Audio, with its prints, status line and events.
import demo from 'demo-world';
import {
  clockText,
  compile,
  CompileError,
  DEFAULT_EVENT_KINDS,
  describeEvent,
  eventKind,
  EVENT_KINDS,
  OracleRecorder,
  statusFields,
  type Diagnostic,
  type EventKind,
  type Program,
  type TraceEvent,
  type WorldSnapshot,
} from '../src/api/index.ts';
import { BrowserRunner } from './runner.ts';
import { createEditor } from './editor.ts';
import { drawWorld } from './view.ts';
import { Speakers } from './audio.ts';
import { readShared, shareLink } from './share.ts';

const MAX_LINES = 1000;
const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const output = $<HTMLDivElement>('output');
const events = $<HTMLDivElement>('events');
const problemsBox = $<HTMLDivElement>('problems');
const canvas = $<HTMLCanvasElement>('view');
const speakers = new Speakers();
const shown = new Set<EventKind>(DEFAULT_EVENT_KINDS);

function append(box: HTMLElement, text: string, t?: number, cls?: string): void {
  const line = document.createElement('div');
  if (cls) line.className = cls;
  if (t !== undefined) {
    const stamp = document.createElement('span');
    stamp.className = 't';
    stamp.textContent = `${(t / 1000).toFixed(3)}s`;
    line.append(stamp);
  }
  line.append(text);
  const follow = box.scrollTop + box.clientHeight >= box.scrollHeight - 4;
  box.append(line);
  while (box.childElementCount > MAX_LINES) box.firstElementChild!.remove();
  if (follow) box.scrollTop = box.scrollHeight;
}

// ---- compiling: once per distinct text, for the editor's diagnostics and for Run ----

let compiled: { key: string; program: Program | null; diagnostics: Diagnostic[] } | null = null;
/** Runtime errors and warnings of the running world, marked in the editor until the scripts change or a new world starts. */
let runtimeProblems: Diagnostic[] = [];
const MAX_RUNTIME_PROBLEMS = 50;

function compileNow(): { program: Program | null; diagnostics: Diagnostic[] } {
  const files = editor.texts();
  const key = JSON.stringify(files);
  if (compiled?.key !== key) {
    try {
      compiled = { key, program: compile(files), diagnostics: [] };
    } catch (err) {
      if (!(err instanceof CompileError)) throw err;
      compiled = { key, program: null, diagnostics: err.diagnostics };
    }
    runtimeProblems = [];
    showProblems();
  }
  return compiled;
}

function problems(): Diagnostic[] {
  return [...(compiled?.diagnostics ?? []), ...runtimeProblems];
}

function showProblems(): void {
  problemsBox.textContent = problems()
    .map((d) => `${d.file}:${d.line}:${d.col}: ${d.kind}: ${d.message}`)
    .join('\n');
}

/** A problem found while the world runs: in the problems bar and at its line in the editor. */
function runtimeProblem(d: Diagnostic): void {
  append(events, d.text, runner.world?.gameTime, 'error');
  const same = (o: Diagnostic) => o.file === d.file && o.line === d.line && o.col === d.col && o.message === d.message;
  if (runtimeProblems.length >= MAX_RUNTIME_PROBLEMS || runtimeProblems.some(same)) return;
  runtimeProblems.push(d);
  showProblems();
  editor.refreshProblems();
}

// a share link in the hash opens its own world instead of the demo
const shared = readShared(location.hash);
const opened = shared instanceof Error || shared === null ? { files: demo, seed: 1, fps: 60 } : shared;
const seedBox = $<HTMLInputElement>('seed');
const fpsBox = $<HTMLInputElement>('fps');
seedBox.value = String(opened.seed);
fpsBox.value = String(opened.fps);

const editor = createEditor($('editor'), opened.files, (file) => {
  compileNow();
  return problems().filter((d) => d.file === file);
});

const tabs = $('files');
for (const f of opened.files) {
  const b = document.createElement('button');
  b.textContent = f.name.replace(/^scripts\//, '');
  b.setAttribute('role', 'tab');
  b.setAttribute('aria-selected', String(f.name === editor.current));
  b.onclick = () => {
    editor.show(f.name);
    for (const t of tabs.children) t.setAttribute('aria-selected', String(t === b));
  };
  tabs.append(b);
}

// ---- the event log's filter ----

const filters = $('filters');
for (const kind of EVENT_KINDS) {
  const label = document.createElement('label');
  const box = document.createElement('input');
  box.type = 'checkbox';
  box.checked = shown.has(kind);
  box.dataset.kind = kind;
  box.onchange = () => {
    if (box.checked) shown.add(kind);
    else shown.delete(kind);
    for (const line of events.children) (line as HTMLElement).hidden = !shown.has((line as HTMLElement).dataset.kind as EventKind);
  };
  label.append(box, ` ${kind}`);
  filters.append(label);
}

function logEvent(ev: TraceEvent): void {
  if (ev.ev === 'print' || ev.ev === 'error' || ev.ev === 'warning') return; // shown where they belong
  const kind = eventKind(ev);
  append(events, describeEvent(ev), ev.t);
  const line = events.lastElementChild as HTMLElement;
  line.dataset.kind = kind;
  line.hidden = !shown.has(kind);
}

// ---- the running world ----

/** A whole number from a box, kept inside its bounds. */
function boxNumber(box: HTMLInputElement, lo: number, hi: number, fallback: number): number {
  const n = Number(box.value);
  return Number.isInteger(n) ? Math.min(hi, Math.max(lo, n)) : fallback;
}

const runner = new BrowserRunner({
  seed: opened.seed,
  fps: opened.fps,
  host: {
    print: (text) => append(output, text),
    trace: (ev) => {
      recorder?.observe(ev);
      logEvent(ev);
    },
    sound: (e) => speakers.play(e),
    diagnostic: runtimeProblem,
  },
  onFrame: () => render(),
  onFault: (err) => append(events, `the world stopped: ${(err as Error)?.message ?? String(err)}`, undefined, 'error'),
});

function render(): void {
  const w = runner.world;
  const v = w ? w.inspect() : null;
  drawWorld(canvas, v);
  if (!v) return;
  const held = [v.clock.locked > 0 ? 'locked' : '', v.clock.saved > 0 ? 'saved' : ''].filter((s) => s !== '').join('+');
  const clock = runner.paused ? `paused${held ? `, ${held}` : ''}` : held || 'running';
  const walking = v.actors.filter((a) => a.walk !== null).map((a) => a.name);
  const fields = statusFields({
    gameMs: v.gameTime,
    wallMs: v.wallTime,
    frame: v.frame,
    fps: runner.fps(),
    loops: v.loops.length,
    crickets: v.crickets.length,
    walking,
    threads: v.threads.length,
    clock,
    paused: runner.paused,
  });
  $('game-time').textContent = clockText(v.gameTime);
  $('status-rest').textContent = fields
    .filter((f) => f.label !== 'game')
    .map((f) => `${f.label} ${f.value}`)
    .join('  ');
  $<HTMLButtonElement>('pause').disabled = !runner.running;
}

/** The program of the editor's text, or null (its problems are shown). */
function program(): Program | null {
  const r = compileNow();
  if (!r.program) append(events, `${r.diagnostics.length} error${r.diagnostics.length === 1 ? '' : 's'} in the scripts; nothing runs`, undefined, 'error');
  return r.program;
}

function startFresh(p: Program): void {
  if (recorder && !recording) endRecording('the recording stopped: a new world started');
  recording = false;
  output.replaceChildren();
  events.replaceChildren();
  runtimeProblems = [];
  showProblems();
  editor.refreshProblems();
  // a new world takes the seed and fps as they stand in their boxes
  runner.options.seed = boxNumber(seedBox, 0, Number.MAX_SAFE_INTEGER, 1);
  runner.options.fps = boxNumber(fpsBox, 1, 1000, 60);
  runner.start(p);
}

$('run').onclick = () => {
  speakers.wake();
  const p = program();
  if (!p) return;
  // a paused world of the same scripts goes on; edited scripts start a new one
  if (runner.paused && runner.currentProgram?.fingerprint === p.fingerprint) runner.run();
  else startFresh(p);
  render();
};
$('pause').onclick = () => {
  runner.pause();
  render();
};
$('step').onclick = () => {
  speakers.wake();
  if (!runner.world) {
    const p = program();
    if (!p) return;
    startFresh(p);
  }
  runner.step();
};

let saved: { program: Program; snapshot: WorldSnapshot } | null = null;
$('save').onclick = () => {
  const snapshot = runner.save();
  if (!snapshot || !runner.currentProgram) return;
  saved = { program: runner.currentProgram, snapshot };
  $<HTMLButtonElement>('restore').disabled = false;
  append(events, `saved the world at ${clockText(runner.world!.gameTime)} of game time`, runner.world!.gameTime);
};
$('restore').onclick = () => {
  if (!saved) return;
  if (recorder) endRecording('the recording stopped: an oracle replays from the start, and the restored world did not start there');
  runner.restore(saved.program, saved.snapshot);
  append(events, 'restored the saved world (paused: Run goes on)', runner.world!.gameTime);
};
// ---- recording: the world from its start, and what was done to it, as an oracle ----

const ORACLE_NAME = 'recording.oracle';
let recorder: OracleRecorder | null = null;
/** True while the recording's own world is being started. */
let recording = false;
const recordButton = $<HTMLButtonElement>('record');

function endRecording(why?: string): void {
  recorder = null;
  recordButton.textContent = 'Record';
  recordButton.setAttribute('aria-pressed', 'false');
  if (why) append(events, why, runner.world?.gameTime, 'error');
}

recordButton.onclick = () => {
  speakers.wake();
  if (recorder && runner.world) {
    const text = recorder.oracle(runner.world.gameTime);
    const n = recorder.inputCount;
    endRecording();
    $<HTMLTextAreaElement>('oracle-text').value = text;
    $<HTMLAnchorElement>('oracle-download').href = `data:text/plain;charset=utf-8,${encodeURIComponent(text)}`;
    $('recording').hidden = false;
    append(events, `recorded ${n} input${n === 1 ? '' : 's'} to ${clockText(runner.world.gameTime)} of game time: ${ORACLE_NAME} below passes pw check`, runner.world.gameTime);
    return;
  }
  const p = program();
  if (!p) return;
  const files = editor.texts();
  recorder = new OracleRecorder({
    about: 'recorded in the playground',
    scripts: files,
    oracleName: ORACLE_NAME,
    seed: boxNumber(seedBox, 0, Number.MAX_SAFE_INTEGER, 1),
    fps: boxNumber(fpsBox, 1, 1000, 60),
    keepGoing: true,
  });
  recording = true;
  startFresh(p);
  recordButton.textContent = 'Stop recording';
  recordButton.setAttribute('aria-pressed', 'true');
  append(events, 'recording: the world started afresh; keys and answers are recorded with what the world does (Stop recording gives the oracle)', 0);
  render();
};

$('share').onclick = () => {
  const link = shareLink(location.href, { files: editor.texts(), seed: boxNumber(seedBox, 0, Number.MAX_SAFE_INTEGER, 1), fps: boxNumber(fpsBox, 1, 1000, 60) });
  const box = $<HTMLInputElement>('share-link');
  if (!link.ok) {
    box.hidden = true;
    append(events, link.message, undefined, 'error');
    return;
  }
  history.replaceState(null, '', link.url);
  box.value = link.url;
  box.hidden = false;
  box.select();
  void navigator.clipboard?.writeText(link.url).then(
    () => append(events, `share link copied (${link.url.length} characters)`),
    () => append(events, `share link in the address bar (${link.url.length} characters)`),
  );
};
// ---- keys reach the world while the canvas has focus (click it, or Tab to it) ----

const keysHeld = new Set<string>();
function keyTo(state: 'down' | 'up', e: KeyboardEvent): void {
  const w = runner.world;
  if (!w || e.repeat || e.ctrlKey || e.metaKey || e.altKey) return;
  e.preventDefault();
  const name = e.key === ' ' ? 'space' : e.key.toLowerCase();
  // a key released elsewhere, or pressed before this world started, is no press to let go of
  if (state === 'up' ? !keysHeld.delete(name) : (keysHeld.add(name), false)) return;
  try {
    w.key(state, name);
  } catch (err) {
    append(events, (err as Error).message, w.gameTime, 'error');
  }
}
canvas.addEventListener('keydown', (e) => keyTo('down', e));
canvas.addEventListener('keyup', (e) => keyTo('up', e));
// leaving the canvas lets go of every key it held
canvas.addEventListener('blur', () => {
  for (const name of keysHeld) runner.world?.key('up', name);
  keysHeld.clear();
});

$<HTMLInputElement>('volume').oninput = (e) => speakers.setVolume(Number((e.target as HTMLInputElement).value));

if (shared instanceof Error) append(events, shared.message, undefined, 'error');
else if (shared) append(events, `opened a shared world: ${shared.files.length} file${shared.files.length === 1 ? '' : 's'}, seed ${shared.seed}, ${shared.fps} fps (Run starts it)`);
compileNow();
render();
drawWorld(canvas, null);
