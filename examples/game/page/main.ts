// The Keeper's Light in a browser, built only on the package's public exports: the
// scripts compiled with the game's host builtins (pocketwatch.json), a world driven
// by requestAnimationFrame, drawn from world.inspect (), heard through Web Audio, played
// with the mouse and keys, its dialogue answered from the page, saved in localStorage.
import { compile, World, SnapshotError, type SoundEvent, type TraceEvent, type WorldOptions, type WorldSnapshot } from 'pocketwatch';
import game from 'game-scripts';
import { Dialogue, type Pending } from './dialogue.ts';
import { Motion, Stage } from './stage.ts';
import { Speakers } from './sound.ts';

const SAVE_KEY = 'keepers-light/save';
const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const canvas = $<HTMLCanvasElement>('stage');
const notice = $('notice');
const stage = new Stage(canvas);
const motion = new Motion();
const speakers = new Speakers();
const dialogue = new Dialogue($('line'), $('choices'), (request, value) => world.answer(request, value));

const program = compile(game.files, { builtins: game.builtins });

// A fade from the scripts (screentoblack, blacktoscreen) runs on the wall clock: the
// page darkens the stage over the same wall time.
let fade: { from: number; to: number; start: number; ms: number } | null = null;

function options(): WorldOptions {
  return {
    seed: 1,
    fps: 60,
    // real frames at about 60 Hz: polling loops (voicedone) may run for minutes
    realFrames: true,
    keepGoing: true,
    host: {
      sound: (e: SoundEvent) => speakers.play(e),
      trace: (e: TraceEvent) => {
        if (e.ev !== 'fade') return;
        const toBlack = e.kind === 'screentoblack';
        fade = { from: toBlack ? 0 : 1, to: toBlack ? 1 : 0, start: world.wallTime, ms: Number(e.ms) };
      },
      // script errors are the game's own bugs: they go to the console, the game goes on
      diagnostic: (d) => console.warn(d.text),
    },
    builtins: {
      say: (request: number, who: unknown, text: unknown) => dialogue.say(request, String(who ?? ''), String(text ?? '')),
      choose: (request: number, choices: unknown) => dialogue.choose(request, Array.isArray(choices) ? choices.map(String) : [String(choices)]),
    },
  };
}

let world = new World(program, options());
world.start();
/** performance.now () at the world's wall time 0. */
let origin = performance.now();

function frame(now: number): void {
  try {
    world.frame(Math.max(world.wallTime, now - origin));
  } catch (err) {
    notice.textContent = `The game stopped: ${(err as Error).message}`;
    return;
  }
  const view = world.inspect();
  motion.update(view);
  stage.time = now / 1000;
  if (fade) {
    const k = Math.min(1, (world.wallTime - fade.start) / Math.max(1, fade.ms));
    stage.black = fade.from + (fade.to - fade.from) * k;
  }
  stage.lampLit = world.get('lampLit') === true;
  stage.draw(view, motion);
  $('game-time').textContent = `${(view.gameTime / 1000).toFixed(1)} s`;
  requestAnimationFrame(frame);
}
requestAnimationFrame(frame);

// ---- input: the mouse on the stage, keys anywhere ----

/** Sound may start once the player has done something (a browser rule). */
function gesture(): void {
  if (speakers.awake) return;
  speakers.wake();
  $('sound-state').textContent = 'sound on';
}

canvas.addEventListener('pointermove', (e) => {
  const spot = stage.hit(world.inspect(), e.offsetX, e.offsetY);
  stage.hover = spot?.object ?? null;
  canvas.style.cursor = spot ? 'pointer' : 'default';
});
canvas.addEventListener('pointerleave', () => (stage.hover = null));
canvas.addEventListener('pointerdown', (e) => {
  gesture();
  world.mouse('down');
  const spot = stage.hit(world.inspect(), e.offsetX, e.offsetY);
  if (spot) world.click(spot.object);
});
canvas.addEventListener('pointerup', () => world.mouse('up'));

const KEY_NAMES: Record<string, string> = { ArrowLeft: 'left', ArrowRight: 'right', ArrowUp: 'up', ArrowDown: 'down', ' ': 'space', Enter: 'enter', Escape: 'escape' };
const keyName = (e: KeyboardEvent): string | null => KEY_NAMES[e.key] ?? (/^[a-z0-9]$/i.test(e.key) ? e.key.toLowerCase() : null);
const held = new Set<string>();

document.addEventListener('keydown', (e) => {
  const name = keyName(e);
  if (!name || e.repeat || e.ctrlKey || e.metaKey || e.altKey) return;
  // a focused button takes its own Space and Enter
  if ((name === 'space' || name === 'enter') && (e.target as HTMLElement).tagName === 'BUTTON') return;
  gesture();
  if (dialogue.key(name)) {
    e.preventDefault();
    return;
  }
  if (name === 'left' || name === 'right' || name === 'space') e.preventDefault();
  held.add(name);
  world.key('down', name);
});
document.addEventListener('keyup', (e) => {
  const name = keyName(e);
  if (!name || !held.delete(name)) return;
  world.key('up', name);
});
document.addEventListener('pointerdown', gesture);

// ---- saves: the world's snapshot, and the line on screen ----

interface SavedGame {
  snapshot: WorldSnapshot;
  line: { who: string; text: string };
}

/** What a restored world still waits on, as the dialogue shows it. */
function pendingDialogue(): Pending[] {
  return world.pending().map((p): Pending => {
    const text = (v: unknown) => String(v ?? '');
    if (p.name === 'choose') return { request: p.request, kind: 'choose', options: Array.isArray(p.args[0]) ? p.args[0].map(String) : [text(p.args[0])] };
    return { request: p.request, kind: 'say', who: text(p.args[0]), text: text(p.args[1]) };
  });
}

$('save').onclick = () => {
  const saved: SavedGame = { snapshot: world.save(), line: dialogue.shown };
  try {
    localStorage.setItem(SAVE_KEY, JSON.stringify(saved));
    notice.textContent = `Saved at ${(world.gameTime / 1000).toFixed(1)} s of game time.`;
  } catch (err) {
    notice.textContent = `Could not save: ${(err as Error).message}`;
  }
};

$('load').onclick = () => {
  const text = localStorage.getItem(SAVE_KEY);
  if (text === null) {
    notice.textContent = 'There is no saved game yet.';
    return;
  }
  try {
    const saved = JSON.parse(text) as SavedGame;
    world = World.restore(program, saved.snapshot, options());
    origin = performance.now() - world.wallTime;
    fade = null;
    stage.black = 0;
    motion.reset();
    speakers.hush();
    // the restored world does not ask again: its unanswered requests are in pending ()
    dialogue.restore(pendingDialogue(), saved.line);
    notice.textContent = `Loaded the game saved at ${(world.gameTime / 1000).toFixed(1)} s.`;
  } catch (err) {
    notice.textContent = err instanceof SnapshotError ? `The saved game cannot be loaded: ${err.message}` : `Could not load: ${(err as Error).message}`;
  }
};
