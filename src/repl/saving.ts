// Saving the world and drawing its last minute: :save, :restore, :timeline.
import { readSnapshotFile, UsageError } from '../node/load.ts';
import { overwrites, writeSnapshotFile, writeWhole } from '../node/outputs.ts';
import { SnapshotError } from '../engine/snapshot.ts';
import { FORMAT_HINT, formatOf, renderTimeline } from '../timeline/index.ts';
import { unitsToMs } from '../time/units.ts';
import type { Repl } from './context.ts';
import { stamp } from './events.ts';
import { Input } from './travel.ts';
/** :save — the whole running world, as the same snapshot `pw run --save` writes, written whole or not at all. */
export function save(r: Repl, args: string[]): void {
  if (args.length !== 1) return r.log.error(':save needs a file name, e.g. :save world.json');
  const path = args[0];
  const e = r.engine;
  const clash = overwrites(
    path,
    r.files.map((f) => ({ path: f, what: `the script "${f}"` })),
  );
  if (clash) return r.log.error(`:save ${path} would overwrite ${clash}`);
  try {
    writeSnapshotFile(path, () => r.running.save());
  } catch (err) {
    return r.log.error(err instanceof UsageError ? err.message : `cannot save the world to "${path}": ${(err as Error).message}`);
  }
  r.log.info(`saved the world at game time ${stamp(unitsToMs(e.now))} to ${path} (${e.threadCount} thread${e.threadCount === 1 ? '' : 's'})`);
  const typed = [...new Set(r.typedAtPrompt)];
  if (typed.length > 0) {
    const shown = typed.length > 8 ? [...typed.slice(0, 8), `${typed.length - 8} more`] : typed;
    r.log.emit({
      kind: 'warning',
      text: `the snapshot needs what was defined at the prompt (${shown.join(', ')}), which is in no file: only this session can :restore it. Put those definitions in a file and :load it for a snapshot that pw run --restore can continue.`,
    });
  }
}

/** :restore — refused whole (and the world left as it was) unless it fits the loaded scripts. */
export function restore(r: Repl, args: string[]): void {
  if (args.length !== 1) return r.log.error(':restore needs a file name, e.g. :restore world.json');
  let text: string;
  try {
    text = readSnapshotFile(args[0]);
  } catch (err) {
    if (err instanceof UsageError) return r.log.error(err.message);
    throw err;
  }
  try {
    r.running.read(text);
  } catch (err) {
    if (err instanceof SnapshotError) return r.log.error(`cannot restore "${args[0]}": ${err.message}`);
    throw err;
  }
  r.input(Input.restore, text, () => adoptSnapshot(r, text));
}

/** Takes over a snapshot that fits the loaded scripts (each time from its text: the world takes over what is read). */
export function adoptSnapshot(r: Repl, text: string): void {
  r.running.restore(text);
  r.log.recent.reset();
  r.threads.follow();
  r.log.info(`restored the world saved at game time ${stamp(unitsToMs(r.engine.now))} (${r.engine.threadCount} thread${r.engine.threadCount === 1 ? '' : 's'})`);
}

/** :timeline — the last minute of the world as a picture (or a Chrome trace, by the extension). */
export function writeTimeline(r: Repl, args: string[]): void {
  if (args.length > 1) return r.log.error(':timeline takes one file name, e.g. :timeline engine.html');
  const file = args[0] ?? 'timeline.html';
  const format = formatOf(file);
  if (!format) return r.log.error(`:timeline "${file}": ${FORMAT_HINT}`);
  const now = unitsToMs(r.engine.now);
  const tl = r.log.recent.build(now);
  const clash = overwrites(
    file,
    r.files.map((f) => ({ path: f, what: `the script "${f}"` })),
  );
  if (clash) return r.log.error(`:timeline ${file} would overwrite ${clash}`);
  try {
    writeWhole(file, 'timeline', () => renderTimeline(tl, format, `Pocketwatch timeline, game time ${stamp(tl.from)} to ${stamp(tl.to)}`));
  } catch (err) {
    if (err instanceof UsageError) return r.log.error(err.message);
    throw err;
  }
  r.log.info(`wrote the timeline of game time ${stamp(tl.from)} to ${stamp(tl.to)} to ${file} (${tl.tracks.length} tracks)`);
}
