// Text that came from a script or a command line, made fit for a terminal: control
// characters (and so escape sequences) show as visible marks instead of acting on the
// terminal, and a name of megabytes is cut to its start and its length.

// C0 controls but tab and newline, DEL, and the C1 controls
const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

/** Each control character becomes one visible mark (␛ for ESC), so columns stay where they were. */
export function visible(text: string): string {
  return text.replace(CONTROLS, (ch) => {
    const c = ch.charCodeAt(0);
    if (c < 0x20) return String.fromCharCode(0x2400 + c);
    return c === 0x7f ? '\u2421' : '\ufffd';
  });
}

/** Longest quoted name shown whole in a message. */
export const MAX_QUOTED = 120;
/** Longest message shown whole. */
export const MAX_MESSAGE = 2000;

function count(text: string): string {
  return `${text.length.toLocaleString('en-US')} characters`;
}

/** Every quoted part longer than MAX_QUOTED, cut (a scan, not a regular expression: names may be megabytes long). */
function cutQuoted(message: string): string {
  const parts: string[] = [];
  let at = 0;
  for (;;) {
    const open = message.indexOf('"', at);
    if (open < 0) break;
    const close = message.indexOf('"', open + 1);
    if (close < 0) break;
    const name = message.slice(open + 1, close);
    parts.push(message.slice(at, open + 1));
    parts.push(name.length > MAX_QUOTED && !name.includes('\n') ? `${name.slice(0, MAX_QUOTED / 2)}…" (${count(name)})` : `${name}"`);
    at = close + 1;
  }
  parts.push(message.slice(at));
  return parts.join('');
}

/** A message with every long quoted name cut, and the whole cut if it is still too long; control characters made visible. */
export function shownMessage(message: string): string {
  let out = cutQuoted(message);
  if (out.length > MAX_MESSAGE) out = `${out.slice(0, MAX_MESSAGE)}… (the message is ${count(out)})`;
  return visible(out);
}
