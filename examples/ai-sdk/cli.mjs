// The AI SDK driver (driver.mjs) as a child process: JSON lines in on stdin, JSON lines out on stdout.
//   PATH="$HOME/.cache/pas/node22/bin:$PATH" node examples/ai-sdk/cli.mjs
//   {"op": "init", "tools": [...], "alwaysVisible": [...], "options": {"toolOrder": ["tool_search"]}}
//   {"op": "beginRequest", "thread": "A", "text": "hi"}
//   {"op": "modelStep", "thread": "A", "calls": [{"kind": "search", "query": "weather"}]}
// Every answer is {"id", "ok": true, "result"} or {"id", "ok": false, "error": {"code", "message"}};
// ../node-hosts/line-protocol.mjs describes the protocol, driver.mjs each op.
import { AiSdkDriver } from './driver.mjs';
import { serveLines } from '../node-hosts/line-protocol.mjs';

await serveLines((catalogue, options) => AiSdkDriver.create(catalogue, options));
