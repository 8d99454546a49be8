// Handlers pw explore never reached, shown in the editor as hints (faded, as unused code
// is). The report is the one `pw explore … --json .pw/explore.json` writes in a
// workspace folder (docs/explore.md); its handler labels name files as pw explore was
// given them, which is relative to that folder when it ran there. The report is read
// again whenever it changes on the disk.
import { join, resolve } from 'node:path';
import { readTextFile, statPath, UsageError } from '../node/load.ts';

/** Where in a workspace folder the server looks for the explorer's report. */
export const EXPLORE_REPORT = '.pw/explore.json';
const MAX_REPORT_BYTES = 64 * 1024 * 1024;

export interface UnreachedHandler {
  /** 1-based line of the handler's `on`. */
  line: number;
  /** The event it handles, as spelled in the report. */
  event: string;
  /** The report's label: `bedsit.pw:31 prop faucet on click`. */
  label: string;
}

interface Report {
  /** Unreached handlers by absolute path of their file. */
  byPath: Map<string, UnreachedHandler[]>;
  states: number;
}

const LABEL = /^(.+):(\d+) (?:(?:set|actor|prop|flat) \S+ )?on (\S+)$/;

export class ExploreHints {
  /** Each folder's report as last read, with what the file was then (a changed one is read again). */
  private readonly cache = new Map<string, { stamp: string; report: Report | null }>();
  /** Problems to mention once in the editor's log (a report that does not read). */
  readonly notes: string[] = [];

  constructor(private readonly roots: readonly string[]) {}

  /** Unreached handlers by absolute path, from every workspace folder's report, read again where it changed. */
  unreached(): { byPath: Map<string, UnreachedHandler[]>; states: number } | null {
    const byPath = new Map<string, UnreachedHandler[]>();
    let states = -1;
    for (const root of this.roots) {
      const r = this.read(root);
      if (r === null) continue;
      states = Math.max(states, r.states);
      for (const [path, hs] of r.byPath) byPath.set(path, [...(byPath.get(path) ?? []), ...hs]);
    }
    return states < 0 ? null : { byPath, states };
  }

  private read(root: string): Report | null {
    const file = join(root, EXPLORE_REPORT);
    let stamp: string;
    try {
      const st = statPath(file);
      stamp = `${st.mtimeMs} ${st.size}`;
    } catch {
      this.cache.delete(root);
      return null;
    }
    const known = this.cache.get(root);
    if (known?.stamp === stamp) return known.report;
    let report: Report | null = null;
    try {
      report = parseReport(readTextFile(file, file, MAX_REPORT_BYTES), root);
    } catch (err) {
      if (!(err instanceof UsageError) && !(err instanceof SyntaxError) && !(err instanceof TypeError)) throw err;
      this.notes.push(`${file}: not a report of pw explore --json (${err.message}): no hints of unreached handlers`);
    }
    this.cache.set(root, { stamp, report });
    return report;
  }
}

function parseReport(text: string, root: string): Report {
  const report = JSON.parse(text) as { states?: unknown; coverage?: { handlers?: { unreached?: unknown } } };
  const unreached = report?.coverage?.handlers?.unreached;
  if (!Array.isArray(unreached) || typeof report.states !== 'number') throw new TypeError('it has no "states" and "coverage.handlers.unreached"');
  const byPath = new Map<string, UnreachedHandler[]>();
  for (const label of unreached) {
    const m = typeof label === 'string' ? LABEL.exec(label) : null;
    if (!m) continue;
    const path = resolve(root, m[1]);
    byPath.set(path, [...(byPath.get(path) ?? []), { line: Number(m[2]), event: m[3], label }]);
  }
  return { byPath, states: report.states };
}
