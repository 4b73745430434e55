import { parseFile } from "stream-json/file/parser.js";
import { writeFileSync } from "node:fs";
for (const text of ['{"a": [1,', '{"a": [1]} x', '{"a": [1]} {}', '', '{"a": [tru]}', '{"a": "x\u0001"}']) {
  writeFileSync("/tmp/imp/t.json", text);
  const toks: string[] = [];
  try { for await (const t of parseFile({ packValues: true, streamValues: false })("/tmp/imp/t.json")) toks.push(t.name); console.log(JSON.stringify(text), "OK", toks.join(",")); }
  catch (e) { console.log(JSON.stringify(text), "ERR", (e as Error).message); }
}
