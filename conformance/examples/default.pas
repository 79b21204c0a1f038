# The default `pas simulate` script: the worked example on the bundled example plugins.
# weather sleeps behind its brief; the model activates it for 3 runs, so the next three
# runs show it with rounds_left 3, 2, 1 (the last with the "extend now" hint), then it
# sleeps again.
run
activate weather 3
run
run
run
run
