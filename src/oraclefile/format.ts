// The oracle file format: one text file that is at once a script and its expected
// trace.
//
//   -- oracle: a 45-step loop fires at 2250 ms      header: "-- key: value" settings
//   -- until: 10s                                    (ordinary script comments, so the
//   -- click: 1025 prop faucet                        part above "== expect" is a .pw file)
//   -- answer: 1200 1 "yes"                          (the host's answer to request 1)
//   set engine … endset                              inline script (optional)
//   == expect
//   {"t":2250,"ev":"loop",…}                         expected trace, JSON Lines
//
// The header is the block of "--" lines at the very top, up to the first line that is
// not a comment. Everything above the "== expect" line is kept byte for byte when the
// expectations are rewritten, so only the trace part of a file ever changes by itself.
import { parseDuration, UNITS_PER_MS } from '../time/units.ts';
import { traceLine, type TraceEvent } from '../trace/events.ts';
import type { TimedInput } from '../hosts/headless.ts';
import { closest } from '../errors/suggest.ts';
import { TRACE_KINDS, isTraceKind } from './kinds.ts';
import { hostInputLine, parseHostInput } from './hostlines.ts';
import { checkHostValue, HostValueError, type HostValue } from '../world/hostdata.ts';
import { MAX_STRING } from '../vm/value.ts';

export const SEPARATOR = '== expect';
export const ORACLE_EXTENSION = '.oracle';

export interface OracleSettings {
  /** What the oracle checks, in a sentence (`-- oracle:`). */
  about: string;
  /** Game-time limit as written, e.g. "10s": game time, even while a save window holds the clock. */
  until: string;
  /** Wall-time limit as written; unset, twice `until`. */
  untilWall?: string;
  fps: number;
  seed: number;
  loopGuard: number;
  keepGoing: boolean;
  /** Script files or folders to load before the inline script, relative to the oracle file. */
  loads: string[];
  /** Timed input in file order; `at` is game time in ms. */
  input: TimedInput[];
  /** Compare only these event kinds; null compares every event. */
  kinds: string[] | null;
}

/** The same defaults as `pw run`, so an oracle with no settings replays `pw run FILE --trace`. */
export const DEFAULT_SETTINGS: Readonly<OracleSettings> = Object.freeze({
  about: '',
  until: '60s',
  fps: 60,
  seed: 1,
  loopGuard: 100_000,
  keepGoing: false,
  loads: [],
  input: [],
  kinds: null,
});

export interface ExpectedLine {
  /** 1-based line number in the oracle file. */
  line: number;
  event: TraceEvent;
}

export interface Oracle {
  settings: OracleSettings;
  /** Everything above the "== expect" line, verbatim: the header and the inline script. */
  script: string;
  /** Whether the script part holds anything besides comments and blank lines. */
  hasScript: boolean;
  hasSeparator: boolean;
  /** The file text up to and including the "== expect" line (the whole text if there is none). */
  prefix: string;
  expected: ExpectedLine[];
  /** The file's line ending, reused when the expectations are rewritten. */
  newline: string;
}

export class OracleFormatError extends Error {
  constructor(
    readonly reason: string,
    readonly line: number,
  ) {
    super(line > 0 ? `line ${line}: ${reason}` : reason);
  }
}

const KEYS = ['oracle', 'until', 'until-wall', 'fps', 'seed', 'loop-guard', 'keep-going', 'load', 'click', 'mouse', 'key', 'set', 'send', 'answer', 'kinds'] as const;
type Key = (typeof KEYS)[number];
const REPEATABLE: ReadonlySet<Key> = new Set<Key>(['load', 'click', 'mouse', 'key', 'set', 'send', 'answer']);
const CLICK_KINDS = ['prop', 'actor', 'flat', 'set'];

// `-- word: value`; a word with spaces before its colon is prose, not a setting
const SETTING_RE = /^\s*--\s*([A-Za-z][\w-]*)\s*:\s?(.*?)\s*$/;
const SEPARATOR_RE = /^==\s*expect\s*$/i;

interface Line {
  text: string; // without its line ending
  start: number;
  end: number; // offset after the line ending
}

function splitLines(text: string): Line[] {
  const lines: Line[] = [];
  let pos = 0;
  while (pos < text.length) {
    const nl = text.indexOf('\n', pos);
    const stop = nl < 0 ? text.length : nl;
    const end = nl < 0 ? text.length : nl + 1;
    let body = text.slice(pos, stop);
    if (body.endsWith('\r')) body = body.slice(0, -1);
    lines.push({ text: body, start: pos, end });
    pos = end;
  }
  return lines;
}

function isComment(line: string): boolean {
  return line.trimStart().startsWith('--');
}

/** A time of timed input: bare numbers are ms; "1.5s", "250ms" and friends also work. */
export function parseInputTime(text: string, line: number): number {
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text);
  try {
    return parseDuration(text) / UNITS_PER_MS;
  } catch {
    throw new OracleFormatError(`"${text}" is not a time: write ms (1025) or a duration (1.025s)`, line);
  }
}

function wholeNumber(key: string, value: string, line: number): number {
  if (!/^\d+$/.test(value)) throw new OracleFormatError(`${key} needs a whole number of 0 or more, not "${value}"`, line);
  return Number(value);
}

function yesNo(key: string, value: string, line: number): boolean {
  const v = value.toLowerCase();
  if (['yes', 'true', 'on'].includes(v)) return true;
  if (['no', 'false', 'off'].includes(v)) return false;
  throw new OracleFormatError(`${key} needs yes or no, not "${value}"`, line);
}

/** A `-- key:`, `-- set:` or `-- send:` line: its time, then what hostlines.ts reads. */
function hostInputSetting(key: 'key' | 'set' | 'send', value: string, line: number): TimedInput {
  const m = /^(\S+)\s*(.*)$/.exec(value);
  const spec = parseHostInput(key, m ? m[2] : '');
  if (typeof spec === 'string') throw new OracleFormatError(spec, line);
  return { at: parseInputTime(m![1], line), ...spec };
}

function applySetting(s: OracleSettings, key: Key, value: string, line: number): void {
  switch (key) {
    case 'oracle':
      s.about = value;
      return;
    case 'until':
    case 'until-wall':
      try {
        parseDuration(value);
      } catch (err) {
        throw new OracleFormatError(`${key}: ${(err as Error).message}`, line);
      }
      if (key === 'until') s.until = value;
      else s.untilWall = value;
      return;
    case 'fps': {
      const n = Number(value);
      if (!/^\d+(\.\d+)?$/.test(value) || !(n >= 1 && n <= 10000)) throw new OracleFormatError(`fps needs a number from 1 to 10000, not "${value}"`, line);
      s.fps = n;
      return;
    }
    case 'seed':
      s.seed = wholeNumber(key, value, line);
      return;
    case 'loop-guard':
      s.loopGuard = wholeNumber(key, value, line);
      return;
    case 'keep-going':
      s.keepGoing = yesNo(key, value, line);
      return;
    case 'load':
      if (value === '') throw new OracleFormatError('load needs a script file or folder, relative to the oracle file', line);
      s.loads.push(value);
      return;
    case 'click': {
      const parts = value.split(/\s+/);
      if (parts.length !== 3 || !CLICK_KINDS.includes(parts[1].toLowerCase())) {
        throw new OracleFormatError(`click needs a time, an object kind (${CLICK_KINDS.join(', ')}) and a name, as in "-- click: 1025 prop faucet", not "${value}"`, line);
      }
      s.input.push({ at: parseInputTime(parts[0], line), click: `${parts[1].toLowerCase()} ${parts[2]}` });
      return;
    }
    case 'mouse': {
      const parts = value.split(/\s+/);
      const state = parts[1]?.toLowerCase();
      if (parts.length !== 2 || (state !== 'down' && state !== 'up')) throw new OracleFormatError(`mouse needs a time and down or up, as in "-- mouse: 2000 down", not "${value}"`, line);
      s.input.push({ at: parseInputTime(parts[0], line), mouse: state });
      return;
    }
    case 'key':
    case 'set':
    case 'send':
      s.input.push(hostInputSetting(key, value, line));
      return;
    case 'answer': {
      const a = parseAnswer(value, line);
      if (s.input.some((i) => i.answer?.request === a.answer!.request))
        throw new OracleFormatError(`request ${a.answer!.request} is answered by an earlier line already: a request gets one answer`, line);
      s.input.push(a);
      return;
    }
    case 'kinds': {
      const kinds = value
        .split(/[\s,]+/)
        .filter((k) => k !== '')
        .map((k) => k.toLowerCase());
      if (kinds.length === 0) throw new OracleFormatError('kinds needs at least one event kind, as in "-- kinds: print loop"', line);
      for (const k of kinds) {
        if (!isTraceKind(k)) {
          const guess = closest(k, Object.keys(TRACE_KINDS));
          throw new OracleFormatError(`"${k}" is not a trace event kind${guess ? ` — did you mean "${guess}"?` : ` (kinds: ${Object.keys(TRACE_KINDS).join(' ')})`}`, line);
        }
      }
      s.kinds = [...new Set(kinds)];
      return;
    }
  }
}

/** `-- answer: T REQUEST JSON`: the host's answer to a waiting host builtin's request, at game time T. */
function parseAnswer(value: string, line: number): TimedInput {
  const m = /^(\S+)\s+(\S+)\s*(.*)$/.exec(value);
  const usage = 'as in "-- answer: 1200 1 "yes"" (a time, the request number, the answer as JSON)';
  if (!m || m[3] === '') throw new OracleFormatError(`answer needs a time, a request number and a value, ${usage}, not "${value}"`, line);
  const at = parseInputTime(m[1], line);
  if (!/^[1-9]\d*$/.test(m[2]) || !Number.isSafeInteger(Number(m[2]))) throw new OracleFormatError(`answer needs a request number (1, 2, …), not "${m[2]}", ${usage}`, line);
  let answer: unknown;
  try {
    answer = JSON.parse(m[3]);
  } catch {
    throw new OracleFormatError(`the answer ${m[3]} is not JSON, ${usage}`, line);
  }
  try {
    checkHostValue(answer, 'the answer', { maxString: MAX_STRING, maxList: 1_000_000 });
  } catch (err) {
    if (err instanceof HostValueError)
      throw new OracleFormatError(
        err.message.replace(/which a script cannot hold.*$/, 'which a script cannot hold: answer with a number, a string, true or false, a list as [..], or null for void'),
        line,
      );
    throw err;
  }
  return { at, answer: { request: Number(m[2]), value: answer as HostValue } };
}

function freshSettings(): OracleSettings {
  return { ...DEFAULT_SETTINGS, loads: [], input: [], kinds: null };
}

/**
 * Parses an oracle file; throws OracleFormatError naming the line for anything malformed.
 * With `ignoreExpected` the old expectation is not read at all (it is about to be rewritten).
 */
export function parseOracle(text: string, opts: { ignoreExpected?: boolean } = {}): Oracle {
  const newline = text.includes('\r\n') ? '\r\n' : '\n';
  const lines = splitLines(text);
  const sep = lines.findIndex((l) => SEPARATOR_RE.test(l.text));
  const scriptEnd = sep < 0 ? lines.length : sep;

  // no script line can start with "==", so a near miss is a mistyped separator
  for (let i = 0; i < scriptEnd; i++) {
    if (lines[i].text.startsWith('==')) throw new OracleFormatError(`"${lines[i].text}" is not the separator: write "${SEPARATOR}"`, i + 1);
  }

  const settings = freshSettings();
  const seenAt = new Map<Key, number>();
  for (let i = 0; i < scriptEnd && isComment(lines[i].text); i++) {
    const m = SETTING_RE.exec(lines[i].text);
    if (!m) continue;
    const key = m[1].toLowerCase();
    if (!(KEYS as readonly string[]).includes(key)) {
      const guess = closest(key, KEYS);
      throw new OracleFormatError(
        `"${m[1]}" is not an oracle setting${guess ? ` — did you mean "${guess}"?` : ''} (settings: ${KEYS.join(', ')}; ` + 'a header comment that is not a setting must not start with "word:")',
        i + 1,
      );
    }
    const k = key as Key;
    if (!REPEATABLE.has(k) && seenAt.has(k)) throw new OracleFormatError(`${k} is already set on line ${seenAt.get(k)}`, i + 1);
    seenAt.set(k, i + 1);
    applySetting(settings, k, m[2], i + 1);
  }

  // a setting below the header would be silently ignored: say where it belongs
  for (let i = 0; i < scriptEnd; i++) {
    if (!isComment(lines[i].text)) {
      for (let j = i + 1; j < scriptEnd; j++) {
        const m = SETTING_RE.exec(lines[j].text);
        if (m && (KEYS as readonly string[]).includes(m[1].toLowerCase())) {
          throw new OracleFormatError(`"${m[1]}:" is a setting, and settings belong in the header: the "--" lines at the very top of the file`, j + 1);
        }
      }
      break;
    }
  }

  const scriptText = text.slice(0, scriptEnd < lines.length ? lines[scriptEnd].start : text.length);
  const hasScript = lines.slice(0, scriptEnd).some((l) => l.text.trim() !== '' && !isComment(l.text));

  const expected: ExpectedLine[] = [];
  if (sep >= 0 && !opts.ignoreExpected) {
    for (let i = sep + 1; i < lines.length; i++) {
      const body = lines[i].text.trim();
      if (body === '') continue;
      if (SEPARATOR_RE.test(body)) throw new OracleFormatError(`a second "${SEPARATOR}" line (the first is line ${sep + 1})`, i + 1);
      let ev: unknown;
      try {
        ev = JSON.parse(body);
      } catch {
        throw new OracleFormatError('expected a trace event: one JSON object a line, as in {"t":0,"ev":"print","text":"hi"}', i + 1);
      }
      if (typeof ev !== 'object' || ev === null || Array.isArray(ev) || typeof (ev as TraceEvent).t !== 'number' || typeof (ev as TraceEvent).ev !== 'string') {
        throw new OracleFormatError('a trace event needs a number "t" (game time in ms) and a string "ev" (its kind)', i + 1);
      }
      const kind = (ev as TraceEvent).ev;
      if (settings.kinds && !settings.kinds.includes(kind)) {
        throw new OracleFormatError(`a "${kind}" event, but the kinds setting compares only ${settings.kinds.join(' ')}`, i + 1);
      }
      expected.push({ line: i + 1, event: ev as TraceEvent });
    }
  }

  return {
    settings,
    script: scriptText,
    hasScript,
    hasSeparator: sep >= 0,
    prefix: sep >= 0 ? text.slice(0, lines[sep].end) : text,
    expected,
    newline,
  };
}

/**
 * The oracle's text with its expectations replaced by `events`: everything above the
 * "== expect" line stays byte for byte; an oracle without that line gets one.
 */
export function withExpected(o: Oracle, events: readonly TraceEvent[]): string {
  const nl = o.newline;
  let head = o.prefix;
  if (head !== '' && !head.endsWith('\n')) head += nl;
  if (!o.hasSeparator) head += SEPARATOR + nl;
  return head + events.map((ev) => traceLine(ev) + nl).join('');
}

/** Writes a new oracle from its parts: the header for every setting, then the script, then the trace. */
export function writeOracle(settings: Partial<OracleSettings>, script: string, events: readonly TraceEvent[]): string {
  const s = { ...freshSettings(), ...settings };
  const head: string[] = [];
  if (s.about !== '') head.push(`-- oracle: ${s.about}`);
  if (s.until !== DEFAULT_SETTINGS.until) head.push(`-- until: ${s.until}`);
  if (s.fps !== DEFAULT_SETTINGS.fps) head.push(`-- fps: ${s.fps}`);
  if (s.seed !== DEFAULT_SETTINGS.seed) head.push(`-- seed: ${s.seed}`);
  if (s.loopGuard !== DEFAULT_SETTINGS.loopGuard) head.push(`-- loop-guard: ${s.loopGuard}`);
  if (s.keepGoing) head.push('-- keep-going: yes');
  for (const l of s.loads) head.push(`-- load: ${l}`);
  for (const i of s.input) {
    if (i.click !== undefined) head.push(`-- click: ${i.at} ${i.click}`);
    if (i.mouse !== undefined) head.push(`-- mouse: ${i.at} ${i.mouse}`);
    const host = hostInputLine(i);
    if (host !== null) head.push(host);
    if (i.answer !== undefined) head.push(`-- answer: ${i.at} ${i.answer.request} ${JSON.stringify(i.answer.value)}`);
  }
  if (s.kinds) head.push(`-- kinds: ${s.kinds.join(' ')}`);
  let text = head.map((l) => l + '\n').join('');
  if (script !== '') {
    // a blank line ends the header, so the script's own comments stay script comments
    if (text !== '') text += '\n';
    text += script.endsWith('\n') ? script : script + '\n';
  }
  return withExpected({ ...parseOracle(text), newline: '\n' }, events);
}
