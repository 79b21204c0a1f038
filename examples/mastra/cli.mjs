// The Mastra driver (driver.mjs) as a child process: JSON lines in on stdin, JSON lines out on stdout.
//   PATH="$HOME/.cache/pas/node22/bin:$PATH" node examples/mastra/cli.mjs
//   {"op": "init", "tools": [...], "alwaysVisible": [...], "options": {"storage": "context"}}
//   {"op": "beginRequest", "thread": "A", "text": "hi"}
//   {"op": "modelStep", "thread": "A", "calls": [{"kind": "search", "query": "weather"}]}
// Every answer is {"id", "ok": true, "result"} or {"id", "ok": false, "error": {"code", "message"}};
// ../node-hosts/line-protocol.mjs describes the protocol, driver.mjs each op.
import { MastraDriver } from './driver.mjs';
import { serveLines } from '../node-hosts/line-protocol.mjs';

await serveLines((catalogue, options) => MastraDriver.create(catalogue, options));
