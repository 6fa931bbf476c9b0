// The install test's program in Node (install.test.mjs): prints what differs
// (chat.mjs), one line each, and exits with 1 when anything does.
import { chat } from "./chat.mjs";

const problems = await chat();
for (const p of problems) console.log(p);
console.log(problems.length === 0 ? "chat: ok" : `chat: ${problems.length} differences`);
process.exitCode = problems.length === 0 ? 0 : 1;
