// Host-neutral half of the Node host drivers (examples/mastra/driver.mjs, examples/ai-sdk/driver.mjs):
// a scripted model that pauses inside the host's own generation loop, and the bookkeeping of open
// requests. Nothing here imports a host package; both drivers import this file.
//
// How a request runs. beginRequest starts the host's real generation (Mastra agent.generate, AI SDK
// generateText) with a model object that belongs to this one request. Every time the host calls the
// model (doGenerate), the model records the call (tool list, prompt) and waits on a promise for
// the driver's next instruction: a list of tool calls (modelStep) or a final text (endRequest). So a
// generation pauses between steps, and several requests on different threads can be open at once.
// A step's answers are read from the next model call's prompt: the tool-result parts the host
// built for those tool-call ids, exactly as a model would read them.

import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';

/** The installed version of package `name` as seen from the module at `fromUrl` (its package.json). */
export function installedVersion(name, fromUrl) {
  const path = createRequire(fromUrl).resolve(`${name}/package.json`);
  return JSON.parse(readFileSync(path, 'utf8')).version;
}

/** A driver-side error with a stable code (bad input or a host that misbehaved), sent as data by the CLI. */
export class DriverError extends Error {
  /** @param {string} code short machine-readable code  @param {string} message what went wrong and what to change */
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

/** An unbounded async queue: put never waits, take waits for the next value. */
class Channel {
  #values = [];
  #takers = [];

  /** Hand a value to the oldest waiting taker, or keep it for the next take. */
  put(value) {
    const taker = this.#takers.shift();
    if (taker) taker(value);
    else this.#values.push(value);
  }

  /** The next value; waits when none is queued. */
  take() {
    if (this.#values.length > 0) return Promise.resolve(this.#values.shift());
    return new Promise((resolve) => this.#takers.push(resolve));
  }
}

/** Milliseconds the driver waits for the host to call the model again or finish; a stall is a DriverError. */
export const STALL_MS = 20_000;

/**
 * One open request: the channel between the driver and the model object the host calls.
 * The host's model calls `modelCall(options)`; the driver calls `arrival()` and `respond(step)`.
 */
export class ScriptedRequest {
  #arrivals = new Channel();
  #responses = new Channel();

  /** @param {string} thread the thread this request belongs to */
  constructor(thread) {
    this.thread = thread;
    this.current = null; // the model call the host is waiting on: {tools, prompt}
    this.ended = null; // {result} or {error} once the generation finished
  }

  /** Model side: record one model call and wait for the driver's instruction ({calls} or {stop}). */
  async modelCall(options) {
    this.#arrivals.put({ call: { tools: options.tools ?? [], prompt: options.prompt ?? [] } });
    return this.#responses.take();
  }

  /** Host side: the generation finished (or threw); wakes a driver waiting for the next call. */
  finish(outcome) {
    this.#arrivals.put({ ended: outcome });
  }

  /** Driver side: wait for the next model call or the end of the generation (a stall raises). */
  async arrival() {
    let timer;
    const stall = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new DriverError('host-stalled',
        `the host neither called the model again nor finished within ${STALL_MS} ms on thread ${this.thread}`)), STALL_MS);
    });
    try {
      const next = await Promise.race([this.#arrivals.take(), stall]);
      if (next.ended) this.ended = next.ended;
      this.current = next.call ?? null;
      return next;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Driver side: answer the pending model call with tool calls (list) or a final text (null). */
  respond(calls) {
    this.current = null;
    this.#responses.put(calls === null ? { stop: true } : { calls });
  }
}

/** Tool names of one model call, in the order the host sent them. */
export function toolNames(call) {
  return call.tools.map((tool) => tool.name);
}

/** The tool-result parts of a prompt, by tool-call id. */
export function toolResults(prompt) {
  const found = new Map();
  for (const message of prompt) {
    if (message.role !== 'tool' || !Array.isArray(message.content)) continue;
    for (const part of message.content) {
      if (part.type === 'tool-result') found.set(part.toolCallId, part.output);
    }
  }
  return found;
}

const CALL_KINDS = new Set(['load', 'unload', 'search', 'list', 'invoke']);

/**
 * Check one model call of the host-neutral vocabulary and return it normalised:
 * {kind: 'load'|'unload', names: string[], single: boolean} | {kind: 'search', query} | {kind: 'list'} |
 * {kind: 'invoke', tool, arguments}. Raises DriverError('bad-call') naming what to change.
 */
export function parseCall(call, index) {
  const where = `calls[${index}]`;
  if (call === null || typeof call !== 'object' || !CALL_KINDS.has(call.kind)) {
    throw new DriverError('bad-call', `${where}: kind must be one of ${[...CALL_KINDS].join(', ')}`);
  }
  if (call.kind === 'load' || call.kind === 'unload') {
    const single = typeof call.names === 'string';
    const names = single ? [call.names] : call.names;
    if (!Array.isArray(names) || names.some((name) => typeof name !== 'string')) {
      throw new DriverError('bad-call', `${where}.names: a tool name or a list of tool names`);
    }
    return { kind: call.kind, names, single };
  }
  if (call.kind === 'search') {
    if (typeof call.query !== 'string') throw new DriverError('bad-call', `${where}.query: a string`);
    return { kind: 'search', query: call.query };
  }
  if (call.kind === 'invoke') {
    if (typeof call.tool !== 'string') throw new DriverError('bad-call', `${where}.tool: a tool name`);
    const args = call.arguments ?? {};
    if (args === null || typeof args !== 'object' || Array.isArray(args)) {
      throw new DriverError('bad-call', `${where}.arguments: a JSON object`);
    }
    return { kind: 'invoke', tool: call.tool, arguments: args };
  }
  return { kind: 'list' };
}

/**
 * Check a catalogue {tools: [{name, description, parameters}], alwaysVisible: [names]} and return it
 * with defaults filled in. Raises DriverError('bad-catalogue').
 */
export function checkCatalogue(catalogue) {
  const tools = catalogue?.tools;
  if (!Array.isArray(tools) || tools.length === 0) {
    throw new DriverError('bad-catalogue', 'tools: a non-empty list of {name, description, parameters}');
  }
  const seen = new Set();
  const checked = tools.map((tool, index) => {
    if (typeof tool?.name !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(tool.name)) {
      throw new DriverError('bad-catalogue', `tools[${index}].name: 1-64 letters, digits, _ or -`);
    }
    if (seen.has(tool.name)) throw new DriverError('bad-catalogue', `tools[${index}].name: ${tool.name} appears twice`);
    seen.add(tool.name);
    const parameters = tool.parameters ?? { type: 'object', properties: {} };
    if (parameters.type !== 'object') {
      throw new DriverError('bad-catalogue', `tools[${index}].parameters: a JSON schema of type object`);
    }
    return { name: tool.name, description: String(tool.description ?? ''), parameters };
  });
  const alwaysVisible = catalogue.alwaysVisible ?? [];
  for (const name of alwaysVisible) {
    if (!seen.has(name)) throw new DriverError('bad-catalogue', `alwaysVisible: ${name} is not in tools`);
  }
  return { tools: checked, alwaysVisible: new Set(alwaysVisible) };
}

/**
 * The request bookkeeping both drivers share. A host driver extends it and supplies:
 * - `startGeneration(request, text)`: start the host's real generation for `request` (whose
 *   `modelCall` the host's model must call) and return its promise;
 * - `hostCall(parsed)`: {toolName, input, note?} for a parsed call, or {unsupported: reason};
 * - optionally `requestEnded(request, outcome)`, run once when a generation finishes.
 * Fake catalogue tools report executions with `recordExecution(toolCallId, name)`.
 */
export class ScriptedDriver {
  #open = new Map(); // thread -> ScriptedRequest
  #executions = new Map(); // toolCallId -> tool name
  #nextCallId = 0;

  /** Note that a catalogue tool's execute function ran for a tool call. */
  recordExecution(toolCallId, name) {
    this.#executions.set(toolCallId, name);
  }

  /** True while any request is open (rebuild refuses then). */
  get busy() {
    return this.#open.size > 0;
  }

  /** The threads that have an open request, in the order their requests began. */
  get openThreads() {
    return [...this.#open.keys()];
  }

  /** Start a request (user turn) on `thread`; returns {tools}: the names of its first model call. */
  async beginRequest(thread, text) {
    if (typeof thread !== 'string' || thread === '') throw new DriverError('bad-thread', 'thread: a non-empty string');
    if (this.#open.has(thread)) {
      throw new DriverError('request-open', `thread ${thread} already has an open request: call endRequest first`);
    }
    const request = new ScriptedRequest(thread);
    this.#open.set(thread, request);
    this.startGeneration(request, String(text ?? '')).then(
      (result) => request.finish({ result }),
      (error) => request.finish({ error }),
    );
    const next = await request.arrival();
    if (next.ended) return this.#closed(request);
    return { tools: toolNames(next.call) };
  }

  /**
   * One model step on the open request of `thread`: the model makes `calls` (host-neutral vocabulary).
   * Returns {answers: [{call, hostCall, answer, executed}], nextTools, ended}; raises DriverError.
   */
  async modelStep(thread, calls) {
    const request = this.#request(thread);
    if (!Array.isArray(calls) || calls.length === 0) {
      throw new DriverError('bad-call', 'calls: a non-empty list (a step without tool calls is endRequest)');
    }
    const planned = calls.map((call, index) => this.#plan(parseCall(call, index)));
    const sent = planned.filter((entry) => entry.toolCallId);
    if (sent.length === 0) {
      // Nothing reaches the host: the pending model call is still the next one.
      return { answers: planned.map((entry) => this.#answer(entry, null)), nextTools: toolNames(request.current), ended: false };
    }
    request.respond(sent.map(({ toolCallId, hostCall }) => ({ toolCallId, toolName: hostCall.toolName, input: hostCall.input })));
    const next = await request.arrival();
    const results = next.ended ? this.endedResults(next.ended) : toolResults(next.call.prompt);
    const answers = planned.map((entry) => this.#answer(entry, results));
    if (next.ended) {
      await this.#closed(request);
      return { answers, nextTools: null, ended: true, error: errorText(next.ended.error) };
    }
    return { answers, nextTools: toolNames(next.call), ended: false };
  }

  /** End the open request of `thread`: the model answers with text and the generation finishes. */
  async endRequest(thread) {
    const request = this.#request(thread);
    request.respond(null);
    let next = await request.arrival();
    for (let again = 0; !next.ended; again += 1) {
      // A host that asks again after a final text gets another final text, a few times.
      if (again === 10) throw new DriverError('host-stalled', `the host kept calling the model after its final text on thread ${thread}`);
      request.respond(null);
      next = await request.arrival();
    }
    return this.#closed(request);
  }

  /** The pending model call of the open request of `thread`: tool definitions, system texts, prompt length. */
  inspect(thread) {
    const call = this.#request(thread).current;
    return {
      tools: call.tools.map(({ name, description, inputSchema }) => ({ name, description, parameters: inputSchema })),
      system: call.prompt.filter((message) => message.role === 'system').map((message) => message.content),
      messages: call.prompt.length,
    };
  }

  /** Tool results of a generation that ended instead of calling the model again: its response messages. */
  endedResults(outcome) {
    const messages = outcome?.result?.response?.messages;
    return Array.isArray(messages) ? toolResults(messages) : new Map();
  }

  #request(thread) {
    const request = this.#open.get(thread);
    if (!request) throw new DriverError('no-request', `thread ${thread} has no open request: call beginRequest first`);
    return request;
  }

  #plan(parsed) {
    const hostCall = this.hostCall(parsed);
    if (hostCall.unsupported) return { parsed, unsupported: hostCall.unsupported };
    this.#nextCallId += 1;
    return { parsed, hostCall, toolCallId: `call_${this.#nextCallId}` };
  }

  #answer(entry, results) {
    if (entry.unsupported) {
      return { call: entry.parsed, hostCall: null, answer: { type: 'unsupported', value: entry.unsupported }, executed: false };
    }
    const output = results?.get(entry.toolCallId);
    return {
      call: entry.parsed,
      hostCall: { toolName: entry.hostCall.toolName, input: entry.hostCall.input, ...(entry.hostCall.note ? { note: entry.hostCall.note } : {}) },
      answer: output ? { type: output.type, value: output.value } : { type: 'missing', value: 'the host gave no result for this call' },
      executed: this.#executions.has(entry.toolCallId),
    };
  }

  async #closed(request) {
    this.#open.delete(request.thread);
    await this.requestEnded?.(request, request.ended);
    const error = errorText(request.ended?.error);
    return error ? { ended: true, error } : { ended: true };
  }
}

function errorText(error) {
  if (!error) return undefined;
  return `${error.name ?? 'Error'}: ${error.message ?? String(error)}`;
}

/** The tool-call content parts of one scripted step. */
export function toolCallParts(calls) {
  return calls.map(({ toolCallId, toolName, input }) => ({
    type: 'tool-call', toolCallId, toolName, input: JSON.stringify(input),
  }));
}
