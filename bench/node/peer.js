'use strict';
// serval-bench's Node peer (bench/peers/bson_node_peer.c starts it):
//   node peer.js JOB FILE
// JOB is bson-decode, bson-encode or brson-decode; FILE holds the input.
// It prints "ready COUNT" after an untimed setup (which also checks that the
// job works), then answers each "run" line with "done SIZE" after one run,
// and exits on "quit" or at the end of its input.
const fs = require('fs');
const zlib = require('zlib');
const readline = require('readline');
const { BSON } = require('bson');

const [job, file] = process.argv.slice(2);
const data = fs.readFileSync(file);
// js-bson serializes into one internal buffer of 17 MB by default.
BSON.setInternalBufferSize(Math.max(data.length * 2, 17 * 1024 * 1024));

let tree = null;
let last = null;

function run() {
  last = null;
  switch (job) {
    case 'bson-decode':
      last = BSON.deserialize(data);
      return 0;
    case 'bson-encode':
      last = BSON.serialize(tree);
      return last.length;
    case 'brson-decode':
      // the 9-byte FrDT header, then a bare Brotli stream (spec resonite A.2.1)
      last = BSON.deserialize(zlib.brotliDecompressSync(data.subarray(9)));
      return 0;
    default:
      throw new Error('unknown job ' + job);
  }
}

function setup() {
  if (job === 'bson-encode') {
    tree = BSON.deserialize(data);
    return run();
  }
  run();
  return Object.keys(last).length;
}

process.stdout.write('ready ' + setup() + '\n');
const rl = readline.createInterface({ input: process.stdin });
rl.on('line', (line) => {
  if (line === 'run') {
    const size = run();
    process.stdout.write('done ' + size + '\n');
  } else {
    process.exit(0);
  }
});
