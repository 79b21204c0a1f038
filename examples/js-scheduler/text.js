'use strict';
/**
 * The reference text (profile `text`, requirements TXT-BLOCK-*, TXT-REPLY-* and TXT-LAYOUT-*):
 * the plugin section of the prompt and the sentences the two methods reply with, laid out as
 * NekroAgent 2.4.0 lays them out (escaping aside). Pure functions of the catalogue and an
 * observation from scheduler.js.
 *
 * The text profile is optional: a scheduler that renders its own wording claims only
 * `activation`, and the suite then checks the structured views alone.
 */

const { trimBrief } = require('./scheduler');

const SLEEPING_RULE = 'Summary only. Do not guess hidden details. Activate if needed.';

/** TXT-BLOCK-2: escape text values (&, <, >). */
function escapeText(text) {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** TXT-BLOCK-2: a double-quoted attribute value, with `"` escaped too. */
function attribute(value) {
  return `"${escapeText(value).replace(/"/g, '&quot;')}"`;
}

/** TXT-BLOCK-4: the hint of an active plugin's last visible run. */
function lastRunHint(moduleName) {
  return `Last visible run. Call extend_plugin_activation('${moduleName}') now if you still need it next run.`;
}

/** What an injecting plugin's prompt injection returns: a fixed stand-in, as no plugin code runs here. */
function injectedPrompt(moduleName) {
  return `[prompt injected by ${moduleName}]`;
}

/** TXT-BLOCK-1, TXT-LAYOUT-2: `<plugin name=".." module_name=".." call_priority="auto" state=".." [rounds_left=".."]>`. */
function openTag(plugin, view) {
  let tag = `<plugin name=${attribute(plugin.name)} module_name=${attribute(plugin.moduleName)} call_priority="auto"`
    + ` state=${attribute(view.state)}`;
  if (view.state === 'active') tag += ` rounds_left="${view.rounds_left}"`;
  if (view.state === 'sleeping') tag += ' rounds_left="0"';
  return `${tag}>`;
}

/** TXT-LAYOUT-5: `* name` (plus the marker of agent kinds), the trimmed description below; empty descriptions skipped. */
function methodList(plugin) {
  return plugin.methods
    .filter((m) => m.description !== '')
    .map((m) => {
      const marker = m.kind === 'agent' || m.kind === 'multimodal_agent' ? ' - **[AGENT METHOD - STOP AFTER CALL]**' : '';
      return `* ${escapeText(m.name)}${marker}\n${escapeText(trimBrief(m.description))}`;
    })
    .join('\n');
}

/** TXT-LAYOUT-4: one slot of the frame, empty or `\n<tag>\nvalue\n</tag>\n`. */
function element(tag, value) {
  return value ? `\n<${tag}>\n${value}\n</${tag}>\n` : '';
}

/**
 * One `<plugin>` block (TXT-LAYOUT-3): a newline, the open tag, then five slots (brief, sleeping
 * rule, last-run hint, injected prompt, methods) with fixed separators, then `</plugin>` and a
 * newline. `withInjection` fills the injected-prompt slot (inside activation replies only).
 */
function renderBlock(plugin, view, withInjection = false) {
  const sleeping = view.state === 'sleeping';
  const slots = [
    element('capability_brief', sleeping ? escapeText(plugin.brief) : ''), // TXT-BLOCK-3
    element('activation_rule', sleeping ? SLEEPING_RULE : ''),
    element('activation_rule', !sleeping && view.hint ? escapeText(lastRunHint(plugin.moduleName)) : ''), // TXT-BLOCK-4
    element('injected_prompt', !sleeping && withInjection && view.injection_called
      ? escapeText(injectedPrompt(plugin.moduleName)) : ''),
    element('predefined_methods', sleeping ? '' : methodList(plugin)), // TXT-BLOCK-5
  ];
  return `\n${openTag(plugin, view)}\n\n${slots[0]}\n\n${slots[1]}\n\n${slots[2]}\n\n${slots[3]}\n${slots[4]}\n\n</plugin>\n`;
}

/** The plugin section of one run's prompt: blocks joined by a blank line, then the runtime contexts (TXT-LAYOUT-6, -7). */
function renderRun(catalogue, observation) {
  const blocks = observation.plugins.map((view) => renderBlock(catalogue.get(view.module_name), view)).join('\n\n');
  const contexts = [];
  for (const view of observation.plugins) {
    if (!view.injection_called) continue; // only awake and active plugins inject (TXT-BLOCK-6)
    const plugin = catalogue.get(view.module_name);
    contexts.push(`<plugin_runtime_context name=${attribute(plugin.name)} module_name=${attribute(plugin.moduleName)}>\n`
      + `${escapeText(injectedPrompt(plugin.moduleName))}\n</plugin_runtime_context>`);
  }
  return contexts.length ? `${blocks}\n\n${contexts.join('\n\n')}` : blocks;
}

/** The reply sentence(s) of an activate/extend call (TXT-REPLY-1..6). */
function renderReply(catalogue, event, observation) {
  const m = observation.module_name;
  switch (observation.outcome) {
    case 'activated':
      return `Plugin \`${m}\` is now activated for the next ${observation.rounds} runs. The full plugin block is `
        + 'returned below and is now the source of truth for this capability. Stop here and continue in the next '
        + `agent step.\n\n${renderBlock(catalogue.get(m), observation.block, true)}`;
    case 'already_active':
      return `Plugin \`${m}\` is already active with ${observation.rounds} runs remaining. `
        + 'Use `extend_plugin_activation(module_name, rounds)` if you need to keep it visible longer.';
    case 'always_awake':
      return `Plugin \`${m}\` is always visible and does not ${event.cmd === 'activate' ? 'need activation' : 'need to be extended'}.`
        + ' You can use its predefined methods directly.';
    case 'not_found':
      return `Plugin \`${m}\` is missing or disabled.`;
    case 'extended':
      return `Plugin \`${m}\` visibility extended. ${observation.rounds} runs remain.`;
    case 'invalid_argument':
      // TXT-REPLY-6: compact JSON, non-ASCII as itself - exactly what JSON.stringify writes.
      return `Invalid rounds value ${JSON.stringify(event.rounds)}: rounds must be an integer.`;
    default:
      throw new Error(`unknown outcome ${observation.outcome}`);
  }
}

module.exports = { escapeText, renderBlock, renderReply, renderRun };
