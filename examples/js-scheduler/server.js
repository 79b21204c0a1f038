#!/usr/bin/env node
'use strict';
/**
 * The PAS stdio protocol, version 1 (docs/protocol.md), around scheduler.js and text.js.
 *
 *     pas run --impl 'cmd:node examples/js-scheduler/server.js'
 *     pas run --impl 'cmd:node examples/js-scheduler/server.js --no-text'   # activation only
 *
 * One JSON request per line on stdin, exactly one JSON response line on stdout for each, in
 * the order the requests came. Its hello announces a pipeline_depth, so the runner may write
 * requests ahead of their answers: the answers to the lines of one chunk of stdin go out in
 * one write. stdout carries protocol messages only; anything else goes to stderr.
 * Bad input is answered with an error response - the process never dies on it.
 */

const { BadInput, applyEvent, initialState, readCatalogue } = require('./scheduler');
const { renderReply, renderRun } = require('./text');

const PROTOCOL_VERSION = 1;
// Requests the runner may send before reading the first answer: lines are answered as they come,
// so any depth would do (1 would mean strictly in turn).
const PIPELINE_DEPTH = 64;
// Strict UTF-8 (fatal): one decoder for every line (decode() without {stream} keeps no state).
const UTF8 = new TextDecoder('utf-8', { fatal: true });
const INFO = { name: 'pas-js-example', version: '1.0.0', language: 'javascript' };

// The fields each command may carry besides `id` and `cmd`: name -> [type, required].
// 'any' is for `rounds` and `strategy`, which are passed through exactly as the model or admin
// wrote them: judging them is the scheduler's job (invalid_argument, rejected), not the wire's.
const COMMANDS = {
  hello: { protocol_version: ['integer', true], spec_version: ['string', true] },
  start: { plugins: ['array', true], host: ['object', true] },
  run: { conversation: ['string', true], adapter: ['string', false] },
  activate: { conversation: ['string', true], module_name: ['string', true], rounds: ['any', false], adapter: ['string', false] },
  extend: { conversation: ['string', true], module_name: ['string', true], rounds: ['any', false], adapter: ['string', false] },
  'set-strategy': { module_name: ['string', true], strategy: ['any', true] },
  enable: { module_name: ['string', true] },
  disable: { module_name: ['string', true] },
  'set-scheduler': { enabled: ['boolean', true] },
  restart: {},
  bye: {},
};

/** A request answered with an error response instead of a result. */
class Refused extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

function typeOk(value, type) {
  switch (type) {
    case 'any': return true;
    case 'integer': return Number.isSafeInteger(value);
    case 'array': return Array.isArray(value);
    case 'object': return value !== null && typeof value === 'object' && !Array.isArray(value);
    default: return typeof value === type;
  }
}

/** Check a parsed request's shape; throws Refused (invalid-request, unknown-command). */
function checkRequest(doc) {
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) throw new Refused('invalid-request', 'a request must be a JSON object');
  if (!(Number.isSafeInteger(doc.id) && doc.id > 0)) throw new Refused('invalid-request', "'id' must be a positive integer");
  const fields = Object.hasOwn(COMMANDS, doc.cmd) ? COMMANDS[doc.cmd] : null;
  if (fields === null) {
    throw new Refused('unknown-command', `unknown command ${JSON.stringify(doc.cmd)}; this implementation speaks ${Object.keys(COMMANDS).join(', ')}`);
  }
  for (const key of Object.keys(doc)) {
    if (key !== 'id' && key !== 'cmd' && !Object.hasOwn(fields, key)) throw new Refused('invalid-request', `unknown field '${key}'`);
  }
  for (const [key, [type, required]] of Object.entries(fields)) {
    if (!Object.hasOwn(doc, key)) {
      if (required) throw new Refused('invalid-request', `'${key}' is required`);
    } else if (!typeOk(doc[key], type)) {
      throw new Refused('invalid-request', `'${key}' must be ${type === 'integer' || type === 'array' || type === 'object' ? `an ${type}` : `a ${type}`}`);
    }
  }
}

/** One process's conversation with the runner: handshake state plus the scheduler's world. */
class Session {
  constructor({ text }) {
    this.text = text;
    this.profiles = text ? ['activation', 'text'] : ['activation'];
    this.greeted = false;
    this.world = null; // {catalogue, state} after `start`
    this.done = false;
  }

  /** The response object for one request line (a Buffer); never throws. */
  answer(line) {
    let doc;
    try {
      // Strict UTF-8 and strict JSON (JSON.parse has no NaN or Infinity).
      doc = JSON.parse(UTF8.decode(line));
    } catch (error) {
      return { id: null, ok: false, error: { message: `request is not JSON: ${error.message}`, code: 'invalid-json' } };
    }
    const id = doc !== null && Number.isSafeInteger(doc.id) && doc.id > 0 ? doc.id : null;
    try {
      checkRequest(doc);
      return { id, ok: true, result: this.dispatch(doc) };
    } catch (error) {
      if (error instanceof Refused) return { id, ok: false, error: { message: error.message, code: error.code } };
      if (error instanceof BadInput) return { id, ok: false, error: { message: error.message, code: 'invalid-request' } };
      process.stderr.write(`${error.stack}\n`); // our own bug: logged, answered, and we carry on
      return { id, ok: false, error: { message: String(error), code: 'internal-error' } };
    }
  }

  dispatch(request) {
    const { cmd } = request;
    if (cmd === 'bye') {
      this.done = true;
      return {};
    }
    if (cmd === 'hello') {
      if (request.protocol_version !== PROTOCOL_VERSION) {
        throw new Refused('unsupported-protocol-version', `this implementation speaks protocol version ${PROTOCOL_VERSION}, not ${request.protocol_version}`);
      }
      this.greeted = true;
      return { ...INFO, profiles: this.profiles, protocol_version: PROTOCOL_VERSION, pipeline_depth: PIPELINE_DEPTH };
    }
    if (!this.greeted) throw new Refused('out-of-order', "send 'hello' first");
    if (cmd === 'start') {
      // A new scenario: forget everything from earlier ones.
      this.world = { catalogue: readCatalogue(request.plugins), state: initialState(request.host) };
      return {};
    }
    if (this.world === null) throw new Refused('out-of-order', `send 'start' before '${cmd}'`);
    const { catalogue } = this.world;
    const { state, observation } = applyEvent(catalogue, this.world.state, request);
    this.world.state = state;
    if (this.text && cmd === 'run') observation.text = renderRun(catalogue, observation);
    if (this.text && (cmd === 'activate' || cmd === 'extend')) observation.text = renderReply(catalogue, request, observation);
    return observation;
  }
}

/** Split stdin into lines of bytes (decoding happens per line, so UTF-8 errors stay per request). */
function serve({ text }) {
  const session = new Session({ text });
  let pending = Buffer.alloc(0);
  const handle = (line, out) => {
    if (line.length && line[line.length - 1] === 0x0d) line = line.subarray(0, -1); // tolerate \r\n
    if (line.toString('latin1').trim() === '') return; // an empty line is not a request
    out.push(`${JSON.stringify(session.answer(line))}\n`);
  };
  const flush = (out) => {
    if (out.length) process.stdout.write(out.join('')); // the answers to one chunk's requests, in order
    if (session.done) {
      process.stdin.pause();
      process.stdout.write('', () => process.exit(0)); // exit once the answer to bye is out
    }
  };
  process.stdin.on('data', (chunk) => {
    pending = Buffer.concat([pending, chunk]);
    const out = [];
    let newline;
    while (!session.done && (newline = pending.indexOf(0x0a)) !== -1) {
      const line = pending.subarray(0, newline);
      pending = pending.subarray(newline + 1);
      handle(line, out);
    }
    flush(out);
  });
  process.stdin.on('end', () => {
    const out = [];
    if (!session.done && pending.length) handle(pending, out);
    flush(out);
  });
}

if (require.main === module) {
  serve({ text: !process.argv.slice(2).includes('--no-text') });
}

module.exports = { Session };
