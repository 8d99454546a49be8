// Oracles for the `pw check` benchmark: small, different worlds — a set whose loop
// re-arms itself, a cricket, an actor walking to a star, a ticking sound, a countdown of
// delays, and for some clicks — each run for two minutes of game time.

/** The text of generated oracle number k, without its expectation (recorded by pw check --update). */
export function oracleText(k) {
  const period = 10 + (k % 37);
  const rounds = 10 + (k % 15);
  const far = 40 + (k % 23) * 5;
  const beats = 20 + (k % 31);
  const click = k % 3 === 0 ? `-- click: ${1000 + (k % 17) * 250} prop bell\n-- click: ${30000 + (k % 29) * 500} prop bell\n` : '';
  return `-- oracle: generated world ${k}: a loop of ${period} steps re-armed ${rounds} times, a cricket, a walk, a sound, ${beats} beats
-- until: 2m
-- seed: ${k + 1}
${click}set room
  property n = 0
  on openset
    defsound ("tick", ${200 + (k % 7) * 100})
    defsound ("drip", 120)
    cricket ("drip", "drip", ${10 + (k % 30)}, 20, 200, ${15 + (k % 10)}, 10)
    makeloop ("scene", "tick", ${period})
    walktostar ("walker", "far")
  end
  on tick
    n = n + 1
    playsound ("tick")
    print ("tick " .. n .. " at " .. gametime () .. ", roll " .. random (100))
    if n < ${rounds} then
      makeloop ("scene", "tick", ${period})
    endif
  end
endset

actor walker
  on endwalk
    print ("the walker reached " .. actorstar (self) .. " at " .. gametime ())
  end
endactor

prop bell
  on click
    print ("the bell rings at " .. gametime ())
  end
endprop

on startup
  defstar ("far", ${far}, 0, ${k % 13})
  placeactor ("walker", 0, 0, 0)
  actorspeed ("walker", ${2 + (k % 4)})
  gotoset ("room")
  for i = 1 to ${beats}
    delay (${20 + (k % 9) * 10})
    print ("beat " .. i)
  endfor
end
`;
}
