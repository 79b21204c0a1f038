'use strict';
// Unit tests of the pure scheduler, with Node's built-in runner: `node --test examples/js-scheduler/`.
// The conformance suite (`pas run --impl 'cmd:node examples/js-scheduler/server.js'`) is the real test;
// these show how to drive applyEvent directly from your own test framework.

const assert = require('node:assert/strict');
const test = require('node:test');
const { applyEvent, initialState, parseRounds, readCatalogue, trimBrief } = require('./scheduler');

const weather = {
  name: 'Weather', module_name: 'weather', version: '1.0.0', description: 'Weather.',
  allow_sleep: true, sleep_brief: 'Weather for any city.',
};
const basic = { name: 'Basic', module_name: 'basic', version: '1.0.0', description: 'Basic.', builtin: true, allow_sleep: false };

function world() {
  return { catalogue: readCatalogue([weather, basic]), state: initialState({ enabled: ['weather'] }) };
}

function play(events) {
  let { catalogue, state } = world();
  return events.map((event) => {
    const next = applyEvent(catalogue, state, event);
    state = next.state;
    return next.observation;
  });
}

test('a plugin activated for 2 runs is active in the next 2 runs, then sleeps again', () => {
  const run = { cmd: 'run', conversation: 'c' };
  const [, ...runs] = play([{ cmd: 'activate', conversation: 'c', module_name: 'weather', rounds: 2 }, run, run, run]);
  const weatherIn = (observation) => observation.plugins.find((v) => v.module_name === 'weather');
  assert.deepEqual(runs.map((o) => [weatherIn(o).state, weatherIn(o).rounds_left]),
    [['active', 2], ['active', 1], ['sleeping', null]]);
});

test('always-awake plugins come first in the prompt', () => {
  const [observation] = play([{ cmd: 'run', conversation: 'c' }]);
  assert.deepEqual(observation.plugins.map((v) => v.module_name), ['basic', 'weather']);
});

test('counters are per conversation', () => {
  const observations = play([
    { cmd: 'activate', conversation: 'a', module_name: 'weather' },
    { cmd: 'run', conversation: 'b' },
  ]);
  assert.equal(observations[1].plugins[1].state, 'sleeping');
});

test('rounds are clamped when integers and invalid otherwise', () => {
  assert.deepEqual([undefined, null, 0, 2.0, 99].map(parseRounds), [3, 3, 1, 2, 20]);
  assert.deepEqual([1.5, '3', true, [], {}].map(parseRounds), [null, null, null, null, null]);
});

test('a brief of whitespace only is no brief', () => {
  assert.equal(trimBrief(' \t\r\n\u3000'), '');
  assert.equal(trimBrief('\n Rolls dice. \n'), 'Rolls dice.');
});
