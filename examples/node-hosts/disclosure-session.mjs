// The disclosure-* commands of the PAS stdio protocol (docs/protocol.md; spec/schemas/protocol/disclosure-*),
// carried out on a host driver (../mastra/driver.mjs, ../ai-sdk/driver.mjs): every observation is read off what
// the host really did, never computed from PAS's rules.
//
// - Tool lists are the names of the tools the host put in the model call, in its order; the host's loader tools
//   become their role tokens (`@search`, `@load`, ...), every other name is passed through as it is.
// - A load's per-name outcome comes from the host's own answer (`host.readLoad`); a name the answer does not
//   account for is `unstated`. A search's found and loaded names come from the host's answer (`host.readSearch`).
// - An invoke is `executed` when the catalogue tool's own execute function ran for that call (the drivers' fake
//   tools record it), else `refused` for a catalogue name and `not_found` for any other.
// - A call kind the host has no tool for is answered `{call, unsupported: true}` without reaching the host.
// - Something the host cannot do at all (a host-side clear where it has none) is an error response with code
//   `adapter-limit` naming the limit.
//
// The host hooks (`host`): createDriver(catalogue) -> driver; loaders {hostName: token}; calls (the PAS call kinds
// the host has a tool for); readLoad(answer, hostNames) -> Map hostName -> outcome; readSearch(answer) ->
// {found, loaded} (host names); clear(driver, thread) or limits.clear (why there is none); idle(driver, seconds).

import { Refused } from './pas-stdio.mjs';

/** An error response for something the host cannot do; `why` names the limit and where the README explains it. */
export function adapterLimit(why) {
  return new Refused('adapter-limit', `adapter limit: ${why}`);
}

const distinct = (names) => [...new Set(names)];

/** The text of a tool result as the model reads it (JSON results serialised), or undefined when there was none. */
function textOf(answer) {
  if (answer.type === 'json' || answer.type === 'error-json') return JSON.stringify(answer.value);
  if (answer.type === 'text' || answer.type === 'error-text') return String(answer.value);
  return undefined;
}

const withText = (answer, result) => {
  const text = textOf(answer);
  return text === undefined ? result : { ...result, text };
};

/** The disclosure profile's commands on one host; a new driver per disclosure-start. */
export class DisclosureSession {
  #host;
  #driver = null;
  #catalogue = new Set();
  #toHost;

  /** @param {object} host the host hooks (see the module comment) */
  constructor(host) {
    this.#host = host;
    this.#toHost = new Map(Object.entries(host.loaders).map(([hostName, token]) => [token, hostName]));
  }

  /** Answer one disclosure-* command (the request is already checked by pas-stdio.mjs); throws on failure. */
  async handle(cmd, request) {
    if (cmd === 'disclosure-start') return this.#start(request.tools);
    if (this.#driver === null) throw new Refused('out-of-order', `send 'disclosure-start' before '${cmd}'`);
    const driver = this.#driver;
    switch (cmd) {
      case 'disclosure-request': return this.#request(request.thread);
      case 'disclosure-step': return this.#step(request.thread, request.calls);
      case 'disclosure-end':
        if (driver.openThreads.includes(request.thread)) await driver.endRequest(request.thread);
        return {};
      case 'disclosure-rebuild':
        await this.close();
        await driver.rebuild(request.store);
        return {};
      case 'disclosure-trim':
        await driver.trim(request.thread, request.keep);
        return {};
      case 'disclosure-idle':
        await driver.idle(request.seconds * 1000);
        return {};
      default: // disclosure-clear
        if (!this.#host.clear) throw adapterLimit(this.#host.limits.clear);
        await this.#host.clear(driver, request.thread);
        return {};
    }
  }

  /** End every open request (their generations finish); run before a rebuild and when the process ends. */
  async close() {
    for (const thread of this.#driver?.openThreads ?? []) await this.#driver.endRequest(thread);
  }

  async #start(tools) {
    await this.close();
    const clash = tools.find((tool) => Object.hasOwn(this.#host.loaders, tool?.name));
    if (clash) throw adapterLimit(`the catalogue tool ${JSON.stringify(clash.name)} has the name of the host's own loader tool`);
    const catalogue = {
      tools: tools.map(({ name, description, parameters }) => ({ name, description, ...(parameters ? { parameters } : {}) })),
      alwaysVisible: tools.filter((tool) => tool.always_visible === true).map((tool) => tool.name),
    };
    this.#driver = null;
    try {
      this.#driver = await this.#host.createDriver(catalogue);
    } catch (error) {
      // The drivers accept provider-style tool names and object parameter schemas only.
      if (error?.code === 'bad-catalogue') throw adapterLimit(`the host cannot take this catalogue: ${error.message}`);
      throw error;
    }
    this.#catalogue = new Set(catalogue.tools.map((tool) => tool.name));
    return {};
  }

  async #request(thread) {
    if (this.#driver.openThreads.includes(thread)) await this.#driver.endRequest(thread);
    const begun = await this.#driver.beginRequest(thread, 'hi');
    if (begun.ended) throw new Refused('host-ended', `the host ended the request on ${thread} before calling the model${begun.error ? `: ${begun.error}` : ''}`);
    return { tools: this.#tokens(begun.tools) };
  }

  async #step(thread, calls) {
    if (!this.#driver.openThreads.includes(thread)) throw new Refused('out-of-order', `thread ${thread} has no open request: send disclosure-request first`);
    const planned = calls.map((call) => this.#plan(call));
    const sent = planned.filter((entry) => entry.driverCall);
    let answers = [];
    let tools;
    if (sent.length > 0) {
      const step = await this.#driver.modelStep(thread, sent.map((entry) => entry.driverCall));
      if (step.ended) throw new Refused('host-ended', `the host ended the request on ${thread} instead of calling the model again${step.error ? `: ${step.error}` : ''}`);
      answers = step.answers;
      tools = step.nextTools;
    } else {
      tools = this.#driver.inspect(thread).tools.map((tool) => tool.name);
    }
    let next = 0;
    return {
      answers: planned.map((entry) => (entry.driverCall ? this.#answer(entry, answers[next++]) : { call: entry.kind, unsupported: true })),
      tools: this.#tokens(tools),
    };
  }

  /** A PAS call as {kind, ...} plus the driver's call, or without one when the host has no tool for it. */
  #plan(call) {
    const kind = ['load', 'unload', 'search', 'list', 'invoke'].find((key) => Object.hasOwn(call ?? {}, key));
    if (kind === undefined) throw new Refused('invalid-request', 'each call has one of load, unload, search, list, invoke');
    const entry = { kind, call };
    if (!this.#host.calls.includes(kind)) return entry;
    if (kind === 'load' || kind === 'unload') {
      const asked = call[kind];
      const names = typeof asked === 'string' ? this.#hostName(asked) : asked.map((name) => this.#hostName(name));
      return { ...entry, driverCall: { kind, names } };
    }
    if (kind === 'search') return { ...entry, driverCall: { kind, query: call.search } };
    if (kind === 'invoke') return { ...entry, driverCall: { kind, tool: call.invoke, arguments: call.arguments ?? {} } };
    return { ...entry, driverCall: { kind } };
  }

  #answer(entry, driven) {
    const { answer } = driven;
    if (answer.type === 'unsupported') return { call: entry.kind, unsupported: true };
    if (entry.kind === 'load') {
      const asked = distinct(typeof entry.call.load === 'string' ? [entry.call.load] : entry.call.load);
      const outcomes = this.#host.readLoad(answer, asked.map((name) => this.#hostName(name)));
      return withText(answer, { call: 'load', results: asked.map((name) => ({ name, outcome: outcomes.get(this.#hostName(name)) ?? 'unstated' })) });
    }
    if (entry.kind === 'search') {
      const { found, loaded } = this.#host.readSearch(answer);
      return withText(answer, { call: 'search', found: this.#tokens(found), loaded: this.#tokens(loaded) });
    }
    if (entry.kind === 'invoke') {
      const name = entry.call.invoke;
      const outcome = driven.executed ? 'executed' : this.#catalogue.has(name) ? 'refused' : 'not_found';
      return withText(answer, { call: 'invoke', name, outcome });
    }
    throw new Refused('internal-error', `no reader for a ${entry.kind} answer`); // unload and list have no host tool here
  }

  #hostName(name) {
    return this.#toHost.get(name) ?? name;
  }

  #tokens(names) {
    return names.map((name) => this.#host.loaders[name] ?? name);
  }
}
