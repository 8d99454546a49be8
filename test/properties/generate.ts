// A generator of valid timing scripts for property tests: a set whose loops re-arm
// with seeded random periods, threads that sleep and print the game time, walks and
// crickets. Nothing frame-bound (forceupdate, frame (), polls), so every logical
// result must be identical at any display rate. Some waits happen inside called
// handlers (a script call, or sendtoscene running a set handler in the thread), so
// threads are also saved and resumed with callers' frames below the waiting one.
import fc from 'fast-check';

const stmt = fc.oneof(
  fc.integer({ min: 0, max: 90 }).map((n) => `delay (${n})`),
  fc.constant('print ("t=" .. gametime () .. " tick=" .. ticks ())'),
  fc.integer({ min: 1, max: 9 }).map((n) => `print (random (${n}))`),
  fc.integer({ min: 1, max: 3 }).map((k) => `makeloop ("scene", "e${k}", ${1 + ((k * 7) % 40)})`),
  fc.integer({ min: 2, max: 30 }).map((n) => `screentoblack ("black", ${n})`),
  fc.constant('print (pocketwatch ())'),
  fc.constant('print (actorpos ("walker"))'),
  fc.constant('print (actorstar ("walker") .. " " .. iswalk ("walker"))'),
  fc.integer({ min: 0, max: 2 }).map((s) => `walktostar ("walker", "s${s}")`),
  fc.constant('print (currentsound (2))'),
  fc.integer({ min: 0, max: 40 }).map((n) => `nap (${n})`),
  fc.integer({ min: 0, max: 40 }).map((n) => `print ("twice " .. twice (${n}))`),
  fc.integer({ min: 0, max: 40 }).map((n) => `print ("sent " .. sendtoscene ("e4", ${n}))`),
);

const body = fc.array(stmt, { minLength: 1, maxLength: 8 }).map((ss) => ss.map((s) => '    ' + s).join('\n'));

export const timingScript = fc
  .record({
    startup: body,
    e1: body,
    e2: body,
    e3: body,
    endwalk: body,
    repeats: fc.integer({ min: 1, max: 4 }),
    base: fc.integer({ min: 0, max: 30 }),
    jitter: fc.integer({ min: -1, max: 20 }),
  })
  .map(
    (g) => `
actor walker
  on endwalk
${g.endwalk}
  end
endactor

set room
  on openset
    cricket ("vent", "hiss", 30, 10, 100, ${g.base}, ${g.jitter})
  end
  on e1
${g.e1}
    makeloop ("scene", "e1", 13 + random (20))
  end
  on e2
${g.e2}
  end
  on e3
${g.e3}
  end
  on e4 (n)
    delay (n)
    print ("e4 after " .. n .. " at " .. gametime ())
    return twice (n) + 1
  end
endset

on nap (n)
  delay (n)
  print ("napped " .. n .. " at " .. gametime ())
end

on twice (n)
  delay (n)
  nap (n mod 7)
  return n * 2
end

on startup
  defsound ("hiss", 700)
  defstar ("s0", 0, 0, 0)
  defstar ("s1", 100, 0, 40)
  defstar ("s2", -30, 0, -80)
  gotoset ("room")
  makeloop ("scene", "e1", 20)
  for i = 1 to ${g.repeats}
${g.startup}
  endfor
end
`,
  );
