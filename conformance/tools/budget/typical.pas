# The typical mix of `pas budget`: 20 runs in 2 conversations, interleaved, where the model
# activates one or two plugins now and then (6 activation calls, 1 extension) and most runs
# need none. A call written after `run` happens inside that run, so its reply (for
# activate_plugin, the plugin's full block) is counted as part of that run's context.
# Written for the bundled example plugins; on another plugin set the same names may be
# unknown (the reply is then a short not_found sentence): pass your own with --script.
conversation family
run                          # 1  small talk
run team                     # 2  small talk
run                          # 3  "what's the weather tomorrow?"
activate weather
run                          # 4  weather is active: rounds_left 3
run team                     # 5  "find the release notes of ..."
activate google_search 2 in team
run                          # 6  weather: rounds_left 2
run team                     # 7  google_search: rounds_left 2
run                          # 8  weather: rounds_left 1, the last-run hint
run team                     # 9  google_search: rounds_left 1; "note that down"
activate note in team
run                          # 10 "draw us a cat" and "roll for who pays"
activate draw 2
activate dice 1
run team                     # 11 note: rounds_left 3
run                          # 12 draw and dice active
run team                     # 13 note: rounds_left 2, still needed
extend note 2 in team
run                          # 14 draw: rounds_left 1
run team                     # 15 note: rounds_left 3 again
run                          # 16 small talk: everything sleeps again
run team                     # 17 note: rounds_left 2
run                          # 18 "what's in this picture?"
activate view_image 1
run team                     # 19 note: last run
run                          # 20 view_image active for one run
