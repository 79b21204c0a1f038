// Checks every claim about the AI SDK in hosts-facts.md section 4 against ai 7.0.173's real code, through
// driver.mjs (generateText with toolSearch() and deferLoading tools, scripted model) and, for options the
// driver does not expose (prepareStep, custom search lists, a deferred search tool), a direct generateText
// with a canned script. Prints one JSON line per claim: {id, held, claim, saw[, expected]}.
// FACTS-CHECKED.md is the written account of a run.
//   PATH="$HOME/.cache/pas/node22/bin:$PATH" node examples/ai-sdk/facts-probe.mjs [id-prefix]
import { generateText, isStepCount, jsonSchema, streamText, tool, toolSearch } from 'ai';
import { createRequire } from 'node:module';
import {
  FACTS_CATALOGUE, invoke, lineCheck, load, pick, prng, randomCatalogue, randomQuery, request, runChecks, same, sample, search, value,
} from '../node-hosts/probe-kit.mjs';
import { AiSdkDriver } from './driver.mjs';

const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'epsilon'];
const FIRST = ['tool_search', 'always_tool'];
const DESCRIPTION = 'Search for tools by keywords in their names and descriptions. Returns up to five matching tools. Matches become available on the next model step, after this execution finishes. Wait for their tool definitions before calling the discovered tools. If no tools match, try different keywords.';

const drive = (options = {}, catalogue = FACTS_CATALOGUE) => AiSdkDriver.create(catalogue, options);
const names = (step, index = 0) => value(step, index).tools.map((entry) => entry.name);

/** The plain fake tools of FACTS_CATALOGUE for direct generateText runs (deferred unless `always`). */
function fiveTools() {
  const tools = {};
  for (const [i, word] of WORDS.entries()) {
    tools[`tool_${i}`] = tool({ description: `Fake tool number ${i} (${word})`, inputSchema: jsonSchema({ type: 'object', properties: {} }), deferLoading: true, execute: async () => ({ ran: i }) });
  }
  tools.always_tool = tool({ description: 'Always there', inputSchema: jsonSchema({ type: 'object', properties: {} }), execute: async () => ({ ran: 'always' }) });
  return tools;
}

/**
 * generateText with a canned script: step k answers with script[k] (a list of [toolName, input]) and then
 * stops. Returns the tool names of every model call, the tool results of every prompt, and the error if any.
 */
async function scripted(tools, script, extra = {}) {
  const calls = [];
  let step = 0;
  const model = {
    specificationVersion: 'v4', provider: 'probe', modelId: 'probe', supportedUrls: {},
    async doGenerate(options) {
      const results = options.prompt.filter((m) => m.role === 'tool').flatMap((m) => m.content).map((p) => p.output);
      calls.push({ tools: (options.tools ?? []).map((t) => t.name), results, messages: options.prompt.length });
      const planned = script[step];
      step += 1;
      const usage = { inputTokens: { total: 1 }, outputTokens: { total: 1 } };
      if (!planned) return { content: [{ type: 'text', text: 'done' }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] };
      const content = planned.map(([toolName, input], k) => ({ type: 'tool-call', toolCallId: `s${step}_${k}`, toolName, input: JSON.stringify(input) }));
      return { content, finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage, warnings: [] };
    },
  };
  try {
    await generateText({ model, tools, prompt: 'hi', stopWhen: isStepCount(50), ...extra });
    return { calls };
  } catch (error) {
    return { calls, error: `${error.name}: ${error.message}` };
  }
}

const where = [
  ['A-unbound', 'toolSearch()\'s execute throws "toolSearch must be bound by an AI SDK generation." outside a generation', async () => {
    try {
      await toolSearch().execute({ query: 'x' }, { toolCallId: 'x', messages: [] });
      return { held: false, saw: 'no error' };
    } catch (error) {
      return same(error.message, 'toolSearch must be bound by an AI SDK generation.');
    }
  }],
  ['A-first', 'before any search: every non-deferred tool, including the search tool', async () =>
    same((await request(await drive(), 'A')).first, FIRST)],
  ['A-search-definition', 'search tool: input {query: string, minLength 1}, additionalProperties false; its description; custom search and other maxResults variants', async () => {
    const driver = await drive();
    await driver.beginRequest('A', 'hi');
    const definition = driver.inspect('A').tools[0];
    await driver.endRequest('A');
    const custom = toolSearch({ search: () => [] }).description;
    const three = toolSearch({ maxResults: 3 }).description;
    return same({ description: definition.description, parameters: definition.parameters, custom: custom.split('.')[0], three: three.split('. ')[1] }, {
      description: DESCRIPTION,
      parameters: { type: 'object', properties: { query: { type: 'string', minLength: 1 } }, required: ['query'], additionalProperties: false },
      custom: 'Search for tools matching a query', three: 'Returns up to 3 matching tools',
    });
  }],
  ['A-search-result', 'result {tools: [{name, description}]} without schemas; no match {tools: []}', async () => {
    const run = await request(await drive(), 'A', [[search('delta'), search('zzz')]]);
    return same([value(run.steps[0]), value(run.steps[0], 1)], [{ tools: [{ name: 'tool_3', description: 'Fake tool number 3 (delta)' }] }, { tools: [] }]);
  }],
  ['A-only-deferred', 'only deferred tools are candidates: a search for a non-deferred tool returns {tools: []}', async () => {
    const run = await request(await drive(), 'A', [[search('always there')]]);
    return same(value(run.steps[0]), { tools: [] });
  }],
  ['A-custom-search', "custom search: names de-duplicated, unknown names dropped, then cut to maxResults: ['nope','tool_1','tool_1','always_tool','tool_search','tool_3'] -> [tool_1, tool_3]", async () => {
    const tools = { tool_search: toolSearch({ search: () => ['nope', 'tool_1', 'tool_1', 'always_tool', 'tool_search', 'tool_3'] }), ...fiveTools() };
    const two = { tool_search: toolSearch({ maxResults: 1, search: () => ['nope', 'tool_1', 'tool_3'] }), ...fiveTools() };
    const run = await scripted(tools, [[['tool_search', { query: 'x' }]]]);
    const cut = await scripted(two, [[['tool_search', { query: 'x' }]]]);
    return same([run.calls[1].results[0].value.tools.map((t) => t.name), cut.calls[1].results[0].value.tools.map((t) => t.name)], [['tool_1', 'tool_3'], ['tool_1']]);
  }],
  ['A-hidden', 'calling an undiscovered deferred or unknown tool: error-text "AI_NoSuchToolError: Model tried to call unavailable tool \'tool_2\'. Available tools: tool_search, always_tool."; the loop continues; it does not run', async () => {
    const run = await request(await drive(), 'A', [[invoke('tool_2'), invoke('nothing')], [invoke('always_tool')]]);
    const [hidden, unknown] = run.steps[0].answers;
    return same({ hidden: hidden.answer, ran: hidden.executed, unknown: unknown.answer.value, after: run.steps[1].answers[0].executed }, {
      hidden: { type: 'error-text', value: "AI_NoSuchToolError: Model tried to call unavailable tool 'tool_2'. Available tools: tool_search, always_tool." },
      ran: false, unknown: "AI_NoSuchToolError: Model tried to call unavailable tool 'nothing'. Available tools: tool_search, always_tool.", after: true,
    });
  }],
  ['A-same-step', 'a call in the same step as the search cannot use the newly found tool', async () => {
    const run = await request(await drive(), 'A', [[search('delta'), invoke('tool_3')]]);
    return same([run.steps[0].answers[1].answer.type, run.steps[0].answers[1].executed, run.steps[0].nextTools], ['error-text', false, ['tool_search', 'tool_3', 'always_tool']]);
  }],
];

const state = [
  ['A-unknown-name', 'unknown name: dropped silently (a load of "nope" is a search that answers {tools: []}, not naming it)', async () => {
    const run = await request(await drive(), 'A', [[load('nope')]]);
    return same([value(run.steps[0]), run.steps[0].nextTools], [{ tools: [] }, FIRST]);
  }],
  ['A-again', 'already discovered: searching again changes nothing (the answer lists it again, the list is the same)', async () => {
    const run = await request(await drive(), 'A', [[search('delta')], [search('delta')]]);
    return same([value(run.steps[1]), run.steps[1].nextTools], [value(run.steps[0]), run.steps[0].nextTools]);
  }],
  ['A-rest-of-generation', 'discovered tools stay for the rest of the generation', async () => {
    const run = await request(await drive(), 'A', [[search('delta')], [invoke('always_tool')], [invoke('tool_3')], [invoke('always_tool')]]);
    return same({ lists: run.steps.map((s) => s.nextTools.includes('tool_3')), ran: run.steps[2].answers[0].executed }, { lists: [true, true, true, true], ran: true });
  }],
  ['A-next-request', 'a new request (new generateText with the previous messages) hides the deferred tools again; calling the tool the history found gives NoSuchToolError', async () => {
    const driver = await drive();
    await request(driver, 'A', [[search('delta')], [invoke('tool_3')]]);
    const run = await request(driver, 'A', [[invoke('tool_3')]]);
    return same({ first: run.first, answer: run.steps[0].answers[0].answer.value },
      { first: FIRST, answer: "AI_NoSuchToolError: Model tried to call unavailable tool 'tool_3'. Available tools: tool_search, always_tool." });
  }],
  ['A-isolated', 'two generations with the same tools object are isolated (interleaved: A discovers, B does not see it)', async () => {
    const driver = await drive();
    await driver.beginRequest('A', 'hi');
    await driver.beginRequest('B', 'hi');
    const a = await driver.modelStep('A', [search('delta')]);
    const b = await driver.modelStep('B', [invoke('always_tool')]);
    await driver.endRequest('A');
    await driver.endRequest('B');
    return same([a.nextTools, b.nextTools], [['tool_search', 'tool_3', 'always_tool'], FIRST]);
  }],
  ['A-active-tools', 'no unload; prepareStep returning activeTools without a discovered tool removes it for that step only', async () => {
    const run = await scripted({ tool_search: toolSearch(), ...fiveTools() }, [[['tool_search', { query: 'delta' }]], [['always_tool', {}]], [['always_tool', {}]]], {
      prepareStep: ({ stepNumber }) => (stepNumber === 2 ? { activeTools: ['tool_search', 'always_tool'] } : {}),
    });
    return same(run.calls.map((c) => c.tools), [FIRST, ['tool_search', 'tool_3', 'always_tool'], FIRST, ['tool_search', 'tool_3', 'always_tool']]);
  }],
  ['A-trim-within', 'trimming messages inside a generation (prepareStep messages) does not change the discovered set', async () => {
    const run = await scripted({ tool_search: toolSearch(), ...fiveTools() }, [[['tool_search', { query: 'delta' }]], [['always_tool', {}]]], {
      prepareStep: ({ stepNumber, messages }) => (stepNumber === 2 ? { messages: messages.slice(0, 1) } : {}),
    });
    return same(run.calls.map((c) => [c.messages, c.tools.includes('tool_3')]), [[1, false], [3, true], [1, true]]);
  }],
  ['A-batch', 'one search discovers up to maxResults tools; parallel searches in one step both apply; results accumulate across searches (no total cap)', async () => {
    const catalogue = randomCatalogue(23, 30, 0);
    const driver = await drive({}, catalogue);
    await driver.beginRequest('A', 'hi');
    const parallel = await driver.modelStep('A', [search('weather'), search('invoice')]);
    const found = new Set([...names(parallel), ...names(parallel, 1)]);
    let last = parallel;
    for (const word of ['calendar', 'ticket', 'email', 'report', 'upload']) {
      last = await driver.modelStep('A', [search(word)]);
      for (const name of names(last)) found.add(name);
    }
    await driver.endRequest('A');
    return { held: names(parallel).length <= 5 && last.nextTools.length === found.size + 1 && found.size > 5 && parallel.nextTools.length === new Set([...names(parallel), ...names(parallel, 1)]).size + 1, saw: { perSearch: [names(parallel).length, names(parallel, 1).length], discovered: found.size, listed: last.nextTools.length } };
  }],
  ['A-order-insertion', 'the list follows registration order: discovering tool_4 then tool_1 gives [.., tool_4, ..] then [.., tool_1, tool_4, ..]', async () => {
    const run = await request(await drive(), 'A', [[search('epsilon')], [search('beta')]]);
    return same(run.steps.map((s) => s.nextTools), [['tool_search', 'tool_4', 'always_tool'], ['tool_search', 'tool_1', 'tool_4', 'always_tool']]);
  }],
  ['A-tool-order', 'toolOrder fixes the order (listed names first, the rest alphabetically)', async () => {
    const run = await request(await drive({ toolOrder: ['tool_search', 'always_tool'] }), 'A', [[search('epsilon')], [search('beta')]]);
    const lists = run.steps.map((s) => s.nextTools);
    const appended = JSON.stringify(lists[1].slice(0, lists[0].length)) === JSON.stringify(lists[0]);
    return { held: appended, saw: { lists, note: appended ? 'appended' : 'tool_1 still lands before tool_4: toolOrder sorts, it does not append in discovery order' } };
  }],
  ['A-deferred-search', 'a search tool with deferLoading is rejected (AI_InvalidArgumentError …); deferred tools without a search tool are never shown', async () => {
    const bad = await scripted({ tool_search: { ...toolSearch(), deferLoading: true }, ...fiveTools() }, []);
    const none = await scripted(fiveTools(), [[['always_tool', {}]]]);
    return same({ bad: bad.error, none: none.calls.map((c) => c.tools) }, {
      bad: 'AI_InvalidArgumentError: Invalid argument for parameter tools: tool "tool_search" must be callable directly or through code mode with toolDiscovery: \'conversation\'. The search tool itself must not defer loading.',
      none: [['always_tool'], ['always_tool']],
    });
  }],
  ['A-stream-text', 'streamText (doStream) discovers the same way: search, next step has the tool, it runs', async () => {
    const script = [[['tool_search', { query: 'delta' }]], [['tool_3', {}]]];
    const seen = [];
    const model = {
      specificationVersion: 'v4', provider: 'probe', modelId: 'probe', supportedUrls: {},
      async doStream(options) {
        const planned = script[seen.length];
        seen.push(options.tools.map((t) => t.name));
        const parts = [{ type: 'stream-start', warnings: [] }];
        if (planned) parts.push(...planned.map(([toolName, input], k) => ({ type: 'tool-call', toolCallId: `s${seen.length}_${k}`, toolName, input: JSON.stringify(input) })));
        else parts.push({ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'done' }, { type: 'text-end', id: 't' });
        parts.push({ type: 'finish', finishReason: planned ? { unified: 'tool-calls', raw: 'tool_calls' } : { unified: 'stop', raw: 'stop' }, usage: { inputTokens: { total: 1 }, outputTokens: { total: 1 } } });
        return { stream: new ReadableStream({ start(controller) { for (const part of parts) controller.enqueue(part); controller.close(); } }) };
      },
    };
    const result = streamText({ model, tools: { tool_search: toolSearch(), ...fiveTools() }, prompt: 'hi', stopWhen: isStepCount(10) });
    await result.consumeStream();
    const ran = (await result.steps)[1].toolResults.map((r) => r.output);
    return same({ seen, ran }, { seen: [FIRST, ['tool_search', 'tool_3', 'always_tool'], ['tool_search', 'tool_3', 'always_tool']], ran: [{ ran: 3 }] });
  }],
  ['A-mock-model', 'ai/test exports MockLanguageModelV4', async () => {
    const test = await import('ai/test');
    return same(typeof test.MockLanguageModelV4, 'function');
  }],
];

/** The default ranking as the facts word it (not the SDK's code): terms split on camelCase and non-alphanumerics. */
function claimedRanking(catalogue, query, { dedupe = true, maxResults = 5 } = {}) {
  const split = (text) => text.replace(/([a-z\d])([A-Z])/g, '$1 $2').toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
  const terms = dedupe ? [...new Set(split(query))] : split(query);
  return catalogue.tools
    .filter((t) => !catalogue.alwaysVisible.includes(t.name))
    .map((t, index) => ({ name: t.name, index, score: terms.reduce((sum, term) => sum + (split(t.name).includes(term) ? 2 : 0) + (split(t.description).includes(term) ? 1 : 0), 0) }))
    .filter((m) => m.score > 0)
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, maxResults)
    .map((m) => m.name);
}

const random = [
  ['A-random-search', '30 random tools (3 not deferred), 300 random queries: +2 per query term in the name, +1 in the description, 0 dropped, ties in registration order, first maxResults (a repeated query term counts once)', async () => {
    const catalogue = randomCatalogue(29, 30, 3);
    const driver = await drive({}, catalogue);
    const rand = prng(31);
    const differ = [];
    let repeatsMatter = 0;
    for (let i = 0; i < 300; i += 1) {
      if (i % 20 === 0) await driver.beginRequest(`T${i}`, 'hi');
      const query = randomQuery(rand, catalogue);
      const step = await driver.modelStep(`T${i - (i % 20)}`, [search(query)]);
      const expected = claimedRanking(catalogue, query);
      if (JSON.stringify(names(step)) !== JSON.stringify(expected)) differ.push({ query, got: names(step), expected });
      if (JSON.stringify(claimedRanking(catalogue, query, { dedupe: false })) !== JSON.stringify(expected)) repeatsMatter += 1;
      if (i % 20 === 19) await driver.endRequest(`T${i - (i % 20)}`);
    }
    return { held: differ.length === 0, saw: { differ: differ.length, first: differ.slice(0, 3), queriesWhereCountingRepeatsWouldDiffer: repeatsMatter } };
  }],
  ['A-random-order', '30 random tools, random discoveries over 6 steps x 5 requests: the list is the registration order filtered to non-deferred + discovered; with toolOrder, listed names first and the rest alphabetically', async () => {
    const report = [];
    for (const toolOrder of [undefined, ['tool_search']]) {
      const catalogue = randomCatalogue(37, 30, 3);
      const registration = ['tool_search', ...catalogue.tools.map((t) => t.name)];
      const driver = await drive(toolOrder ? { toolOrder } : {}, catalogue);
      const rand = prng(41);
      let mismatches = 0;
      for (let r = 0; r < 5; r += 1) {
        const discovered = new Set();
        const expect = () => {
          const shown = registration.filter((n) => n === 'tool_search' || catalogue.alwaysVisible.includes(n) || discovered.has(n));
          return toolOrder ? ['tool_search', ...shown.filter((n) => n !== 'tool_search').sort()] : shown;
        };
        const first = await driver.beginRequest('A', 'hi');
        if (JSON.stringify(first.tools) !== JSON.stringify(expect())) mismatches += 1;
        for (let s = 0; s < 6; s += 1) {
          const step = await driver.modelStep('A', [search(randomQuery(rand, catalogue))]);
          for (const n of names(step)) discovered.add(n);
          if (JSON.stringify(step.nextTools) !== JSON.stringify(expect())) mismatches += 1;
        }
        await driver.endRequest('A');
      }
      report.push({ toolOrder: toolOrder ?? null, mismatches });
    }
    return { held: report.every((e) => e.mismatches === 0), saw: report };
  }],
  ['A-load-by-name', 'load by name (a search with the exact name): with the default ranking it discovers every tool sharing a term too; with an exact-name search function only the name', async () => {
    const catalogue = randomCatalogue(43, 30, 0);
    const pickName = pick(prng(47), catalogue.tools.filter((t) => /[_-]/.test(t.name))).name;
    const loose = await request(await drive({}, catalogue), 'A', [[load(pickName)]]);
    const exact = await request(await drive({ search: 'exact-names' }, catalogue), 'A', [[load(pickName), load(sample(prng(53), catalogue.tools.map((t) => t.name), 2))]]);
    return { held: names(loose.steps[0])[0] === pickName && names(exact.steps[0]).length === 1 && names(exact.steps[0], 1).length === 2, saw: { name: pickName, defaultFound: names(loose.steps[0]), exactFound: [names(exact.steps[0]), names(exact.steps[0], 1)] } };
  }],
];

const AI = createRequire(import.meta.url).resolve('ai/package.json').replace(/package\.json$/, '');
const PROVIDER_UTILS = createRequire(createRequire(import.meta.url).resolve('ai')).resolve('@ai-sdk/provider-utils/package.json').replace(/package\.json$/, '');
const lines = [
  ['src/tool-search/tool-search.ts', 25, 92, 'export function toolSearch({'],
  ['src/tool-search/tool-search.ts', 25, 92, "throw new Error('toolSearch must be bound by an AI SDK generation.')"],
  ['src/tool-search/tool-search.ts', 54, 54, 'Search for tools by keywords in their names and descriptions.'],
  ['src/tool-search/prepare-tool-search.ts', 20, 159, 'export function createToolSearchState({'],
  ['src/generate-text/generate-text.ts', 670, 670, 'createToolSearchState({'],
  ['src/generate-text/stream-text.ts', 1549, 1549, 'createToolSearchState({'],
  ['src/tool-search/prepare-tool-search.ts', 114, 135, '(nameTerms.includes(term) ? 2 : 0)'],
  ['src/tool-search/prepare-tool-search.ts', 114, 114, 'const terms = [...new Set(tokenize(query))]'],
  ['src/tool-search/prepare-tool-search.ts', 156, 163, "replace(/([a-z\\d])([A-Z])/g, '$1 $2')"],
  ['src/tool-search/prepare-tool-search.ts', 136, 141, '.slice(0, getToolSearchMaxResults(tool))'],
  ['src/error/no-such-tool-error.ts', 16, 16, "message = `Model tried to call unavailable tool '${toolName}'. ${"],
  ['docs/07-reference/01-ai-sdk-core/23-tool-search.mdx', 105, 108, 'parallel call in the same response as the search cannot use a newly discovered'],
  ['docs/07-reference/01-ai-sdk-core/23-tool-search.mdx', 125, 128, 'Discovery'],
  ['docs/07-reference/01-ai-sdk-core/23-tool-search.mdx', 125, 128, 'state is isolated between generation calls, including calls that reuse the same'],
  ['src/prompt/prepare-tools.ts', 82, 106, 'return Object.entries(tools);'],
  ['src/prompt/prepare-tools.ts', 82, 106, '.sort(([nameA], [nameB]) => (nameA < nameB ? -1 : nameA > nameB ? 1 : 0));'],
  ['docs/03-ai-sdk-core/19-tool-search.mdx', 21, 23, 'changes the tool definitions and can invalidate the cached prompt prefix.'],
  ['docs/03-ai-sdk-core/19-tool-search.mdx', 44, 75, "codeModeTool({ toolDiscovery: 'conversation' })"],
  ['docs/03-ai-sdk-core/18-code-mode.mdx', 115, 180, "Set `toolDiscovery` to"],
].map(([file, from, to, needle]) => lineCheck(AI + file, from, to, needle));
lines.push(lineCheck(`${PROVIDER_UTILS}src/types/tool.ts`, 56, 67, 'deferLoading?: boolean;'));

await runChecks([...where, ...state, ...random, ...lines]);
