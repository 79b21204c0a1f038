# A tour of the activation rules on the bundled example plugins.
# Run it from the checkout:  pas simulate --script examples/session.pas
# (add --text to see the reference prompt and reply text, --format json for machines)

run                         # weather, draw, note ... sleep behind their briefs
activate weather            # default 3 runs; the reply ends the agent step
run                         # weather active, rounds_left 3
run                         # rounds_left 2
extend weather 2            # 1 stored + 2 = 3 more runs; the step goes on
run                         # rounds_left 3
activate weather            # already_active: use extend instead

# Outcomes of every kind
activate basic              # always_awake: protected plugins never sleep
activate github             # always_awake: the host config forbids it to sleep
activate nosuch             # not_found
activate draw 2.5           # invalid_argument: rounds must be an integer
activate draw 99            # activated, clamped to 20
extend note 0 in family     # extended: 0 is clamped to 1; a deferred activation in another conversation

# Conversations never touch each other
run family                  # note active with rounds_left 1 (the hint), only here
run                         # main: weather and draw active, note still sleeping

# Admin actions
strategy timer allow_sleep  # timer has a brief, so the admin can let it sleep
strategy weather forbid_sleep   # weather becomes always awake; its counter is dropped
strategy dice sometimes     # rejected: not a strategy
run
disable draw                # a disabled plugin is not shown; calls answer not_found
activate draw
enable draw
scheduler off               # everything awake, counters frozen
run
scheduler on
restart                     # stored counters survive a restart
run

# Adapters: minecraft_utils only exists for conversations on the minecraft adapter
adapter onebot_v11
run
adapter minecraft
activate minecraft_utils 1 in server
run server
