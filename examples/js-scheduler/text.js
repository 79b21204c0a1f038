'use strict';
/**
 * The reference text (profile `text`, requirements TXT-BLOCK-* and TXT-REPLY-*): the plugin
 * section of the prompt and the sentences the two methods reply with. Pure functions of the
 * catalogue and an observation from scheduler.js.
 *
 * The text profile is optional: a scheduler that renders its own wording claims only
 * `activation`, and the suite then checks the structured views alone.
 */

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

/** TXT-BLOCK-1: `<plugin name=".." module_name=".." state=".." [rounds_left=".."]>`. */
function openTag(plugin, view) {
  let tag = `<plugin name=${attribute(plugin.name)} module_name=${attribute(plugin.moduleName)} state=${attribute(view.state)}`;
  if (view.state === 'active') tag += ` rounds_left="${view.rounds_left}"`;
  if (view.state === 'sleeping') tag += ' rounds_left="0"';
  return `${tag}>`;
}

/** One `<plugin>` block; `withInjection` adds `<injected_prompt>` (inside activation replies only). */
function renderBlock(plugin, view, withInjection = false) {
  const lines = [openTag(plugin, view)];
  if (view.state === 'sleeping') {
    // TXT-BLOCK-3: the trimmed brief and the fixed rule, no methods.
    lines.push(`  <capability_brief>${escapeText(plugin.brief)}</capability_brief>`);
    lines.push(`  <activation_rule>${SLEEPING_RULE}</activation_rule>`);
  } else {
    if (view.hint) lines.push(`  <activation_rule>${escapeText(lastRunHint(plugin.moduleName))}</activation_rule>`);
    if (withInjection && view.injection_called) {
      lines.push(`  <injected_prompt>${escapeText(injectedPrompt(plugin.moduleName))}</injected_prompt>`);
    }
    // TXT-BLOCK-5: the methods of an awake or active plugin.
    lines.push('  <predefined_methods>');
    for (const m of plugin.methods) lines.push(`    - ${escapeText(m.name)} (${m.kind}): ${escapeText(m.description)}`);
    lines.push('  </predefined_methods>');
  }
  lines.push('</plugin>');
  return lines.join('\n');
}

/** The plugin section of one run's prompt: the blocks in order, then the runtime contexts (TXT-BLOCK-6). */
function renderRun(catalogue, observation) {
  const parts = observation.plugins.map((view) => renderBlock(catalogue.get(view.module_name), view));
  for (const view of observation.plugins) {
    if (!view.injection_called) continue; // only awake and active plugins inject
    const plugin = catalogue.get(view.module_name);
    parts.push(`<plugin_runtime_context name=${attribute(plugin.name)} module_name=${attribute(plugin.moduleName)}>`
      + `${escapeText(injectedPrompt(plugin.moduleName))}</plugin_runtime_context>`);
  }
  return parts.join('\n');
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
        + 'Use `extend_plugin_activation(module_name, rounds)` to keep it visible longer.';
    case 'always_awake':
      return `Plugin \`${m}\` is always visible and does not ${event.cmd === 'activate' ? 'need activation' : 'need to be extended'}.`;
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
