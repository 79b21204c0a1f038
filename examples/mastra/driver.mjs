// Drives @mastra/core 1.71.0's real ToolSearchProcessor through its real Agent with a scripted model.
//
// Interface (host-neutral; the ai-sdk driver has the same one; cli.mjs speaks it as JSON lines):
//   const driver = await MastraDriver.create(
//     { tools: [{name, description, parameters /* JSON schema, type object */}], alwaysVisible: [names] },
//     options);
//     alwaysVisible tools become the agent's own `tools` (always in the prompt); every other catalogue
//     tool goes to `new ToolSearchProcessor({ tools })` (deferred, found by search_tools / load_tool).
//   options: storage 'in-memory' (default) | 'context'; memory false (default) | true (an @mastra/memory
//     Memory over an InMemoryStore, so threads have history); threadVia 'memory' (default: the thread
//     goes in generate's `memory: {thread, resource}` option) | 'request-context' (the reserved
//     `mastra__threadId` request-context key, as Mastra's server sets it); ttl (ms, default Mastra's
//     3,600,000); topK, minScore, autoLoad (ToolSearchProcessor's search options); injectCatalog;
//     includeResolvedTools (the agent's own tools become searchable and leave the first prompt); trimBy 'window'
//     (default: trim sets Memory's per-call lastMessages for the thread's later requests) | 'delete' (trim deletes
//     all but the thread's last messages from the store through Memory.deleteMessages, once).
//   await driver.beginRequest(thread, text) -> {tools: [names of the first model call]}
//   await driver.modelStep(thread, calls) -> {answers: [{call, hostCall, answer: {type, value}, executed}],
//     nextTools: [names of the next model call] | null, ended}
//     calls: {kind: 'load', names: 'x' | ['x', 'y']} -> load_tool {toolName} / {toolNames};
//            {kind: 'search', query} -> search_tools {query}; {kind: 'invoke', tool, arguments} -> that tool;
//            {kind: 'unload'} and {kind: 'list'}: answered {type: 'unsupported'} by the driver (Mastra gives the
//            model no such tool), as is load under autoLoad (there is no load_tool then).
//     answer: the tool-result output the host put in the next model call's prompt ({type: 'json' | 'error-text', value});
//     executed: whether a catalogue tool's execute function ran for this call.
//   await driver.endRequest(thread) -> {ended: true}: the model answers with text, the generation finishes.
//   await driver.rebuild('kept' | 'reset') -> a new ToolSearchProcessor and Agent; with memory, a new Memory over
//     the same InMemoryStore ('kept') or a new empty one ('reset'). Refused while a request is open.
//   await driver.trim(thread, keepLast) -> trimBy 'window': that thread's later requests recall only the last keepLast
//     messages (Memory's per-call `lastMessages`); trimBy 'delete': every stored message of the thread but the last
//     keepLast is deleted (Memory.recall, then Memory.deleteMessages). Without memory there is nothing to trim
//     ({applied: false}).
//   driver.clearState(thread) -> the processor's own clearState(thread) (a no-op in 'context' storage, Mastra's docs).
//   driver.idle(ms) -> time passes: the driver moves Date.now forward by ms (the store stamps lastAccessed with
//     Date.now) and runs the processor's cleanupNow(), the function Mastra's own timer runs every
//     max(ttl/2, 60 s). No waiting: idle(3_600_001) expires the default one-hour TTL at once.
//   driver.inspect(thread) -> the pending model call's tool definitions and system texts.
// Requests on different threads may be open at once: each request has its own scripted model (the agent's
// model is a function of the request context), whose doGenerate waits for the next modelStep.
// Nothing is downloaded and no real model is called.

import { Agent } from '@mastra/core/agent';
import { ToolSearchProcessor } from '@mastra/core/processors';
import { RequestContext } from '@mastra/core/request-context';
import { InMemoryStore } from '@mastra/core/storage';
import { createTool } from '@mastra/core/tools';
import { Memory } from '@mastra/memory';
import { z } from 'zod';
import { DriverError, ScriptedDriver, checkCatalogue, installedVersion, toolCallParts } from '../node-hosts/scripted-host.mjs';

const MODEL_KEY = 'pas__scriptedModel';
const RESOURCE = 'pas';
const DEFAULTS = {
  storage: 'in-memory', memory: false, threadVia: 'memory', ttl: undefined,
  topK: undefined, minScore: undefined, autoLoad: false, injectCatalog: false, includeResolvedTools: false,
  trimBy: 'window',
};

// Time for idle(): Mastra's in-memory store reads Date.now, so moving it forward is time passing.
let clockOffset = 0;
const realNow = Date.now;
Date.now = () => realNow() + clockOffset;

/** A LanguageModelV2 object that hands every model call to the request's scripted steps. */
function scriptedModel(request) {
  let step = 0;
  return {
    specificationVersion: 'v2', provider: 'pas-scripted', modelId: `scripted-${request.thread}`, supportedUrls: {},
    async doGenerate(options) {
      const instruction = await request.modelCall(options);
      step += 1;
      const response = { id: `step-${step}`, timestamp: new Date(0), modelId: 'scripted' };
      const usage = { inputTokens: 1, outputTokens: 1, totalTokens: 2 };
      if (instruction.stop) {
        return { content: [{ type: 'text', text: 'done' }], finishReason: 'stop', usage, warnings: [], response };
      }
      return { content: toolCallParts(instruction.calls), finishReason: 'tool-calls', usage, warnings: [], response };
    },
    async doStream() {
      throw new DriverError('unsupported', 'the scripted model only serves generate()');
    },
  };
}

/** The Mastra host: catalogue tools as fake tools, the processor, the agent, optional memory. */
export class MastraDriver extends ScriptedDriver {
  #catalogue;
  #options;
  #store = new InMemoryStore();
  #keepLast = new Map(); // thread -> lastMessages for its later requests
  #tools;

  /** Build the driver; raises DriverError('bad-catalogue' | 'bad-option'). */
  static async create(catalogue, options = {}) {
    return new MastraDriver(checkCatalogue(catalogue), checkOptions(options));
  }

  constructor(catalogue, options) {
    super();
    this.#catalogue = catalogue;
    this.#options = options;
    this.#tools = Object.fromEntries(catalogue.tools.map((tool) => [tool.name, this.#fakeTool(tool)]));
    this.#build();
  }

  /** What the CLI's init answers: host, versions, options in force, which calls map to a host tool. */
  describe() {
    const autoLoad = this.#options.autoLoad;
    return {
      host: 'mastra',
      versions: { '@mastra/core': installedVersion('@mastra/core', import.meta.url), '@mastra/memory': installedVersion('@mastra/memory', import.meta.url), node: process.versions.node },
      options: this.#options,
      metaTools: autoLoad ? ['search_tools'] : ['search_tools', 'load_tool'],
      calls: { load: autoLoad ? 'unsupported' : 'load_tool', unload: 'unsupported', search: 'search_tools', list: 'unsupported', invoke: 'the tool itself' },
    };
  }

  /** Recreate processor and agent; the memory store is kept or replaced by an empty one. */
  async rebuild(store) {
    if (store !== 'kept' && store !== 'reset') throw new DriverError('bad-call', "store: 'kept' or 'reset'");
    if (this.busy) throw new DriverError('request-open', 'rebuild needs every request ended first');
    if (store === 'reset') this.#store = new InMemoryStore();
    this.#build();
    return { rebuilt: true, store };
  }

  /** Trim `thread`'s history to its last `keepLast` messages, by the memory window or by deletion (option trimBy). */
  async trim(thread, keepLast) {
    if (!Number.isInteger(keepLast) || keepLast < 0) throw new DriverError('bad-call', 'keepLast: an integer >= 0');
    if (!this.#options.memory) {
      return { applied: false, how: 'the agent has no memory: each request carries only its own messages' };
    }
    if (this.#options.trimBy === 'window') {
      this.#keepLast.set(thread, keepLast);
      return { applied: true, how: `memory lastMessages ${keepLast} for the next requests on ${thread}` };
    }
    const { messages } = await this.memory.recall({ threadId: thread, resourceId: RESOURCE, perPage: false });
    const doomed = messages.slice(0, Math.max(messages.length - keepLast, 0)).map((message) => message.id);
    if (doomed.length > 0) await this.memory.deleteMessages(doomed);
    return { applied: true, how: `deleted ${doomed.length} of the ${messages.length} stored messages of ${thread}` };
  }

  /** The processor's own host-side reset of one thread's loaded tools (Mastra: a no-op in 'context' storage). */
  clearState(thread) {
    if (typeof thread !== 'string' || thread === '') throw new DriverError('bad-thread', 'thread: a non-empty string');
    this.processor.clearState(thread);
    return { cleared: thread, how: `ToolSearchProcessor.clearState(${JSON.stringify(thread)})` };
  }

  /** Let `ms` pass for the in-memory store's TTL (see the module comment); returns threads expired. */
  idle(ms) {
    if (!Number.isFinite(ms) || ms < 0) throw new DriverError('bad-call', 'ms: a number >= 0');
    clockOffset += ms;
    return { expired: this.processor.cleanupNow(), how: 'Date.now moved forward, then cleanupNow()' };
  }

  hostCall(parsed) {
    if (parsed.kind === 'search') return { toolName: 'search_tools', input: { query: parsed.query } };
    if (parsed.kind === 'invoke') return { toolName: parsed.tool, input: parsed.arguments };
    if (parsed.kind === 'load' && !this.#options.autoLoad) {
      return { toolName: 'load_tool', input: parsed.single ? { toolName: parsed.names[0] } : { toolNames: parsed.names } };
    }
    if (parsed.kind === 'load') return { unsupported: 'autoLoad: search_tools loads; there is no load_tool' };
    if (parsed.kind === 'unload') return { unsupported: 'ToolSearchProcessor gives the model no unload tool' };
    return { unsupported: 'ToolSearchProcessor gives the model no list tool (injectCatalog lists in the system text)' };
  }

  startGeneration(request, text) {
    const requestContext = new RequestContext();
    requestContext.set(MODEL_KEY, scriptedModel(request));
    if (this.#options.threadVia === 'request-context') requestContext.set('mastra__threadId', request.thread);
    const keepLast = this.#keepLast.get(request.thread);
    const memory = { thread: request.thread, resource: RESOURCE, ...(keepLast === undefined ? {} : { options: { lastMessages: keepLast } }) };
    return this.agent.generate(text, { requestContext, maxSteps: 1000, memory });
  }

  #build() {
    const { storage, ttl, topK, minScore, autoLoad, injectCatalog, includeResolvedTools } = this.#options;
    const deferred = Object.fromEntries(Object.entries(this.#tools).filter(([name]) => !this.#catalogue.alwaysVisible.has(name)));
    const own = Object.fromEntries(Object.entries(this.#tools).filter(([name]) => this.#catalogue.alwaysVisible.has(name)));
    const search = Object.fromEntries(Object.entries({ topK, minScore, autoLoad }).filter(([, value]) => value !== undefined));
    this.processor = new ToolSearchProcessor({ tools: deferred, storage, search, injectCatalog, includeResolvedTools, ...(ttl === undefined ? {} : { ttl }) });
    this.memory = this.#options.memory ? new Memory({ storage: this.#store }) : undefined;
    this.agent = new Agent({
      id: 'pas-scripted-agent',
      name: 'PAS scripted agent',
      instructions: 'You are driven by a PAS script.',
      model: ({ requestContext }) => requestContext.get(MODEL_KEY),
      tools: own,
      inputProcessors: [this.processor],
      ...(this.memory ? { memory: this.memory } : {}),
    });
  }

  #fakeTool({ name, description, parameters }) {
    return createTool({
      id: name,
      description,
      inputSchema: z.fromJSONSchema(parameters),
      execute: async (input, context) => {
        this.recordExecution(context?.agent?.toolCallId, name);
        return { tool: name, ran: true, arguments: input };
      },
    });
  }
}

function checkOptions(options) {
  const unknown = Object.keys(options).filter((key) => !(key in DEFAULTS));
  if (unknown.length > 0) throw new DriverError('bad-option', `unknown option(s) ${unknown.join(', ')}; known: ${Object.keys(DEFAULTS).join(', ')}`);
  const merged = { ...DEFAULTS, ...options };
  if (!['in-memory', 'context'].includes(merged.storage)) throw new DriverError('bad-option', "storage: 'in-memory' or 'context'");
  if (!['memory', 'request-context'].includes(merged.threadVia)) throw new DriverError('bad-option', "threadVia: 'memory' or 'request-context'");
  if (typeof merged.memory !== 'boolean') throw new DriverError('bad-option', 'memory: true or false');
  if (!['window', 'delete'].includes(merged.trimBy)) throw new DriverError('bad-option', "trimBy: 'window' or 'delete'");
  return Object.freeze(merged);
}
