// `pw repl --watch`: the folders of the loaded files are watched, and a file saved in
// one reloads the world a moment later. Folders, not files: an editor that saves by
// writing a new file and renaming it over the old one would end a file's watch.
import { watch, type FSWatcher } from 'node:fs';
import { isFolder } from '../node/load.ts';
import { dirname, join, resolve } from 'node:path';

/** Saves closer together than this are one change (an editor writes a file in several steps). */
export const WATCH_SETTLE_MS = 150;

export class Watcher {
  private watchers = new Map<string, FSWatcher>();
  private timer: NodeJS.Timeout | null = null;
  private files = new Set<string>();
  private folders = new Set<string>();

  /**
   * `what`: the script files the world is made of and the folders it was loaded from
   * (whose new .pw files join it too), asked again after every change; `changed`:
   * called once the saves have settled.
   */
  constructor(
    private readonly what: () => string[],
    private readonly changed: () => void,
  ) {
    this.sync();
  }

  /** Watches what `what` names now (after a :load, say). */
  sync(): void {
    const paths = this.what().map((p) => resolve(p));
    this.folders = new Set(paths.filter(isFolder));
    this.files = new Set(paths.filter((p) => !this.folders.has(p)));
    const dirs = new Set([...[...this.files].map((f) => dirname(f)), ...this.folders]);
    for (const [dir, watcher] of this.watchers) {
      if (dirs.has(dir)) continue;
      watcher.close();
      this.watchers.delete(dir);
    }
    for (const dir of dirs) {
      if (this.watchers.has(dir) || !isFolder(dir)) continue;
      try {
        const watcher = watch(dir, { persistent: true }, (_event, name) => this.saw(dir, name === null ? null : String(name)));
        // a folder that goes away ends its watch; the next sync finds it again if it comes back
        watcher.on('error', () => {
          watcher.close();
          this.watchers.delete(dir);
        });
        this.watchers.set(dir, watcher);
      } catch {
        // a folder that cannot be watched is reloaded with :reload
      }
    }
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const w of this.watchers.values()) w.close();
    this.watchers.clear();
  }

  private saw(dir: string, name: string | null): void {
    const path = name === null ? null : join(dir, name);
    const ours = path === null || this.files.has(path) || (this.folders.has(dir) && path.toLowerCase().endsWith('.pw'));
    if (!ours) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.changed();
      this.sync();
    }, WATCH_SETTLE_MS);
  }
}
