-- A coroutine body that yields back to the host forever; `count` counts the resumes.
count = 0

function spinner()
  while true do
    coroutine.yield()
    count = count + 1
  end
end
