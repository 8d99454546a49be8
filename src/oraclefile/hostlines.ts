// The host's keys, variables and events as oracle header lines:
//   -- key: 250 down space                 a key pressed (or up) at 250 ms
//   -- set: 1s gold 5                      a global set to a JSON value
//   -- set: 1s actor keeper mood "cross"   a property of an object
//   -- send: 2s actor guard alert "vlad" 3 an event with JSON arguments
// Values are JSON: strings quoted, lists as arrays, void as null.
import type { HostInputSpec } from '../engine/hostinput.ts';

const OBJECT_KINDS = ['set', 'actor', 'prop', 'flat'];

/** What follows the time on a `-- key:`, `-- set:` or `-- send:` line, or a sentence saying what is wrong. */
export function parseHostInput(key: 'key' | 'set' | 'send', rest: string): HostInputSpec | string {
  switch (key) {
    case 'key': {
      const m = /^(down|up)\s+(\S+)$/i.exec(rest);
      if (!m) return `key needs a time, down or up, and the key's name, as in "-- key: 250 down space", not "${rest}"`;
      return { key: { down: m[1].toLowerCase() === 'down', name: m[2].toLowerCase() } };
    }
    case 'set': {
      const obj = /^(set|actor|prop|flat)\s+(\S+)\s+(\S+)\s+(\S.*)$/i.exec(rest);
      const glob = /^(\S+)\s+(\S.*)$/.exec(rest);
      const parts = obj
        ? { object: `${obj[1].toLowerCase()} ${obj[2].toLowerCase()}`, variable: obj[3].toLowerCase(), json: obj[4] }
        : glob
          ? { object: '', variable: glob[1].toLowerCase(), json: glob[2] }
          : null;
      if (!parts) return `set needs a time, [KIND NAME] VARIABLE and a JSON value, as in "-- set: 1s gold 5" or "-- set: 1s actor keeper mood "cross"", not "${rest}"`;
      const values = jsonValues(parts.json);
      if (typeof values === 'string') return `set: ${values}`;
      if (values.length !== 1) return `set takes one JSON value, not ${values.length} ("${parts.json}"): quote a string, "like this"`;
      return { set: { object: parts.object, variable: parts.variable, value: values[0] } };
    }
    case 'send': {
      const m = /^(\S+)\s+(\S+)\s+(\S+)(?:\s+(\S.*))?$/.exec(rest);
      if (!m || !OBJECT_KINDS.includes(m[1].toLowerCase())) {
        return `send needs a time, an object kind (${OBJECT_KINDS.join(', ')}), a name, an event and its JSON arguments, as in "-- send: 2s actor guard alert "vlad" 3", not "${rest}"`;
      }
      const args = m[4] === undefined ? [] : jsonValues(m[4]);
      if (typeof args === 'string') return `send: ${args}`;
      return { send: { object: `${m[1].toLowerCase()} ${m[2].toLowerCase()}`, event: m[3].toLowerCase(), args } };
    }
  }
}

/** The header line for timed host input, or null for a click or the mouse. */
export function hostInputLine(i: HostInputSpec & { at: number }): string | null {
  if (i.key) return `-- key: ${i.at} ${i.key.down ? 'down' : 'up'} ${i.key.name}`;
  if (i.set) return `-- set: ${i.at} ${i.set.object === '' ? '' : i.set.object + ' '}${i.set.variable} ${JSON.stringify(i.set.value)}`;
  if (i.send) return `-- send: ${i.at} ${i.send.object} ${i.send.event}${i.send.args.map((a) => ' ' + JSON.stringify(a)).join('')}`;
  return null;
}

/** JSON values one after another, separated by white space; a sentence on the first that is not JSON. */
export function jsonValues(text: string): unknown[] | string {
  const out: unknown[] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    while (i < n && /\s/.test(text[i])) i++;
    if (i >= n) break;
    const start = i;
    if (text[i] === '"') {
      i++;
      while (i < n && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
      i++;
    } else if (text[i] === '[') {
      let depth = 0;
      for (; i < n; i++) {
        const c = text[i];
        if (c === '"') {
          i++;
          while (i < n && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
        } else if (c === '[') depth++;
        else if (c === ']' && --depth === 0) {
          i++;
          break;
        }
      }
    } else {
      while (i < n && !/\s/.test(text[i])) i++;
    }
    const piece = text.slice(start, Math.min(i, n));
    try {
      out.push(JSON.parse(piece));
    } catch {
      return `${JSON.stringify(piece)} is not a JSON value (write strings in double quotes, lists as [1, "a"], void as null)`;
    }
  }
  return out;
}
