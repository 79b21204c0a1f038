// The PAS stdio protocol, version 1 (docs/protocol.md), for an adapter that claims the disclosure profile only:
// framing (one JSON object per line, strict UTF-8), the shape of each request, hello and bye, and the order of
// answers. What each disclosure-* command does is the session's business (disclosure-session.mjs).
//
// Requests are handled one at a time, in the order they came, each answered with exactly one line; so the
// hello answer may announce a pipeline_depth (the runner then writes requests ahead of their answers).
// stdout carries protocol messages only: console output of the hosts goes to stderr. Bad input is answered
// with an error response; the process never exits on it.

import { format } from 'node:util';

export const PROTOCOL_VERSION = 1;
const PIPELINE_DEPTH = 64;
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** A request answered with an error response; `code` is kebab-case (error-response.schema.yaml). */
export class Refused extends Error {
  /** @param {string} code kebab-case code  @param {string} message one sentence for the report */
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

const THREAD = (value) => typeof value === 'string' && value.length > 0;
const COUNT = (value) => Number.isSafeInteger(value) && value >= 0;
const SECONDS = (value) => typeof value === 'number' && Number.isFinite(value) && value >= 0;

// The fields each command may carry besides id and cmd: name -> [check, what it must be].
const COMMANDS = {
  hello: { protocol_version: [Number.isSafeInteger, 'an integer'], spec_version: [(v) => typeof v === 'string', 'a string'] },
  bye: {},
  'disclosure-start': { tools: [Array.isArray, 'a list of tools'] },
  'disclosure-request': { thread: [THREAD, 'a non-empty string'] },
  'disclosure-step': { thread: [THREAD, 'a non-empty string'], calls: [(v) => Array.isArray(v) && v.length > 0, 'a non-empty list of calls'] },
  'disclosure-end': { thread: [THREAD, 'a non-empty string'] },
  'disclosure-rebuild': { store: [(v) => v === 'kept' || v === 'reset', "'kept' or 'reset'"] },
  'disclosure-trim': { thread: [THREAD, 'a non-empty string'], keep: [COUNT, 'an integer >= 0'] },
  'disclosure-idle': { seconds: [SECONDS, 'a number >= 0'] },
  'disclosure-clear': { thread: [THREAD, 'a non-empty string'] },
};

/** Check a parsed request's shape (every field required, none unknown); throws Refused. */
function checkRequest(doc) {
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) throw new Refused('invalid-request', 'a request must be a JSON object');
  if (!(Number.isSafeInteger(doc.id) && doc.id > 0)) throw new Refused('invalid-request', "'id' must be a positive integer");
  const fields = Object.hasOwn(COMMANDS, doc.cmd) ? COMMANDS[doc.cmd] : null;
  if (fields === null) {
    throw new Refused('unknown-command', `unknown command ${JSON.stringify(doc.cmd)}; this adapter claims only the disclosure profile and speaks ${Object.keys(COMMANDS).join(', ')}`);
  }
  for (const key of Object.keys(doc)) {
    if (key !== 'id' && key !== 'cmd' && !Object.hasOwn(fields, key)) throw new Refused('invalid-request', `unknown field '${key}' in ${doc.cmd}`);
  }
  for (const [key, [check, what]] of Object.entries(fields)) {
    if (!Object.hasOwn(doc, key)) throw new Refused('invalid-request', `'${key}' is required in ${doc.cmd}`);
    if (!check(doc[key])) throw new Refused('invalid-request', `'${key}' must be ${what}`);
  }
}

/**
 * One process's conversation with the runner. `info` is hello's {name, version, language, disclosure};
 * `session` answers the disclosure-* commands: `handle(cmd, request)` returns the result or throws
 * (Refused, or an error with a kebab-case `code` such as the drivers' DriverError).
 */
class Conversation {
  #greeted = false;

  constructor(info, session) {
    this.info = info;
    this.session = session;
    this.done = false;
  }

  /** The response object for one request line (a Buffer); never throws. */
  async answer(line) {
    let doc;
    try {
      doc = JSON.parse(UTF8.decode(line)); // strict UTF-8, strict JSON (no NaN, no Infinity)
    } catch (error) {
      return { id: null, ok: false, error: { message: `request is not JSON: ${error.message}`, code: 'invalid-json' } };
    }
    const id = doc !== null && Number.isSafeInteger(doc?.id) && doc.id > 0 ? doc.id : null;
    try {
      checkRequest(doc);
      return { id, ok: true, result: await this.#dispatch(doc) };
    } catch (error) {
      return { id, ok: false, error: errorOf(error) };
    }
  }

  async #dispatch(request) {
    const { cmd } = request;
    if (cmd === 'bye') {
      this.done = true;
      return {};
    }
    if (cmd === 'hello') {
      if (request.protocol_version !== PROTOCOL_VERSION) {
        throw new Refused('unsupported-protocol-version', `this adapter speaks protocol version ${PROTOCOL_VERSION}, not ${request.protocol_version}`);
      }
      this.#greeted = true;
      const { name, version, language, disclosure } = this.info;
      return { name, version, language, profiles: ['disclosure'], protocol_version: PROTOCOL_VERSION, pipeline_depth: PIPELINE_DEPTH, disclosure };
    }
    if (!this.#greeted) throw new Refused('out-of-order', "send 'hello' first");
    return this.session.handle(cmd, request);
  }
}

/** The error object of an error response: the error's own kebab-case code, else internal-error (logged). */
function errorOf(error) {
  const code = typeof error?.code === 'string' && /^[a-z0-9]+(-[a-z0-9]+)*$/.test(error.code) ? error.code : null;
  if (code === null) process.stderr.write(`${error?.stack ?? error}\n`); // our own bug or the host's: logged, answered
  const message = String(error?.message ?? error) || 'unknown error';
  return { message, code: code ?? 'internal-error' };
}

/** Split a byte stream into lines (without \n, and without a \r before it); empty lines are dropped. */
async function* lines(input) {
  let pending = Buffer.alloc(0);
  for await (const chunk of input) {
    pending = Buffer.concat([pending, chunk]);
    let end;
    while ((end = pending.indexOf(0x0a)) >= 0) {
      let line = pending.subarray(0, end);
      pending = pending.subarray(end + 1);
      if (line.length && line[line.length - 1] === 0x0d) line = line.subarray(0, -1);
      if (line.toString('latin1').trim() !== '') yield line;
    }
  }
  if (pending.toString('latin1').trim() !== '') yield pending;
}

/**
 * Serve the protocol on stdin/stdout until bye or the end of input, then exit 0.
 * `info`: hello's name, version, language and declared disclosure options; `session`: see Conversation.
 */
export async function servePas(info, session) {
  for (const level of ['log', 'info', 'debug', 'warn', 'error']) console[level] = (...args) => process.stderr.write(`${format(...args)}\n`);
  process.stdout.on('error', (error) => { if (error.code === 'EPIPE') process.exit(0); else throw error; });
  const conversation = new Conversation(info, session);
  for await (const line of lines(process.stdin)) {
    const reply = await conversation.answer(line);
    process.stdout.write(`${JSON.stringify(reply)}\n`);
    if (conversation.done) break;
  }
  await session.close?.();
  process.stdout.write('', () => process.exit(0));
}
