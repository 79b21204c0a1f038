// A PAS adapter (stdio protocol v1, the disclosure profile only) for @mastra/core 1.71.0's ToolSearchProcessor,
// driving its real Agent through driver.mjs with a scripted model. One declared configuration per process:
//
//   pas run --timeout 60 --impl "cmd:$HOME/.cache/pas/node22/bin/node examples/mastra/adapter.mjs in-memory"
//   pas run --timeout 60 --impl "cmd:$HOME/.cache/pas/node22/bin/node examples/mastra/adapter.mjs context"
//   pas run --timeout 60 --impl "cmd:$HOME/.cache/pas/node22/bin/node examples/mastra/adapter.mjs in-memory-no-memory"
//   pas run --timeout 60 --impl "cmd:$HOME/.cache/pas/node22/bin/node examples/mastra/adapter.mjs context-no-memory"
//
// README.md says what each configuration declares and why, lists the stand-ins, and explains every expected
// failure (expected-failures-<configuration>.yaml) in its "Divergences" section.

import { pathToFileURL } from 'node:url';
import { DisclosureSession } from '../node-hosts/disclosure-session.mjs';
import { servePas } from '../node-hosts/pas-stdio.mjs';
import { installedVersion } from '../node-hosts/scripted-host.mjs';
import { MastraDriver } from './driver.mjs';

// The options each configuration really has (README.md "Declared options" says where each one comes from).
const COMMON = { discovery: 'search_then_load', listing: false, batch: true, order: 'append', hidden_calls: 'refused' };
const TTL_SECONDS = 3600; // ToolSearchProcessor's default ttl, 3,600,000 ms (tool-search.d.ts:101-109)
export const CONFIGURATIONS = {
  'in-memory': {
    driver: { storage: 'in-memory', memory: true, trimBy: 'delete' },
    disclosure: { ...COMMON, state_scope: 'thread', unload: ['host'], expiry: 'idle', expiry_seconds: TTL_SECONDS },
  },
  context: {
    driver: { storage: 'context', memory: true, trimBy: 'delete' },
    disclosure: { ...COMMON, state_scope: 'messages', unload: [], expiry: 'none' },
  },
  'in-memory-no-memory': {
    driver: { storage: 'in-memory', memory: false },
    disclosure: { ...COMMON, state_scope: 'instance', unload: ['host'], expiry: 'idle', expiry_seconds: TTL_SECONDS },
  },
  'context-no-memory': {
    driver: { storage: 'context', memory: false },
    disclosure: { ...COMMON, state_scope: 'request', unload: [], expiry: 'none' },
  },
};

// load_tool's single-name answers (agent-BOxKOk3n.js:17224-17247): the outcome is in the message only.
const SINGLE_ANSWERS = [
  [/^Tool "(.*)" loaded successfully\. /, 'loaded'],
  [/^Tool "(.*)" is already loaded and available\.$/, 'already_loaded'],
  [/^Tool "(.*)" not found\./, 'not_found'],
];
// load_tool's toolNames answers (17248-17259): one list per outcome.
const ARRAY_ANSWERS = [['loaded', 'loaded'], ['alreadyLoaded', 'already_loaded'], ['notFound', 'not_found']];

/** Per-name outcomes of a load_tool answer, as the answer states them; names it does not mention are left out. */
export function readLoad(answer) {
  const outcomes = new Map();
  const value = answer.type === 'json' ? answer.value : null;
  if (value === null || typeof value !== 'object') return outcomes;
  for (const [key, outcome] of ARRAY_ANSWERS) {
    if (Array.isArray(value[key])) for (const name of value[key]) outcomes.set(name, outcome);
  }
  for (const [pattern, outcome] of SINGLE_ANSWERS) {
    const match = typeof value.message === 'string' ? pattern.exec(value.message) : null;
    if (match) outcomes.set(match[1], outcome);
  }
  return outcomes;
}

/**
 * Found and loaded names of a search_tools answer (17141-17168): `results[].name` are found; they are loaded only
 * when the message says so ("Found and loaded …", the autoLoad answer), never by "Use load_tool … to make them
 * available".
 */
export function readSearch(answer) {
  const value = answer.type === 'json' ? answer.value : null;
  const found = Array.isArray(value?.results) ? value.results.map((entry) => entry?.name).filter((name) => typeof name === 'string') : [];
  const loaded = typeof value?.message === 'string' && value.message.startsWith('Found and loaded ') ? found : [];
  return { found, loaded };
}

/** The host hooks of disclosure-session.mjs for one configuration. */
export function mastraHost(configuration) {
  const { driver } = CONFIGURATIONS[configuration];
  return {
    createDriver: (catalogue) => MastraDriver.create(catalogue, driver),
    loaders: { search_tools: '@search', load_tool: '@load' },
    calls: ['load', 'search', 'invoke'],
    readLoad,
    readSearch,
    // clearState(threadId) is the processor's own host-side reset (tool-search.d.ts:184-191).
    clear: async (mastra, thread) => mastra.clearState(thread),
    limits: {},
  };
}

async function main(argv) {
  const configuration = argv[0];
  if (argv.length !== 1 || !Object.hasOwn(CONFIGURATIONS, configuration)) {
    process.stderr.write(`usage: node examples/mastra/adapter.mjs <configuration>; one of ${Object.keys(CONFIGURATIONS).join(', ')}\n`);
    process.exit(2);
  }
  const info = {
    name: `mastra-tool-search-${configuration}`,
    version: installedVersion('@mastra/core', import.meta.url),
    language: 'javascript',
    disclosure: CONFIGURATIONS[configuration].disclosure,
  };
  await servePas(info, new DisclosureSession(mastraHost(configuration)));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main(process.argv.slice(2));
