// The trace event kinds (`ev` values) the engine writes, each with a one-line meaning.
// An oracle's `-- kinds:` setting is checked against this list so that a typo cannot
// silently turn an expectation into "nothing happens". docs/trace.md describes each.

export const TRACE_KINDS: Readonly<Record<string, string>> = {
  print: 'a line printed by print ()',
  loop: 'a loop slot reached zero and fires',
  event: 'an event delivered to an object handler',
  ignored: 'an event sent to an object with no handler for it',
  set: 'the world entered a set (gotoset)',
  walk: 'an actor started a walk',
  endturn: 'a walking actor finished turning toward its target',
  leg: 'a walk on a path reached one of its stars',
  endwalk: 'an actor arrived at the end of its walk',
  stopwalk: 'a walk was stopped by stopwalk ()',
  sound: 'a sound started (slot, volume, pan, length)',
  soundend: 'a sound ended or was cut off',
  fade: 'a screen ramp started (screentoblack, blacktoscreen, visualeffect)',
  clock: 'locktimer, unlocktimer, savetimer or restoretimer acted',
  turn: 'a camera turn started (currentscene)',
  view: 'a camera turn ended on its view',
  click: 'a click arrived from the host',
  mouse: 'the mouse button went down or up',
  key: 'a key went down or up, from the host',
  assign: 'the host set a variable',
  send: 'the host sent an event',
  request: 'a waiting host builtin was called: its request number and arguments',
  answer: "the host's answer to a request arrived (auto: void given where no host answers)",
  warning: 'a script warning (the world goes on)',
  error: 'a script error (its thread stops)',
  dropped: 'the heartbeat dropped steps it could not catch up',
};

export function isTraceKind(kind: string): boolean {
  return Object.hasOwn(TRACE_KINDS, kind);
}
