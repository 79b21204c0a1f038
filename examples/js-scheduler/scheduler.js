'use strict';
/**
 * A PAS activation scheduler (spec 1.0) in plain JavaScript: pure functions, no I/O.
 *
 * Everything here follows the specification, not any other implementation:
 *   - spec/requirements.yaml  (the rules, by ID: ACT-ELIG-*, ACT-STATE-*, ACT-COUNT-*, ...)
 *   - spec/semantics.yaml     (constants and decision tables)
 *   - docs/protocol.md        (the shape of the observations returned below)
 *
 * The one entry point that matters is
 *
 *     applyEvent(catalogue, state, event) -> { state, observation }
 *
 * It never mutates its arguments and never reads a clock, so any sequence of events can be
 * replayed. `state` is everything a host has to persist (host settings and the stored counters
 * of every conversation); `persist`/`restore` turn it into JSON and back. Observations are
 * returned already in the wire shape of protocol v1 (snake_case keys), so the server only
 * wraps them in a response.
 *
 * Porting to TypeScript: the JSDoc typedefs below are the types you want.
 */

// ---------------------------------------------------------------- constants (spec/semantics.yaml)

const DEFAULT_ACTIVE_ROUNDS = 3; // ACT-ARG-1: rounds omitted or null
const MIN_ACTIVE_ROUNDS = 1; // ACT-ARG-2: smaller integers are clamped up
const MAX_ACTIVE_ROUNDS = 20; // ACT-ARG-3, ACT-EXTEND-6, ACT-COUNT-8
const SCHEDULER_MODULE = 'plugin_activation'; // disabling it switches the scheduler off
const STRATEGIES = Object.freeze(['auto', 'allow_sleep', 'forbid_sleep']);

/** Thrown for input the scheduler cannot work with (a malformed manifest, a duplicate plugin). */
class BadInput extends Error {}

/**
 * @typedef {{name: string, kind: string, description: string}} Method
 * @typedef {{name: string, moduleName: string, builtin: boolean, allowSleep: boolean|null,
 *            brief: string, supportAdapter: string[], injectsPrompt: boolean, methods: Method[]}} Plugin
 * @typedef {{enabled: string[], disabled: Set<string>, strategies: Map<string, string>,
 *            schedulerEnabled: boolean}} Host
 * @typedef {{host: Host, counters: Map<string, Map<string, number>>}} State
 * @typedef {Map<string, Plugin>} Catalogue   module_name -> plugin, in installation order
 */

// ---------------------------------------------------------------- reading manifests and host configs

/**
 * Trim a brief (ACT-ELIG-6: a brief that is empty after trimming whitespace is no brief).
 * "Whitespace" is taken as the Unicode White_Space property, which covers tabs, newlines, CR,
 * NBSP and the ideographic space U+3000 that CJK briefs may carry.
 */
function trimBrief(text) {
  return text.replace(/^\p{White_Space}+|\p{White_Space}+$/gu, '');
}

function field(doc, key, type, fallback) {
  const value = doc[key];
  if (value === undefined) return fallback;
  const ok = type === 'array' ? Array.isArray(value) : typeof value === type;
  if (!ok) throw new BadInput(`manifest field '${key}' must be ${type === 'array' ? 'an array' : `a ${type}`}`);
  return value;
}

/** A plugin from its manifest document; fields left out take their schema defaults. */
function readManifest(doc) {
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) throw new BadInput('a manifest must be an object');
  const allowSleep = doc.allow_sleep === undefined ? null : doc.allow_sleep; // ACT-ELIG-7: absent = null
  if (allowSleep !== null && typeof allowSleep !== 'boolean') throw new BadInput('allow_sleep must be true, false or null');
  return {
    name: field(doc, 'name', 'string', ''),
    moduleName: field(doc, 'module_name', 'string', ''),
    builtin: field(doc, 'builtin', 'boolean', false),
    allowSleep,
    brief: trimBrief(field(doc, 'sleep_brief', 'string', '')),
    supportAdapter: field(doc, 'support_adapter', 'array', []),
    injectsPrompt: field(doc, 'injects_prompt', 'boolean', false),
    methods: field(doc, 'methods', 'array', []).map((m) => ({
      name: String(m.name), kind: String(m.kind), description: m.description === undefined ? '' : String(m.description),
    })),
  };
}

/** The catalogue of installed plugins; throws BadInput when two share a module_name. */
function readCatalogue(docs) {
  const catalogue = new Map();
  for (const plugin of docs.map(readManifest)) {
    if (catalogue.has(plugin.moduleName)) throw new BadInput(`two plugins declare module_name '${plugin.moduleName}'`);
    catalogue.set(plugin.moduleName, plugin);
  }
  return catalogue;
}

/** The starting state for a host config document: its settings and no stored counters. */
function initialState(hostDoc) {
  const doc = hostDoc || {};
  const strategies = new Map();
  for (const [module, strategy] of Object.entries(doc.strategies || {})) {
    if (!STRATEGIES.includes(strategy)) throw new BadInput(`unknown strategy '${strategy}' for '${module}'`);
    if (strategy !== 'auto') strategies.set(module, strategy); // ACT-ADMIN-2: auto = no strategy
  }
  const host = {
    enabled: [...(doc.enabled || [])],
    disabled: new Set(doc.disabled || []),
    strategies,
    schedulerEnabled: doc.scheduler_enabled !== false,
  };
  return { host, counters: new Map() };
}

// ---------------------------------------------------------------- the rules

/** ACT-SCHED-1: the scheduler runs unless switched off, or its own plugin is disabled. */
function schedulerOn(host) {
  return host.schedulerEnabled && !host.disabled.has(SCHEDULER_MODULE);
}

/** ACT-STATE-5: loaded (built-in or enabled), not disabled, and offered on this adapter. */
function isAvailable(plugin, host, adapter) {
  const loaded = plugin.builtin || host.enabled.includes(plugin.moduleName);
  const onAdapter = adapter == null || plugin.supportAdapter.length === 0 || plugin.supportAdapter.includes(adapter);
  return loaded && !host.disabled.has(plugin.moduleName) && onAdapter;
}

/** Can this plugin sleep? The precedence table, first rule that applies wins (ACT-ELIG-8, ACT-ELIG-1..4). */
function isSleepEligible(plugin, host) {
  const strategy = host.strategies.get(plugin.moduleName) || 'auto';
  const hasBrief = plugin.brief !== '';
  if (plugin.moduleName === SCHEDULER_MODULE) return false; // ACT-ELIG-8: the scheduler itself never sleeps
  if (plugin.allowSleep === false) return false; // ACT-ELIG-1: protected by its author
  if (strategy === 'forbid_sleep') return false; // ACT-ELIG-2
  if (strategy === 'allow_sleep') return hasBrief; // ACT-ELIG-3: even when allow_sleep is null
  return plugin.allowSleep === true && hasBrief; // ACT-ELIG-4: auto follows the manifest
}

/** Eligible *and* scheduled: what every run and call decision starts from. */
function canSleep(plugin, host) {
  return schedulerOn(host) && isSleepEligible(plugin, host);
}

/** The view of one plugin in one state (ACT-STATE-1..4, ACT-STATE-6), in the wire shape. */
function viewOf(plugin, state, roundsLeft = null) {
  const awake = state !== 'sleeping';
  return {
    module_name: plugin.moduleName,
    state,
    rounds_left: state === 'active' ? roundsLeft : null,
    hint: state === 'active' && roundsLeft === 1, // the last visible run
    brief_shown: !awake,
    methods_shown: awake && plugin.methods.some((m) => m.description !== ''), // ACT-STATE-8: something is listed
    injection_called: awake && plugin.injectsPrompt, // never while sleeping
  };
}

/** ACT-ORDER-1: always_awake first, then active and sleeping together; each by module_name. */
function promptOrder(a, b) {
  const groupA = a.state === 'always_awake' ? 0 : 1;
  const groupB = b.state === 'always_awake' ? 0 : 1;
  if (groupA !== groupB) return groupA - groupB;
  return a.module_name < b.module_name ? -1 : a.module_name > b.module_name ? 1 : 0;
}

/** A copy of `state` where `conversation` stores `counters` (dropped when empty). */
function withCounters(state, conversation, counters) {
  const all = new Map(state.counters);
  if (counters.size > 0) all.set(conversation, counters);
  else all.delete(conversation);
  return { ...state, counters: all };
}

/** A new run starts: compute every view once, then count active plugins down (ACT-COUNT-1..5). */
function startRun(catalogue, state, event) {
  const { host } = state;
  const on = schedulerOn(host);
  const stored = state.counters.get(event.conversation) || new Map();
  const remaining = new Map();
  const views = [];
  for (const plugin of catalogue.values()) {
    if (!isAvailable(plugin, host, event.adapter)) continue;
    if (!canSleep(plugin, host)) {
      views.push(viewOf(plugin, 'always_awake'));
      continue;
    }
    const rounds = stored.get(plugin.moduleName) || 0;
    if (rounds > 0) {
      views.push(viewOf(plugin, 'active', rounds));
      if (rounds > 1) remaining.set(plugin.moduleName, rounds - 1); // removed when it reaches 0
    } else {
      views.push(viewOf(plugin, 'sleeping'));
    }
  }
  views.sort(promptOrder);
  // ACT-SCHED-2: while the scheduler is off, counters are neither read nor changed.
  // Otherwise only the counters carried in `remaining` survive: those of plugins that are no
  // longer available or eligible are dropped here (ACT-COUNT-5).
  const next = on ? withCounters(state, event.conversation, remaining) : state;
  return { state: next, observation: { plugins: views } };
}

/**
 * The `rounds` argument as the model wrote it -> a clamped integer, or null when invalid.
 * Omitted (undefined) or null -> the default (ACT-ARG-1); integers (2.0 included) are clamped
 * into 1..20 (ACT-ARG-2/3); anything else - 1.5, "3", true, [], {} - is invalid (ACT-ARG-4).
 */
function parseRounds(value) {
  if (value === undefined || value === null) return DEFAULT_ACTIVE_ROUNDS;
  if (typeof value !== 'number' || !Number.isInteger(value)) return null;
  return Math.max(MIN_ACTIVE_ROUNDS, Math.min(MAX_ACTIVE_ROUNDS, value));
}

/** `activate_plugin` (an agent method) or `extend_plugin_activation` (a behavior method). */
function call(catalogue, state, event) {
  const activate = event.cmd === 'activate';
  const reply = (outcome, rounds = null, block = null) => ({
    outcome, module_name: event.module_name, rounds, ends_step: activate, block, // ACT-ACTIVATE-5, ACT-EXTEND-4
  });
  // The checks run in the order of spec/semantics.yaml `methods`; the first that holds decides.
  const rounds = parseRounds(event.rounds);
  if (rounds === null) return { state, observation: reply('invalid_argument') };
  const plugin = catalogue.get(event.module_name);
  if (!plugin || !isAvailable(plugin, state.host, event.adapter)) return { state, observation: reply('not_found') };
  if (!canSleep(plugin, state.host)) return { state, observation: reply('always_awake') };
  const counters = state.counters.get(event.conversation) || new Map();
  const stored = counters.get(plugin.moduleName) || 0;
  if (activate && stored > 0) return { state, observation: reply('already_active', stored) };
  // Activation overwrites; extension adds and caps (ACT-ACTIVATE-4, ACT-EXTEND-3, ACT-EXTEND-6).
  const total = activate ? rounds : Math.min(stored + rounds, MAX_ACTIVE_ROUNDS);
  const next = withCounters(state, event.conversation, new Map(counters).set(plugin.moduleName, total));
  if (!activate) return { state: next, observation: reply('extended', total) };
  return { state: next, observation: reply('activated', total, viewOf(plugin, 'active', total)) };
}

const applied = () => ({ outcome: 'applied' });
const rejected = (reason) => ({ outcome: 'rejected', reason });

/** Admin actions: strategies, enable/disable, the scheduler switch (ACT-ADMIN-1..4, ACT-SCHED-*). */
function admin(catalogue, state, event) {
  const host = state.host;
  const change = (fields) => ({ state: { ...state, host: { ...host, ...fields } }, observation: applied() });
  if (event.cmd !== 'set-scheduler' && !catalogue.get(event.module_name)) {
    // ACT-ADMIN-4: a strategy, enable or disable names an installed plugin
    return { state, observation: rejected(`no installed plugin has module_name '${event.module_name}'`) };
  }
  switch (event.cmd) {
    case 'set-strategy': {
      if (!STRATEGIES.includes(event.strategy)) {
        return { state, observation: rejected(`unknown strategy ${JSON.stringify(event.strategy)}; use one of ${STRATEGIES.join(', ')}`) };
      }
      const strategies = new Map(host.strategies);
      if (event.strategy === 'auto') strategies.delete(event.module_name);
      else strategies.set(event.module_name, event.strategy);
      return change({ strategies });
    }
    case 'set-scheduler':
      return change({ schedulerEnabled: event.enabled });
    case 'enable':
    case 'disable': {
      const plugin = catalogue.get(event.module_name);
      const disabled = new Set(host.disabled);
      if (event.cmd === 'disable') return change({ disabled: disabled.add(plugin.moduleName) });
      disabled.delete(plugin.moduleName);
      const listed = plugin.builtin || host.enabled.includes(plugin.moduleName);
      return change({ disabled, enabled: listed ? host.enabled : [...host.enabled, plugin.moduleName] });
    }
    default:
      throw new BadInput(`not an admin event: ${event.cmd}`);
  }
}

// ---------------------------------------------------------------- persistence (ACT-COUNT-7)

/** The state as plain JSON: what a host writes to its database to survive a restart. */
function persist(state) {
  const { host } = state;
  return {
    host: {
      enabled: host.enabled,
      disabled: [...host.disabled].sort(),
      strategies: Object.fromEntries(host.strategies),
      scheduler_enabled: host.schedulerEnabled,
    },
    counters: [...state.counters].map(([conversation, counters]) => [conversation, [...counters]]),
  };
}

/** The state back from `persist`'s JSON. */
function restore(doc) {
  const state = initialState(doc.host);
  return { ...state, counters: new Map(doc.counters.map(([conversation, pairs]) => [conversation, new Map(pairs)])) };
}

// ---------------------------------------------------------------- the entry point

/**
 * Apply one protocol event (`{cmd: 'run' | 'activate' | ..., ...fields}`) to `state`.
 * Returns `{state, observation}`; throws BadInput for an event it does not know.
 */
function applyEvent(catalogue, state, event) {
  switch (event.cmd) {
    case 'run':
      return startRun(catalogue, state, event);
    case 'activate':
    case 'extend':
      return call(catalogue, state, event);
    case 'restart':
      // A restart keeps exactly what was persisted: send the state through its JSON form.
      return { state: restore(JSON.parse(JSON.stringify(persist(state)))), observation: applied() };
    default:
      return admin(catalogue, state, event);
  }
}

module.exports = {
  DEFAULT_ACTIVE_ROUNDS,
  MAX_ACTIVE_ROUNDS,
  MIN_ACTIVE_ROUNDS,
  STRATEGIES,
  BadInput,
  applyEvent,
  initialState,
  isSleepEligible,
  parseRounds,
  persist,
  readCatalogue,
  restore,
  trimBrief,
};
