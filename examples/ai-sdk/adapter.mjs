// A PAS adapter (stdio protocol v1, the disclosure profile only) for the Vercel AI SDK 7.0.173's toolSearch() with
// deferLoading tools, driving its real generateText through driver.mjs with a scripted model (one generateText
// call per request, as a chat app makes one per user turn):
//
//   pas run --timeout 60 --impl "cmd:$HOME/.cache/pas/node22/bin/node examples/ai-sdk/adapter.mjs"
//
// README.md says what it declares and why, lists the stand-ins, and explains every expected failure
// (expected-failures.yaml) in its "Divergences" section.

import { pathToFileURL } from 'node:url';
import { DisclosureSession } from '../node-hosts/disclosure-session.mjs';
import { servePas } from '../node-hosts/pas-stdio.mjs';
import { installedVersion } from '../node-hosts/scripted-host.mjs';
import { AiSdkDriver, SEARCH_TOOL } from './driver.mjs';

// The options the SDK really has (README.md "Declared options" says where each one comes from). `batch` is left
// out: there is no load call for it to describe.
export const DISCLOSURE = {
  state_scope: 'request',
  discovery: 'search_loads',
  listing: false,
  unload: [],
  order: 'catalogue',
  hidden_calls: 'refused',
  expiry: 'none',
};

/**
 * Found and loaded names of a tool_search answer: `{tools: [{name, description}]}` (prepare-tool-search.ts:98-109,
 * 147). Every name it lists is loaded: the search tool's own description tells the model "Matches become available
 * on the next model step" (tool-search.ts:54), and the answer has no way to say a tool already was.
 */
export function readSearch(answer) {
  const value = answer.type === 'json' ? answer.value : null;
  const found = Array.isArray(value?.tools) ? value.tools.map((entry) => entry?.name).filter((name) => typeof name === 'string') : [];
  return { found, loaded: found };
}

/** The host hooks of disclosure-session.mjs. */
export const aiSdkHost = {
  // The SDK's own ranking (search 'default'); the driver's 'exact-names' search is a stand-in this adapter does not use.
  createDriver: (catalogue) => AiSdkDriver.create(catalogue, { search: 'default' }),
  loaders: { [SEARCH_TOOL]: '@search' },
  calls: ['search', 'invoke'],
  readLoad: () => new Map(), // never called: the SDK has no load call
  readSearch,
  limits: {
    clear: 'the AI SDK keeps no discovered tools between generations, so it has no host-side clear (README.md#adapter-limits)',
  },
};

async function main(argv) {
  if (argv.length !== 0) {
    process.stderr.write('usage: node examples/ai-sdk/adapter.mjs (no arguments: the SDK has one configuration)\n');
    process.exit(2);
  }
  const info = { name: 'ai-sdk-tool-search', version: installedVersion('ai', import.meta.url), language: 'javascript', disclosure: DISCLOSURE };
  await servePas(info, new DisclosureSession(aiSdkHost));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main(process.argv.slice(2));
