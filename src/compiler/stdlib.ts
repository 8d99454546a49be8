// Generated from stdlib/*.pw by tools/stdlib.mjs (npm run stdlib): edit those files, not this one.

/** The boot library, loaded before every world's own scripts. */
export const STDLIB: readonly { file: string; source: string }[] = [
  { file: "stdlib/boot.pw", source: "-- The boot library: loaded before every world's own scripts.\n\nglobal pw_calls, pw_seconds\n\non startup\n  pw_calls = 0\n  pw_seconds = 0\nend\n\n-- The engine calls calctime once per heartbeat pass (20 per second) whenever no\n-- thread is mid-flight. One game second is 20 calls: calls, not milliseconds, so a\n-- busy world's watch runs slow — the way the original's did.\non calctime\n  pw_calls = pw_calls + 1\n  if pw_calls >= 20 then\n    pw_calls = 0\n    pw_seconds = pw_seconds + 1\n  endif\nend\n\n-- Whole game seconds counted by calctime so far.\non pocketwatch\n  return pw_seconds\nend\n" },
];
