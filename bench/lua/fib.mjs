// Runs fib(27) in wasmoon (Lua 5.4 in WebAssembly, the reference's engine)
// and prints the median milliseconds of several runs.
import { LuaFactory } from "wasmoon";

const source = `local function fib(n) if n < 2 then return n end return fib(n-1) + fib(n-2) end return fib(27)`;
const factory = new LuaFactory();
const runs = Number(process.env.RUNS || 7);
const times = [];
for (let i = 0; i < runs; i++) {
  const lua = await factory.createEngine();
  const start = process.hrtime.bigint();
  const result = await lua.doString(source);
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  lua.global.close();
  if (result !== 196418) throw new Error(`fib(27) gave ${result}`);
  times.push(ms);
}
times.sort((a, b) => a - b);
console.log(times[Math.floor(times.length / 2)].toFixed(2));
