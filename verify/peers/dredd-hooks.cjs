// Dredd's hook file: Dredd loads hooks with require() and hands them its `hooks` module. The hooks
// themselves are ./dredd-hooks.ts (Node 22.12+ requires an ES module, and strips its types);
// ./run.ts passes the server and the members' tokens in CIRCLE_PEER_CONTEXT.
const hooks = require('hooks');
require('./dredd-hooks.ts').installHooks(hooks, JSON.parse(process.env.CIRCLE_PEER_CONTEXT));
