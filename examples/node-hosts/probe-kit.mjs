// What the facts probes (../mastra/facts-probe.mjs and ../ai-sdk/facts-probe.mjs) share: a list of checks, each a claim from
// hosts-facts.md (the session's notes on the hosts) with what the run saw, and seeded random catalogues (tool names and
// descriptions nobody designed, so ordering and search claims are checked on more than tool_0..tool_4).

import { format } from 'node:util';

/** The catalogue hosts-facts.md ran: tool_0..tool_4 deferred, always_tool always visible. */
export const FACTS_CATALOGUE = {
  tools: [
    ...['alpha', 'beta', 'gamma', 'delta', 'epsilon'].map((word, i) => ({ name: `tool_${i}`, description: `Fake tool number ${i} (${word})` })),
    { name: 'always_tool', description: 'Always there' },
  ],
  alwaysVisible: ['always_tool'],
};

/** Calls of the host-neutral vocabulary. */
export const load = (names) => ({ kind: 'load', names });
export const search = (query) => ({ kind: 'search', query });
export const invoke = (tool, args = {}) => ({ kind: 'invoke', tool, arguments: args });

/** The answer value of call `index` of a modelStep result. */
export const value = (step, index = 0) => step.answers[index].answer.value;

/** One whole request on `thread` through a driver: the first tool list and each step's result. */
export async function request(driver, thread, steps = []) {
  const first = await driver.beginRequest(thread, 'hi');
  const results = [];
  for (const calls of steps) results.push(await driver.modelStep(thread, calls));
  await driver.endRequest(thread);
  return { first: first.tools, steps: results };
}

/**
 * Run `checks` ([id, claim, async () => ({held, saw})]) in order and print one JSON line per check, then a
 * summary line; a check that throws did not hold (its error is what it saw). Exit code 1 if any differs.
 */
export async function runChecks(checks, only = process.argv[2]) {
  // stdout carries the check lines only: whatever a host logs goes to stderr.
  for (const level of ['log', 'info', 'debug', 'warn']) console[level] = (...args) => process.stderr.write(`${format(...args)}\n`);
  let differs = 0;
  let ran = 0;
  for (const [id, claim, run] of checks) {
    if (only && !id.startsWith(only)) continue;
    ran += 1;
    let outcome;
    try {
      outcome = await run();
    } catch (error) {
      outcome = { held: false, saw: `threw ${error?.name}: ${error?.message}` };
    }
    if (!outcome.held) differs += 1;
    const expected = 'expected' in outcome ? { expected: outcome.expected } : {};
    process.stdout.write(`${JSON.stringify({ id, held: outcome.held, claim, saw: outcome.saw, ...expected })}\n`);
  }
  process.stdout.write(`${JSON.stringify({ summary: `${ran - differs} held, ${differs} differ` })}\n`);
  process.exitCode = differs > 0 ? 1 : 0;
}

/** {held, saw} for an observation that should equal `expected` (compared as JSON). */
export function same(saw, expected) {
  const held = JSON.stringify(saw) === JSON.stringify(expected);
  return held ? { held, saw } : { held, saw, expected };
}

const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'qu', 'ra', 'sto', 'vin', 'zel', 'dar', 'fen', 'gri', 'hop', 'jax', 'wum'];
const WORDS = [
  'weather', 'invoice', 'calendar', 'ticket', 'search', 'email', 'report', 'upload', 'convert', 'translate',
  'summary', 'deploy', 'metrics', 'query', 'database', 'image', 'resize', 'archive', 'notify', 'schedule',
  'payment', 'refund', 'github', 'issue', 'branch', 'forecast', 'customer', 'order', 'shipping', 'audit',
];

/** A deterministic PRNG (mulberry32): same seed, same sequence. Returns floats in [0, 1). */
export function prng(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One element of `items` chosen by `random`. */
export function pick(random, items) {
  return items[Math.floor(random() * items.length)];
}

/** `count` distinct elements of `items` in random order. */
export function sample(random, items, count) {
  const pool = [...items];
  const out = [];
  while (out.length < count && pool.length > 0) out.push(pool.splice(Math.floor(random() * pool.length), 1)[0]);
  return out;
}

function randomName(random, taken) {
  for (;;) {
    const parts = Array.from({ length: 2 + Math.floor(random() * 2) }, () => pick(random, SYLLABLES));
    const style = Math.floor(random() * 3);
    const name = style === 0 ? parts.join('_')
      : style === 1 ? parts.join('-')
        : parts[0] + parts.slice(1).map((part) => part[0].toUpperCase() + part.slice(1)).join('');
    if (!taken.has(name)) {
      taken.add(name);
      return name;
    }
  }
}

/**
 * A catalogue of `size` tools with random names (snake, kebab or camel case) and 3-12 random words of
 * description, `always` of them always visible, in random positions.
 */
export function randomCatalogue(seed, size = 30, always = 3) {
  const random = prng(seed);
  const taken = new Set();
  const tools = Array.from({ length: size }, () => ({
    name: randomName(random, taken),
    description: Array.from({ length: 3 + Math.floor(random() * 10) }, () => pick(random, WORDS)).join(' '),
    parameters: { type: 'object', properties: { value: { type: 'string' } } },
  }));
  return { tools, alwaysVisible: sample(random, tools.map((tool) => tool.name), always) };
}

/** A random query of 1-3 words from the description vocabulary, sometimes with a tool name's piece. */
export function randomQuery(random, catalogue) {
  const words = Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(random, WORDS));
  if (random() < 0.3) words.push(pick(random, catalogue.tools).name.split(/[_-]/)[0]);
  return words.join(' ');
}

/**
 * A check that the installed file `path` holds `needle` within lines from..to (1-based, inclusive), as the
 * facts cite it; what it saw is the line the needle is really on.
 */
export function lineCheck(path, from, to, needle) {
  const label = `${path.split('node_modules/').pop()}:${from === to ? from : `${from}-${to}`}`;
  return [`L ${label}`, `${label} holds ${JSON.stringify(needle)}`, async () => {
    const { readFileSync } = await import('node:fs');
    const lines = readFileSync(path, 'utf8').split('\n');
    const inRange = lines.slice(from - 1, to).findIndex((line) => line.includes(needle));
    if (inRange >= 0) return { held: true, saw: `line ${from + inRange}` };
    const at = lines.findIndex((line) => line.includes(needle)) + 1;
    return { held: false, saw: at === 0 ? 'not in the file' : `elsewhere: line ${at}` };
  }];
}
