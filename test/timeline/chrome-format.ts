// A strict checker of the Chrome Trace Event Format (the "JSON Object Format" of the
// Trace Event Format document): what the viewers rely on, and nothing they would have
// to guess about. Returns every problem found; an empty list means the file is sound.
//
// Checked: the root object and its known keys; every event has name, ph, ts, pid and
// tid of the right types, and only fields the format defines for its phase; B/E
// events pair up per (pid, tid) in stack order with matching names and no time going
// back on a thread; X durations are not negative; instant scopes are g, p or t;
// metadata events are the five defined ones with their argument.

const ROOT_KEYS = new Set(['traceEvents', 'displayTimeUnit', 'otherData', 'systemTraceEvents', 'stackFrames', 'samples', 'metadata']);
const PHASES = new Set(['B', 'E', 'X', 'i', 'I', 'C', 'b', 'n', 'e', 's', 't', 'f', 'P', 'N', 'O', 'D', 'M', 'R', 'c', '(', ')']);
const COMMON = ['name', 'ph', 'ts', 'pid', 'tid', 'cat', 'args', 'tts', 'cname'];
const EXTRA: Record<string, string[]> = {
  X: ['dur', 'tdur'],
  i: ['s'],
  I: ['s'],
  b: ['id', 'scope'],
  n: ['id', 'scope'],
  e: ['id', 'scope'],
  s: ['id', 'bp'],
  t: ['id', 'bp'],
  f: ['id', 'bp'],
  N: ['id'],
  O: ['id'],
  D: ['id'],
};
const METADATA: Record<string, string> = { process_name: 'name', thread_name: 'name', process_sort_index: 'sort_index', thread_sort_index: 'sort_index', process_labels: 'labels' };

export function checkChromeTrace(text: string): string[] {
  const problems: string[] = [];
  let root: unknown;
  try {
    root = JSON.parse(text);
  } catch (err) {
    return [`not JSON: ${(err as Error).message}`];
  }
  if (typeof root !== 'object' || root === null || Array.isArray(root)) return ['the root is not an object (the JSON Object Format)'];
  const r = root as Record<string, unknown>;
  for (const k of Object.keys(r)) if (!ROOT_KEYS.has(k)) problems.push(`unknown root key "${k}"`);
  if (!Array.isArray(r.traceEvents)) return [...problems, 'traceEvents is not an array'];
  if (r.displayTimeUnit !== undefined && r.displayTimeUnit !== 'ms' && r.displayTimeUnit !== 'ns') problems.push(`displayTimeUnit must be "ms" or "ns", not ${JSON.stringify(r.displayTimeUnit)}`);
  if (r.otherData !== undefined && (typeof r.otherData !== 'object' || r.otherData === null || Array.isArray(r.otherData))) problems.push('otherData must be an object');

  const stacks = new Map<string, { name: string; ts: number }[]>();
  const lastTs = new Map<string, number>();
  r.traceEvents.forEach((raw: unknown, i: number) => {
    const at = `event ${i}`;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return problems.push(`${at}: not an object`);
    const e = raw as Record<string, unknown>;
    if (typeof e.name !== 'string') problems.push(`${at}: name must be a string`);
    if (typeof e.ph !== 'string' || !PHASES.has(e.ph)) return problems.push(`${at}: unknown phase ${JSON.stringify(e.ph)}`);
    if (typeof e.ts !== 'number' || !Number.isFinite(e.ts) || e.ts < 0) problems.push(`${at}: ts must be a number of µs, 0 or more`);
    if (!Number.isInteger(e.pid)) problems.push(`${at}: pid must be an integer`);
    if (!Number.isInteger(e.tid)) problems.push(`${at}: tid must be an integer`);
    if (e.cat !== undefined && typeof e.cat !== 'string') problems.push(`${at}: cat must be a string`);
    if (e.args !== undefined && (typeof e.args !== 'object' || e.args === null || Array.isArray(e.args))) problems.push(`${at}: args must be an object`);
    const allowed = new Set([...COMMON, ...(EXTRA[e.ph] ?? [])]);
    for (const k of Object.keys(e)) if (!allowed.has(k)) problems.push(`${at}: field "${k}" is not defined for phase ${e.ph}`);
    const track = `${String(e.pid)}/${String(e.tid)}`;
    const ts = e.ts as number;
    switch (e.ph) {
      case 'B':
      case 'E': {
        const before = lastTs.get(track);
        if (before !== undefined && ts < before) problems.push(`${at}: time goes back on track ${track} (${ts} after ${before})`);
        lastTs.set(track, ts);
        let stack = stacks.get(track);
        if (!stack) stacks.set(track, (stack = []));
        if (e.ph === 'B') stack.push({ name: String(e.name), ts });
        else {
          const open = stack.pop();
          if (!open) problems.push(`${at}: E with no open B on track ${track}`);
          else {
            if (open.name !== e.name) problems.push(`${at}: E "${String(e.name)}" closes B "${open.name}" on track ${track}`);
            if (ts < open.ts) problems.push(`${at}: E before its B on track ${track}`);
          }
        }
        break;
      }
      case 'X':
        if (typeof e.dur !== 'number' || e.dur < 0) problems.push(`${at}: X needs a duration of 0 or more`);
        break;
      case 'i':
      case 'I':
        if (e.s !== undefined && e.s !== 'g' && e.s !== 'p' && e.s !== 't') problems.push(`${at}: instant scope must be g, p or t`);
        break;
      case 'M': {
        const key = METADATA[String(e.name)];
        const args = e.args as Record<string, unknown> | undefined;
        if (!key) problems.push(`${at}: unknown metadata event "${String(e.name)}"`);
        else if (!args || args[key] === undefined) problems.push(`${at}: ${String(e.name)} needs args.${key}`);
        else if (key === 'name' && typeof args.name !== 'string') problems.push(`${at}: ${String(e.name)} args.name must be a string`);
        else if (key === 'sort_index' && !Number.isInteger(args.sort_index)) problems.push(`${at}: ${String(e.name)} args.sort_index must be an integer`);
        break;
      }
      case 'C':
        for (const [k, v] of Object.entries((e.args as Record<string, unknown>) ?? {})) if (typeof v !== 'number') problems.push(`${at}: counter ${k} must be a number`);
        break;
    }
  });
  for (const [track, stack] of stacks) for (const open of stack) problems.push(`B "${open.name}" at ${open.ts} on track ${track} is never closed`);
  return problems;
}
