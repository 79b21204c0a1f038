// Checks every claim about Mastra in hosts-facts.md section 3 against @mastra/core 1.71.0's real code, mostly
// through driver.mjs (the real Agent and ToolSearchProcessor with a scripted model), and prints one JSON line
// per claim: {id, held, claim, saw[, expected]}. FACTS-CHECKED.md is the written account of a run.
//   PATH="$HOME/.cache/pas/node22/bin:$PATH" node examples/mastra/facts-probe.mjs [id-prefix]
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { ToolSearchProcessor } from '@mastra/core/processors';
import { MastraDriver } from './driver.mjs';
import {
  FACTS_CATALOGUE, invoke, lineCheck, load, pick, prng, randomCatalogue, randomQuery, request, runChecks, same, sample, search, value,
} from '../node-hosts/probe-kit.mjs';

const META = ['search_tools', 'load_tool', 'always_tool'];
const SYSTEM = 'To discover available tools, call search_tools with a keyword query. To add one or more tools to the conversation, call load_tool with a toolName or toolNames array. Tools must be loaded before they can be used.';

const drive = (options = {}, catalogue = FACTS_CATALOGUE) => MastraDriver.create(catalogue, options);

/** Tool list of the first model call of a new request on `thread` (the request is ended again). */
async function firstTools(driver, thread) {
  return (await request(driver, thread)).first;
}

const defaults = [
  ['M-defaults', 'defaults: topK 5, minScore 0, autoLoad false, storage in-memory, ttl 3,600,000 ms', async () => {
    const processor = new ToolSearchProcessor({ tools: {} });
    return same({ ...processor.searchConfig, store: processor.store.constructor.name, ttl: processor.store.ttl },
      { topK: 5, minScore: 0, autoLoad: false, store: 'LegacyMapLoadedToolStore', ttl: 3600000 });
  }],
  ['M-engines', 'package engines: node >=22.13.0', async () => {
    const path = createRequire(import.meta.url).resolve('@mastra/core/package.json');
    return same(JSON.parse(readFileSync(path, 'utf8')).engines, { node: '>=22.13.0' });
  }],
];

const seen = [
  ['M-order-first', 'first model call: search_tools, load_tool, the agent\'s own tools', async () =>
    same(await firstTools(await drive(), 'A'), META)],
  ['M-order-load', 'after a load the next step has the tool after the agent\'s own tools', async () => {
    const run = await request(await drive(), 'A', [[load('tool_2')]]);
    return same(run.steps[0].nextTools, [...META, 'tool_2']);
  }],
  ['M-system-each-step', 'the system text is added before every model step, once', async () => {
    const driver = await drive();
    await driver.beginRequest('A', 'hi');
    const texts = [driver.inspect('A').system];
    await driver.modelStep('A', [load('tool_1')]);
    texts.push(driver.inspect('A').system);
    await driver.endRequest('A');
    return same(texts.map((system) => system.filter((text) => text === SYSTEM).length), [1, 1]);
  }],
  ['M-autoload', 'autoLoad: no load_tool; its system text; search loads ("Found and loaded … Some were already loaded.")', async () => {
    const driver = await drive({ autoLoad: true });
    await driver.beginRequest('A', 'hi');
    const first = driver.inspect('A');
    const one = await driver.modelStep('A', [search('delta')]);
    const two = await driver.modelStep('A', [search('delta')]);
    await driver.endRequest('A');
    return same({
      first: first.tools.map((tool) => tool.name), after: one.nextTools,
      system: first.system.includes('To discover available tools, call search_tools with a keyword query. Matching tools are loaded automatically and become available on your next turn — there is no separate load step. After searching, use the tool directly.'),
      searchDescribesAutoLoad: first.tools[0].description.includes('which are loaded automatically'),
      messages: [value(one).message, value(two).message],
    }, {
      first: ['search_tools', 'always_tool'], after: ['search_tools', 'always_tool', 'tool_3'], system: true, searchDescribesAutoLoad: true,
      messages: ['Found and loaded 1 tool(s): tool_3. They are available on your next turn — call them directly.',
        'Found and loaded 1 tool(s): tool_3. They are available on your next turn — call them directly. Some were already loaded.'],
    });
  }],
  ['M-inject-catalog', 'injectCatalog adds a system text listing "- `tool_0`: Fake tool number 0 (alpha)" after "… Available tools:"', async () => {
    const driver = await drive({ injectCatalog: true });
    await driver.beginRequest('A', 'hi');
    const text = driver.inspect('A').system.find((entry) => entry.startsWith('The following tools are available to load.'));
    await driver.endRequest('A');
    return { held: Boolean(text?.includes('\n\nAvailable tools:\n- `tool_0`: Fake tool number 0 (alpha)\n')), saw: text };
  }],
  ['M-search-tool-definition', 'search_tools: description, input {query: string} with its example description', async () => {
    const driver = await drive();
    await driver.beginRequest('A', 'hi');
    const tool = driver.inspect('A').tools[0];
    await driver.endRequest('A');
    return same({ description: tool.description, query: tool.parameters.properties.query, required: tool.parameters.required }, {
      description: "Search for available tools by keyword. Use this when you need a capability you don't currently have. Returns a list of matching tools with their names and descriptions. After finding a useful tool, use load_tool to make it available.",
      query: { type: 'string', description: 'Search keywords (e.g., "weather", "github issue", "database query")' },
      required: ['query'],
    });
  }],
  ['M-search-answers', 'search answers {results: [{name, description, score}], message}; "Found 1 tool(s). …"; no match "No tools found matching \\"zzz\\". Try different keywords."', async () => {
    const run = await request(await drive(), 'A', [[search('delta'), search('zzz')]]);
    const found = value(run.steps[0]);
    return same({ keys: Object.keys(found.results[0]), message: found.message, none: value(run.steps[0], 1) }, {
      keys: ['name', 'description', 'score'],
      message: 'Found 1 tool(s). Use load_tool with an exact toolName or a toolNames array to make them available.',
      none: { results: [], message: 'No tools found matching "zzz". Try different keywords.' },
    });
  }],
  ['M-load-tool-definition', 'load_tool: description, input {toolName?: string, toolNames?: string[]}', async () => {
    const driver = await drive();
    await driver.beginRequest('A', 'hi');
    const tool = driver.inspect('A').tools[1];
    await driver.endRequest('A');
    return same({ description: tool.description, properties: Object.keys(tool.parameters.properties), required: tool.parameters.required }, {
      description: 'Load one or more tools into your context. Call this after finding tools with search_tools. Once loaded, tools will be available for use. Pass a single toolName or an array of toolNames to load multiple tools at once.',
      properties: ['toolName', 'toolNames'], required: undefined,
    });
  }],
  ['M-load-single', 'single load: new, already loaded, unknown, unknown with "Did you mean" (at most 3)', async () => {
    const run = await request(await drive(), 'A', [[load('tool_2')], [load('tool_2'), load('nope'), load('tool_')]]);
    return same([value(run.steps[0]), ...[0, 1, 2].map((i) => value(run.steps[1], i))], [
      { success: true, message: 'Tool "tool_2" loaded successfully. It will be available on your next turn.', toolName: 'tool_2' },
      { success: true, message: 'Tool "tool_2" is already loaded and available.', toolName: 'tool_2' },
      { success: false, message: 'Tool "nope" not found. Use search_tools to find available tools.', toolName: 'nope' },
      { success: false, message: 'Tool "tool_" not found. Did you mean: tool_0, tool_1, tool_2?', toolName: 'tool_' },
    ]);
  }],
  ['M-load-array', 'array form: de-duplicated, toolName joins the array, one summary, success false when any name is unknown', async () => {
    const run = await request(await drive(), 'A', [[load('tool_2')],
      [invoke('load_tool', { toolNames: ['tool_4', 'tool_1', 'tool_4', 'tool_2', 'nope'], toolName: 'tool_1' })]]);
    return same({ answer: value(run.steps[1]), next: run.steps[1].nextTools }, {
      answer: { success: false, message: 'Loaded: tool_4, tool_1 — available on your next turn | Already loaded: tool_2 | Not found: nope', loadedCount: 2, loaded: ['tool_4', 'tool_1'], notFound: ['nope'], alreadyLoaded: ['tool_2'] },
      next: [...META, 'tool_2', 'tool_4', 'tool_1'],
    });
  }],
  ['M-load-empty', 'toolNames [] and no argument answer their own messages', async () => {
    const run = await request(await drive(), 'A', [[invoke('load_tool', { toolNames: [] }), invoke('load_tool', {})]]);
    return same([value(run.steps[0]).message, value(run.steps[0], 1).message],
      ['toolNames array must not be empty.', 'You must provide either toolName (string) or toolNames (array) to load.']);
  }],
  ['M-load-own-tool', 'loading one of the agent\'s own tools answers not found', async () => {
    const run = await request(await drive(), 'A', [[load('always_tool')]]);
    return same(value(run.steps[0]).message, 'Tool "always_tool" not found. Use search_tools to find available tools.');
  }],
  ['M-include-resolved', 'includeResolvedTools: the agent\'s own tools leave the prompt and become searchable and loadable', async () => {
    const run = await request(await drive({ includeResolvedTools: true }), 'A', [[search('always')], [load('always_tool')]]);
    return same({ first: run.first, found: value(run.steps[0]).results.map((r) => r.name), next: run.steps[1].nextTools },
      { first: ['search_tools', 'load_tool'], found: ['always_tool'], next: ['search_tools', 'load_tool', 'always_tool'] });
  }],
  ['M-hidden-refused', 'calling a tool not in the step\'s set: "Tool \\"tool_0\\" not found. Available tools: … colons." and it does not run', async () => {
    const run = await request(await drive(), 'A', [[invoke('tool_0')]]);
    const answer = run.steps[0].answers[0];
    return same({ answer: answer.answer, executed: answer.executed }, {
      answer: { type: 'error-text', value: 'Tool "tool_0" not found. Available tools: search_tools, load_tool, always_tool. Call tools by their exact name only — never add prefixes, namespaces, or colons.' },
      executed: false,
    });
  }],
];

const inMemory = [
  ['M-mem-next-request', "in-memory with memory: next request on the thread keeps; a new thread starts empty", async () => {
    const driver = await drive({ memory: true });
    await request(driver, 'A', [[load('tool_2')]]);
    return same([await firstTools(driver, 'A'), await firstTools(driver, 'B')], [[...META, 'tool_2'], META]);
  }],
  ['M-mem-rebuild', 'in-memory: lost when the processor is recreated (store kept or not)', async () => {
    const driver = await drive({ memory: true });
    await request(driver, 'A', [[load('tool_2')]]);
    await driver.rebuild('kept');
    return same(await firstTools(driver, 'A'), META);
  }],
  ['M-mem-no-memory-shared', 'no memory on the agent: memory.thread is ignored, every thread shares \'default\' (X loads tool_4, Y has it)', async () => {
    const driver = await drive();
    await request(driver, 'X', [[load('tool_4')]]);
    return same(await firstTools(driver, 'Y'), [...META, 'tool_4']);
  }],
  ['M-mem-thread-key', 'thread id from the request context key mastra__threadId separates threads even without memory', async () => {
    const driver = await drive({ threadVia: 'request-context' });
    await request(driver, 'X', [[load('tool_4')]]);
    return same([await firstTools(driver, 'X'), await firstTools(driver, 'Y')], [[...META, 'tool_4'], META]);
  }],
  ['M-mem-ttl', 'idle expiry: untouched for ttl the entry is deleted (ttl 30 ms and the default hour, via cleanupNow)', async () => {
    const small = await drive({ memory: true, ttl: 30 });
    await request(small, 'A', [[load('tool_2')]]);
    const expiredSmall = small.idle(31).expired;
    const hour = await drive({ memory: true });
    await request(hour, 'A', [[load('tool_2')]]);
    const notYet = hour.idle(3_599_000).expired;
    const kept = await firstTools(hour, 'A');
    const expiredHour = hour.idle(3_600_001).expired;
    return same({ expiredSmall, small: await firstTools(small, 'A'), notYet, kept, expiredHour, hour: await firstTools(hour, 'A') },
      { expiredSmall: 1, small: META, notYet: 0, kept: [...META, 'tool_2'], expiredHour: 1, hour: META });
  }],
  ['M-mem-trim', 'in-memory state is independent of history: survives lastMessages 2', async () => {
    const driver = await drive({ memory: true });
    await request(driver, 'A', [[load('tool_2')]]);
    driver.trim('A', 2);
    const later = [];
    for (let i = 0; i < 4; i += 1) later.push(await firstTools(driver, 'A'));
    return same(later, Array(4).fill([...META, 'tool_2']));
  }],
  ['M-mem-host-reset', 'host-side reset: clearState(thread), clearAllState(), getStateStats(), cleanupNow()', async () => {
    const driver = await drive({ memory: true });
    await request(driver, 'A', [[load('tool_2')]]);
    await request(driver, 'B', [[load('tool_3')]]);
    const stats = driver.processor.getStateStats().threadCount;
    driver.processor.clearState('A');
    const afterClear = [await firstTools(driver, 'A'), await firstTools(driver, 'B')];
    driver.processor.clearAllState();
    return same({ stats, afterClear, afterAll: await firstTools(driver, 'B'), cleaned: driver.processor.cleanupNow() },
      { stats: 2, afterClear: [META, [...META, 'tool_3']], afterAll: META, cleaned: 0 });
  }],
];

const context = [
  ['M-ctx-search-loads', "context: a plain search_tools result loads what it lists; a later load_tool answers 'already loaded' (bug 1)", async () => {
    const run = await request(await drive({ storage: 'context', memory: true }), 'A', [[search('delta')], [load('tool_3')]]);
    return same({ next: run.steps[0].nextTools, load: value(run.steps[1]).message },
      { next: [...META, 'tool_3'], load: 'Tool "tool_3" is already loaded and available.' });
  }],
  ['M-ctx-restart', 'context: survives a rebuilt processor while the memory recalls the result; not with a new store', async () => {
    const driver = await drive({ storage: 'context', memory: true });
    await request(driver, 'A', [[load('tool_2')]]);
    await driver.rebuild('kept');
    const kept = await firstTools(driver, 'A');
    await driver.rebuild('reset');
    return same([kept, await firstTools(driver, 'A')], [[...META, 'tool_2'], META]);
  }],
  ['M-ctx-window', 'context: de-loads silently when the result leaves recalled messages: default lastMessages 10 gone at the 6th later one-message request; lastMessages 2 gone by the 2nd', async () => {
    const gone = async (keepLast) => {
      const driver = await drive({ storage: 'context', memory: true });
      await request(driver, 'A', [[load('tool_2')]]);
      if (keepLast !== undefined) driver.trim('A', keepLast);
      for (let n = 1; n <= 12; n += 1) if (!(await firstTools(driver, 'A')).includes('tool_2')) return n;
      return null;
    };
    return same({ default: await gone(), two: await gone(2) }, { default: 6, two: 2 });
  }],
  ['M-ctx-no-memory', 'context without memory: state lasts only within one request; no \'default\' sharing', async () => {
    const driver = await drive({ storage: 'context' });
    const run = await request(driver, 'X', [[load('tool_4')]]);
    return same([run.steps[0].nextTools, await firstTools(driver, 'X'), await firstTools(driver, 'Y')], [[...META, 'tool_4'], META, META]);
  }],
  ['M-ctx-clear-noop', 'context: clearState is a no-op', async () => {
    const driver = await drive({ storage: 'context', memory: true });
    await request(driver, 'A', [[load('tool_2')]]);
    driver.processor.clearState('A');
    driver.processor.clearAllState();
    return same(await firstTools(driver, 'A'), [...META, 'tool_2']);
  }],
  ['M-ctx-trim-silent', 'context: after a trim de-loads a tool, calling it is refused with no word that it was unloaded (bug 3)', async () => {
    const driver = await drive({ storage: 'context', memory: true });
    await request(driver, 'A', [[load('tool_2')]]);
    driver.trim('A', 2);
    await request(driver, 'A');
    const run = await request(driver, 'A', [[invoke('tool_2')]]);
    return same(run.steps[0].answers[0].answer.value,
      'Tool "tool_2" not found. Available tools: search_tools, load_tool, always_tool. Call tools by their exact name only — never add prefixes, namespaces, or colons.');
  }],
];

const general = [
  ['M-no-unload', 'no model-facing unload in either store (an unload_tool call is a tool not found)', async () => {
    const results = [];
    for (const storage of ['in-memory', 'context']) {
      const run = await request(await drive({ storage, memory: true }), 'A', [[load('tool_2')], [invoke('unload_tool', { toolName: 'tool_2' })]]);
      results.push([run.steps[0].nextTools.length, run.steps[1].answers[0].answer.type, run.steps[1].nextTools.includes('tool_2')]);
    }
    return same(results, [[4, 'error-text', true], [4, 'error-text', true]]);
  }],
  ['M-parallel-loads', 'parallel loads in one step share the step\'s set: [tool_3, tool_3, tool_0] -> loaded, already loaded, loaded', async () => {
    const run = await request(await drive(), 'A', [[load('tool_3'), load('tool_3'), load('tool_0')]]);
    return same([0, 1, 2].map((i) => value(run.steps[0], i).message.split('"')[2].trim()),
      ['loaded successfully. It will be available on your next turn.', 'is already loaded and available.', 'loaded successfully. It will be available on your next turn.']);
  }],
  ['M-topk', 'topK results per search (default 5, option respected); no cap on loaded tools', async () => {
    const catalogue = randomCatalogue(7, 30, 0);
    const names = catalogue.tools.map((tool) => tool.name);
    const run = await request(await drive({}, catalogue), 'A', [[search('weather invoice calendar ticket search email report')], [load(names)]]);
    const small = await request(await drive({ topK: 2 }, catalogue), 'A', [[search('weather invoice calendar ticket search email report')]]);
    return same({ five: value(run.steps[0]).results.length, two: value(small.steps[0]).results.length, loaded: run.steps[1].nextTools.length },
      { five: 5, two: 2, loaded: 32 });
  }],
  ['M-description-cut', 'descriptions are cut to 150 characters (147 and "...") in search results and the injected catalogue', async () => {
    const long = 'weather '.repeat(30).trim();
    const driver = await drive({ injectCatalog: true }, { tools: [{ name: 'long_tool', description: long }, { name: 'other', description: 'x' }] });
    const run = await driver.beginRequest('A', 'hi');
    const line = driver.inspect('A').system.find((text) => text.includes('long_tool')).split('\n').find((text) => text.startsWith('- `long_tool`'));
    const step = await driver.modelStep('A', [search('weather')]);
    await driver.endRequest('A');
    const found = value(step).results[0].description;
    return { held: run.tools.length === 2 && found.length === 150 && found.endsWith('...') && line === `- \`long_tool\`: ${long.slice(0, 147)}...`, saw: { found, line } };
  }],
];

/** Claim from the facts' own words: query tokens (lower case, split on spaces and -_.,;:!?()[]{}'", >= 2 chars). */
function tokens(text) {
  return text.toLowerCase().split(/[\s\-_.,;:!?()[\]{}'"]+/).filter((token) => token.length >= 2);
}

const random = [
  ['M-random-search', '30 random tools, 200 random queries: results <= topK, sorted by score, each shares a >= 2-character token with "<id> <description>"; single-character queries find nothing', async () => {
    const catalogue = randomCatalogue(11, 30, 0);
    const driver = await drive({}, catalogue);
    const rand = prng(12);
    const bad = [];
    await driver.beginRequest('A', 'hi');
    for (let i = 0; i < 200; i += 1) {
      const query = i % 50 === 0 ? 'a' : randomQuery(rand, catalogue);
      const { results } = value(await driver.modelStep('A', [search(query)]));
      const scores = results.map((r) => r.score);
      const sorted = scores.every((score, k) => k === 0 || scores[k - 1] >= score);
      const shares = results.every((r) => {
        const tool = catalogue.tools.find((t) => t.name === r.name);
        const doc = new Set(tokens(`${tool.name} ${tool.description}`));
        return tokens(query).some((token) => doc.has(token));
      });
      if (results.length > 5 || !sorted || !shares || (query === 'a' && results.length > 0)) bad.push({ query, results });
    }
    await driver.endRequest('A');
    return { held: bad.length === 0, saw: bad.length === 0 ? '200 queries as claimed' : bad.slice(0, 3) };
  }],
  ['M-random-name-boost', '30 random tools: a query token equal to a tool id adds 5, so a query equal to a one-word id finds that tool first; ids with _ or - are split like the query and never get the +5', async () => {
    const catalogue = randomCatalogue(13, 30, 0);
    const driver = await drive({}, catalogue);
    await driver.beginRequest('A', 'hi');
    const tally = { oneWord: [0, 0], separated: [0, 0] };
    const missed = [];
    for (const tool of catalogue.tools) {
      const { results } = value(await driver.modelStep('A', [search(tool.name)]));
      const kind = /[_-]/.test(tool.name) ? 'separated' : 'oneWord';
      tally[kind][1] += 1;
      if (results[0]?.name === tool.name) tally[kind][0] += 1;
      else missed.push({ query: tool.name, got: results.map((r) => `${r.name} ${r.score}`) });
    }
    await driver.endRequest('A');
    return { held: tally.oneWord[0] === tally.oneWord[1], saw: { firstOfTotal: tally, missed: missed.slice(0, 3) } };
  }],
  ['M-random-order', '30 random tools, 3 always visible, random loads over 4 requests x 4 steps (both stores, with memory): meta, own tools in registration order, then loaded tools in first-load order, append-only', async () => {
    const report = [];
    for (const storage of ['in-memory', 'context']) {
      const catalogue = randomCatalogue(17, 30, 3);
      const own = catalogue.tools.map((tool) => tool.name).filter((name) => catalogue.alwaysVisible.includes(name));
      const deferred = catalogue.tools.map((tool) => tool.name).filter((name) => !own.includes(name));
      const driver = await drive({ storage, memory: true, topK: 1 }, catalogue);
      const rand = prng(19);
      const order = [];
      let mismatches = 0;
      for (let r = 0; r < 4; r += 1) {
        let tools = (await driver.beginRequest('A', 'hi')).tools;
        if (JSON.stringify(tools) !== JSON.stringify(['search_tools', 'load_tool', ...own, ...order])) mismatches += 1;
        for (let s = 0; s < 4; s += 1) {
          const names = sample(rand, deferred, 1 + Math.floor(rand() * 3));
          const step = await driver.modelStep('A', [load(rand() < 0.5 ? names[0] : [...names, pick(rand, deferred)])]);
          const single = step.answers[0].call.single;
          for (const name of single ? names.slice(0, 1) : [...step.answers[0].call.names]) if (!order.includes(name)) order.push(name);
          tools = step.nextTools;
          if (JSON.stringify(tools) !== JSON.stringify(['search_tools', 'load_tool', ...own, ...order])) mismatches += 1;
        }
        await driver.endRequest('A');
      }
      report.push({ storage, mismatches, loaded: order.length });
    }
    return { held: report.every((entry) => entry.mismatches === 0), saw: report };
  }],
];

const BUNDLE = createRequire(import.meta.url).resolve('@mastra/core/package.json').replace(/package\.json$/, 'dist/agent-BOxKOk3n.js');
const lines = [
  [16886, 17269, 'var ToolSearchProcessor = class'],
  [16898, 16910, 'topK: options.search?.topK ?? 5'],
  [16898, 16910, 'const storage = options.storage ?? "in-memory"'],
  [17126, 17268, 'async processInputStep(args)'],
  [16860, 16874, 'index.add(name, `${name} ${description}`)'],
  [16821, 16827, 'minLength: 2'],
  [17091, 17124, 'if (nameLower === term) score += 5'],
  [17263, 17268, '...autoLoad ? {} : { load_tool: loadTool }'],
  [17132, 17132, 'Tools must be loaded before they can be used.'],
  [17133, 17136, 'Available tools:'],
  [17171, 17260, 'toolNames array must not be empty.'],
  [29758, 29758, 'Call tools by their exact name only'],
  [16747, 16815, 'var LegacyMapLoadedToolStore = class'],
  [16920, 16922, 'parseMemoryRequestContext(requestContext)?.thread?.id'],
  [16755, 16757, 'return ctx.threadId || "default"'],
  [16806, 16812, 'Math.max(this.ttl / 2, 6e4)'],
  [16707, 16734, 'var ContextLoadedToolStore = class'],
  [16672, 16689, 'function deriveLoadedNamesFromMessages'],
  [16652, 16666, 'const maybeResults = result.results'],
  [18647, 18648, 'lastMessages: 10'],
  [35587, 35587, 'if (!memory || !thread?.id && !resourceId)'],
].map(([from, to, needle]) => lineCheck(BUNDLE, from, to, needle));

await runChecks([...defaults, ...seen, ...inMemory, ...context, ...general, ...random, ...lines]);
