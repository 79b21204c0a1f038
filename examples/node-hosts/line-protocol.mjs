// The drivers' line protocol (examples/mastra/cli.mjs, examples/ai-sdk/cli.mjs): JSON lines in on stdin,
// JSON lines out on stdout, one answer per request line, in order. driver_client.py is its Python side.

import { createInterface } from 'node:readline';
import { format } from 'node:util';
import { DriverError } from './scripted-host.mjs';

const OPS = {
  beginRequest: (driver, m) => driver.beginRequest(m.thread, m.text),
  modelStep: (driver, m) => driver.modelStep(m.thread, m.calls),
  endRequest: (driver, m) => driver.endRequest(m.thread),
  rebuild: (driver, m) => driver.rebuild(m.store),
  trim: (driver, m) => driver.trim(m.thread, m.keepLast),
  idle: (driver, m) => driver.idle(m.ms),
  clearState: (driver, m) => {
    if (typeof driver.clearState !== 'function') throw new DriverError('unsupported', 'this host has no host-side clear of a thread');
    return driver.clearState(m.thread);
  },
  inspect: (driver, m) => driver.inspect(m.thread),
};

async function handle(state, message, create) {
  if (message === null || typeof message !== 'object' || typeof message.op !== 'string') {
    throw new DriverError('bad-message', 'each line is a JSON object with an "op"');
  }
  if (message.op === 'init') {
    if (state.driver) throw new DriverError('bad-message', 'init was already sent; start a new process for another catalogue');
    state.driver = await create({ tools: message.tools, alwaysVisible: message.alwaysVisible }, message.options ?? {});
    return state.driver.describe();
  }
  const op = OPS[message.op];
  if (!op) throw new DriverError('bad-message', `unknown op ${message.op}; one of init, ${Object.keys(OPS).join(', ')}`);
  if (!state.driver) throw new DriverError('bad-message', 'send init (catalogue and options) first');
  return op(state.driver, message);
}

/**
 * The line protocol: one JSON object per line on stdin ({"op": ..., "id"?: ...}), one answer per line
 * on stdout ({"id", "ok": true, "result"} or {"id", "ok": false, "error": {code, message}}), handled in
 * order. The first op is init {tools, alwaysVisible, options}; `create(catalogue, options)` makes the driver.
 */
export async function serveLines(create, input = process.stdin, output = process.stdout) {
  // stdout carries the protocol only: whatever a host logs goes to stderr.
  for (const level of ['log', 'info', 'debug', 'warn']) console[level] = (...args) => process.stderr.write(`${format(...args)}\n`);
  const state = { driver: null };
  // A reader that went away (EPIPE) ends the driver quietly: nobody is left to answer.
  output.on('error', (error) => { if (error.code === 'EPIPE') process.exit(0); else throw error; });
  for await (const line of createInterface({ input, crlfDelay: Infinity })) {
    if (line.trim() === '') continue;
    let id = null;
    let reply;
    try {
      const message = JSON.parse(line);
      id = message?.id ?? null;
      reply = { id, ok: true, result: await handle(state, message, create) };
    } catch (error) {
      const code = error instanceof DriverError ? error.code : error instanceof SyntaxError ? 'bad-json' : 'host-error';
      reply = { id, ok: false, error: { code, message: error.message ?? String(error) } };
    }
    output.write(`${JSON.stringify(reply)}\n`);
  }
}
