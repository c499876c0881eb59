// SPDX-License-Identifier: GPL-2.0
//
// A node process with optimized JIT code whose work is known in advance.
//
//   node --perf-basic-prof --allow-natives-syntax --expose-gc nodework.js FIFO
//
// mix(x) is compiled by TurboFan before "ready <pid>" is printed, so that
// /tmp/perf-PID.map has it as JS:*mix.  The loop that calls it is never
// optimized, so that each call runs mix's own code (nothing inlines it).
// Commands are read from FIFO, one a line, and "done <n> <command>" is
// printed after the nth:
//
//   call N     calls mix(i) for i < N; prints "sum <sum> calls <N>"
//   deopt      deoptimizes mix (it runs in the interpreter)
//   opt        optimizes it again (new code: a new JS:*mix in the map)
//   gc N       N rounds of allocations and full collections
//   state      prints "optimized <true|false>"
//   exit       exits
'use strict';

const fs = require('fs');

function mix(x) {
	let r = (x ^ (x >>> 7)) >>> 0;

	r = Math.imul(r, 0x9e3779b1) >>> 0;
	return (r ^ (r >>> 15)) & 0xffff;
}

function calls(n) {
	let sum = 0;

	for (let i = 0; i < n; i++)
		sum += mix(i);
	return sum;
}
%NeverOptimizeFunction(calls);

function optimize() {
	%PrepareFunctionForOptimization(mix);
	calls(100);
	%OptimizeFunctionOnNextCall(mix);
	calls(1);
}

function optimized() {
	// V8's status bits: 16 is TurboFanned
	return (%GetOptimizationStatus(mix) & 16) !== 0;
}

function garbage(rounds) {
	for (let r = 0; r < rounds; r++) {
		let keep = [];

		for (let i = 0; i < 20000; i++)
			keep.push({ i, s: 'x' + i });
		keep = null;
		global.gc();
	}
}

function run(cmd, arg) {
	switch (cmd) {
	case 'call':
		console.log(`sum ${calls(arg)} calls ${arg}`);
		break;
	case 'deopt':
		%DeoptimizeFunction(mix);
		break;
	case 'opt':
		optimize();
		break;
	case 'gc':
		garbage(arg);
		break;
	case 'state':
		console.log(`optimized ${optimized()}`);
		break;
	case 'exit':
		process.exit(0);
		break;
	default:
		console.error(`unknown command ${cmd}`);
		process.exit(1);
	}
}

optimize();
console.log(`optimized ${optimized()}`);
console.log(`ready ${process.pid}`);

let done = 0;
let pending = '';
const fd = fs.openSync(process.argv[2], 'r+');
const buf = Buffer.alloc(256);

// Blocking reads: the process is busy only with what it is told
for (;;) {
	const n = fs.readSync(fd, buf, 0, buf.length, null);

	pending += buf.toString('utf8', 0, n);
	let nl;
	while ((nl = pending.indexOf('\n')) >= 0) {
		const line = pending.slice(0, nl);
		const [cmd, arg] = line.trim().split(/\s+/);

		pending = pending.slice(nl + 1);
		if (!cmd)
			continue;
		run(cmd, Number(arg || 0));
		console.log(`done ${++done} ${line}`);
	}
}
