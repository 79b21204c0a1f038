// Drives the Vercel AI SDK 7.0.173's real generateText with toolSearch() and deferLoading tools, with a
// scripted model.
//
// Interface (host-neutral, the same as examples/mastra/driver.mjs; cli.mjs speaks it as JSON lines):
//   const driver = await AiSdkDriver.create(
//     { tools: [{name, description, parameters /* JSON schema, type object */}], alwaysVisible: [names] },
//     options);
//     The `tools` object given to generateText is, in this key (registration) order: `tool_search`
//     (toolSearch()), then every catalogue tool in catalogue order, made with tool({ ..., deferLoading })
//     where deferLoading is true unless the tool is in alwaysVisible.
//   options: toolOrder (a list of names: generateText's toolOrder; default none, i.e. registration order);
//     maxResults (toolSearch's, default 5); search 'default' (the SDK's own ranking) | 'exact-names' (our
//     custom `search` function, the documented hook, returning the catalogue names equal to a word of the
//     query: a stand-in that makes load-by-name exact).
//   await driver.beginRequest(thread, text) -> {tools: [names of the first model call]}
//     A request is one generateText call with the thread's messages so far plus the user text, as a chat
//     app does per user turn; its response messages are appended to the thread when it ends.
//   await driver.modelStep(thread, calls) -> {answers: [{call, hostCall, answer: {type, value}, executed}],
//     nextTools: [names of the next model call] | null, ended}
//     calls: {kind: 'search', query} -> tool_search {query};
//            {kind: 'load', names} -> tool_search with the exact name(s), space-separated, as the query: the
//              SDK has no load by name, so a load is a search and discovers whatever that query matches
//              (with the default ranking, more than the name asked for);
//            {kind: 'invoke', tool, arguments} -> that tool;
//            {kind: 'unload'} and {kind: 'list'}: answered {type: 'unsupported'} by the driver (no such tool).
//     answer: the tool-result output the SDK put in the next model call's prompt ({type: 'json' | 'error-text', value});
//     executed: whether a catalogue tool's execute function ran for this call.
//   await driver.endRequest(thread) -> {ended: true}
//   await driver.rebuild('kept' | 'reset') -> new tool objects and a new toolSearch(); the threads' messages
//     (the app's message store) are kept or dropped.
//   driver.trim(thread, keepLast) -> the next generation on `thread` gets only its last keepLast messages
//     (before the new user message).
//   driver.idle(ms) -> nothing expires: the SDK keeps no state between generations.
//   driver.inspect(thread) -> the pending model call's tool definitions and system texts.
// Requests on different threads may be open at once: each generateText call has its own scripted model.
// Nothing is downloaded and no real model is called.

import { generateText, isStepCount, jsonSchema, tool, toolSearch } from 'ai';
import {
  DriverError, ScriptedDriver, checkCatalogue, installedVersion, toolCallParts,
} from '../node-hosts/scripted-host.mjs';

export const SEARCH_TOOL = 'tool_search';
const DEFAULTS = { toolOrder: undefined, maxResults: 5, search: 'default' };

/** A LanguageModelV4 object that hands every model call to the request's scripted steps. */
function scriptedModel(request) {
  return {
    specificationVersion: 'v4', provider: 'pas-scripted', modelId: `scripted-${request.thread}`, supportedUrls: {},
    async doGenerate(options) {
      const instruction = await request.modelCall(options);
      const usage = {
        inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
        outputTokens: { total: 1, text: 1, reasoning: 0 },
      };
      if (instruction.stop) {
        return { content: [{ type: 'text', text: 'done' }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] };
      }
      return { content: toolCallParts(instruction.calls), finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage, warnings: [] };
    },
    async doStream() {
      throw new DriverError('unsupported', 'the scripted model only serves generateText()');
    },
  };
}

/** Our custom search for option search 'exact-names': catalogue names equal to a word of the query. */
function exactNames({ query, tools }) {
  const words = new Set(query.split(/\s+/));
  return tools.map(({ name }) => name).filter((name) => words.has(name));
}

/** The AI SDK host: catalogue tools as fake tools, tool_search, one generateText per request. */
export class AiSdkDriver extends ScriptedDriver {
  #catalogue;
  #options;
  #messages = new Map(); // thread -> ModelMessage[] (the app's message store)
  #tools;

  /** Build the driver; raises DriverError('bad-catalogue' | 'bad-option'). */
  static async create(catalogue, options = {}) {
    const checked = checkCatalogue(catalogue);
    if (checked.tools.some((entry) => entry.name === SEARCH_TOOL)) {
      throw new DriverError('bad-catalogue', `tools: ${SEARCH_TOOL} is the search tool's name; rename the catalogue tool`);
    }
    return new AiSdkDriver(checked, checkOptions(options));
  }

  constructor(catalogue, options) {
    super();
    this.#catalogue = catalogue;
    this.#options = options;
    this.#build();
  }

  /** What the CLI's init answers: host, versions, options in force, which calls map to a host tool. */
  describe() {
    return {
      host: 'ai-sdk',
      versions: { ai: installedVersion('ai', import.meta.url), node: process.versions.node },
      options: this.#options,
      metaTools: [SEARCH_TOOL],
      calls: { load: `${SEARCH_TOOL} with the exact name(s) as the query`, unload: 'unsupported', search: SEARCH_TOOL, list: 'unsupported', invoke: 'the tool itself' },
    };
  }

  /** New tool objects and search tool; the threads' messages are kept or dropped. */
  async rebuild(store) {
    if (store !== 'kept' && store !== 'reset') throw new DriverError('bad-call', "store: 'kept' or 'reset'");
    if (this.busy) throw new DriverError('request-open', 'rebuild needs every request ended first');
    if (store === 'reset') this.#messages.clear();
    this.#build();
    return { rebuilt: true, store };
  }

  /** The next generation on `thread` gets only its last `keepLast` messages. */
  trim(thread, keepLast) {
    if (!Number.isInteger(keepLast) || keepLast < 0) throw new DriverError('bad-call', 'keepLast: an integer >= 0');
    const messages = this.#messages.get(thread) ?? [];
    this.#messages.set(thread, keepLast === 0 ? [] : messages.slice(-keepLast));
    return { applied: true, how: `the next generation on ${thread} gets its last ${keepLast} messages` };
  }

  /** Nothing in the SDK expires with time. */
  idle(ms) {
    if (!Number.isFinite(ms) || ms < 0) throw new DriverError('bad-call', 'ms: a number >= 0');
    return { expired: 0, how: 'the AI SDK keeps no state between generations' };
  }

  hostCall(parsed) {
    if (parsed.kind === 'search') return { toolName: SEARCH_TOOL, input: { query: parsed.query } };
    if (parsed.kind === 'invoke') return { toolName: parsed.tool, input: parsed.arguments };
    if (parsed.kind === 'load') {
      return { toolName: SEARCH_TOOL, input: { query: parsed.names.join(' ') }, note: 'load by name is a search with the exact name(s) as the query' };
    }
    if (parsed.kind === 'unload') return { unsupported: 'the AI SDK gives the model no unload tool' };
    return { unsupported: 'the AI SDK gives the model no list tool' };
  }

  startGeneration(request, text) {
    const user = { role: 'user', content: text };
    request.sent = [...(this.#messages.get(request.thread) ?? []), user];
    const { toolOrder } = this.#options;
    return generateText({
      model: scriptedModel(request),
      tools: this.#tools,
      messages: request.sent,
      stopWhen: isStepCount(1000),
      ...(toolOrder === undefined ? {} : { toolOrder }),
    });
  }

  /** A finished generation's messages join the thread, as a chat app stores them. */
  requestEnded(request, outcome) {
    if (outcome?.result) this.#messages.set(request.thread, [...request.sent, ...outcome.result.response.messages]);
  }

  #build() {
    const { maxResults, search } = this.#options;
    const tools = { [SEARCH_TOOL]: toolSearch({ maxResults, ...(search === 'exact-names' ? { search: exactNames } : {}) }) };
    for (const entry of this.#catalogue.tools) tools[entry.name] = this.#fakeTool(entry);
    this.#tools = tools;
  }

  #fakeTool({ name, description, parameters }) {
    return tool({
      description,
      inputSchema: jsonSchema(parameters),
      deferLoading: !this.#catalogue.alwaysVisible.has(name),
      execute: async (input, { toolCallId }) => {
        this.recordExecution(toolCallId, name);
        return { tool: name, ran: true, arguments: input };
      },
    });
  }
}

function checkOptions(options) {
  const unknown = Object.keys(options).filter((key) => !(key in DEFAULTS));
  if (unknown.length > 0) throw new DriverError('bad-option', `unknown option(s) ${unknown.join(', ')}; known: ${Object.keys(DEFAULTS).join(', ')}`);
  const merged = { ...DEFAULTS, ...options };
  if (merged.toolOrder !== undefined && !(Array.isArray(merged.toolOrder) && merged.toolOrder.every((name) => typeof name === 'string'))) {
    throw new DriverError('bad-option', 'toolOrder: a list of tool names');
  }
  if (!['default', 'exact-names'].includes(merged.search)) throw new DriverError('bad-option', "search: 'default' or 'exact-names'");
  return Object.freeze(merged);
}
