// The REPL's past, as the session's history (engine/history.ts) asks for it: a
// checkpoint captured and rewound to, and a recorded input applied again. The session
// decides when; these say what.
import { Input, type Capture, type LoadInput, type ReloadInput } from './travel.ts';
import type { Coder, Loader } from './context.ts';
import { evaluate } from './code.ts';
import { loadSources, swapProgram } from './reload.ts';
import { postAnswer, postClick, postKey } from './inputs.ts';
import { adoptSnapshot } from './saving.ts';

/** What a checkpoint keeps and a replay changes: the session as loading files and running code see it. */
type Kept = Loader & Coder;

/** A checkpoint: the world saved as it stands, and what else restoring it needs. */
export function capture(s: Kept): { text: string; extra: Capture } {
  const e = s.engine;
  return {
    text: s.running.save({ asItStands: true }),
    extra: {
      program: e.program,
      live: s.world.moment(),
      group: s.group,
      files: s.files,
      roots: s.roots,
      defs: s.defs,
      typedAtPrompt: s.typedAtPrompt,
      ...s.threads.capture(),
      loopsShown: s.log.loopsLines(),
    },
  };
}

/** Back to a checkpoint, exactly as it was. */
export function rewind(s: Kept, text: string, c: Capture): void {
  const restored = s.running.read(text, { program: c.program });
  s.engine.program = c.program;
  s.world.rewind(restored.state, restored.threads, c.live);
  s.group = c.group;
  s.files = c.files;
  if (s.roots !== c.roots) {
    s.roots = c.roots;
    s.onFilesChanged?.();
  }
  s.defs = c.defs;
  s.typedAtPrompt = c.typedAtPrompt;
  s.log.restoreLoopsLines(c.loopsShown);
  s.threads.follow(c);
  s.log.recent.reset();
}

/** An input recorded earlier, applied again (the session holds the clock at what it read then). */
export function replayInput(s: Kept, kind: number, payload: unknown): void {
  switch (kind) {
    case Input.frame:
      return s.world.frame();
    case Input.step:
      return s.stepOnce();
    case Input.pause:
      return void s.world.pause();
    case Input.resume:
      return void s.world.resume();
    case Input.code:
      return evaluate(s, payload as string, null);
    case Input.click:
      return postClick(s.engine, payload as [string, string]);
    case Input.key:
      return postKey(s.engine, payload as string);
    case Input.answer:
      return postAnswer(s.engine, payload as [number, unknown]);
    case Input.load:
      return loadSources(s, payload as LoadInput);
    case Input.reload:
      return swapProgram(s, payload as ReloadInput);
    case Input.restore:
      return adoptSnapshot(s, payload as string);
    case Input.interrupt:
      return void s.threads.stop();
    default:
      throw new Error(`internal: input kind ${kind} cannot be replayed`);
  }
}

/** The world as its scripts see it, as text: what a line typed in the past may have changed. */
export function observable(s: Kept): string {
  // (the code and the host are not the world; a thread that came and went leaves only its number and place in line used)
  const { program, host, world, ...rest } = s.running.saveBody({ asItStands: true });
  const { nextThreadId, sleepSeq, ...seen } = world;
  return JSON.stringify({ ...rest, world: seen });
}
