#!/usr/bin/env node
// node-redlock measured the way `redlock bench` measures the core: closed loops on one Redlock instance,
// acquire one resource then release it, next acquire when the release completed; latency around the library
// calls. --concurrency K runs K such loops at once on distinct resources (RESOURCE:0 ... RESOURCE:K-1) until
// warmup + iterations pairs were started, as `redlock bench --concurrency K` does.
// Usage: node bench.js --nodes 127.0.0.1:p1,... [--iterations 20000] [--warmup 1000] [--ttl 10000]
//                      [--concurrency 1] [--json]
// A node may also be a unix domain socket, as `redlock` names it: unix:/path/to/redis.sock
'use strict';

const Redis = require('ioredis');
const Redlock = require('redlock');

function parseArgs(argv) {
  const args = { iterations: 20000, warmup: 1000, ttl: 10000, concurrency: 1, json: false, nodes: '' };
  for (let i = 2; i < argv.length; ++i) {
    const a = argv[i];
    if (a === '--json') args.json = true;
    else if (a === '--nodes') args.nodes = argv[++i];
    else if (a === '--iterations') args.iterations = Number(argv[++i]);
    else if (a === '--warmup') args.warmup = Number(argv[++i]);
    else if (a === '--ttl') args.ttl = Number(argv[++i]);
    else if (a === '--concurrency') args.concurrency = Number(argv[++i]);
    else throw new Error(`unknown argument ${a}`);
  }
  if (!args.nodes) throw new Error('--nodes host:port,... (or unix:/path,...) is required');
  return args;
}

function percentileUs(samplesNs, fraction) {
  if (samplesNs.length === 0) return 0;
  const sorted = [...samplesNs].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const rank = Math.min(Math.max(Math.ceil(fraction * sorted.length), 1), sorted.length);
  return Number(sorted[rank - 1]) / 1000;
}

async function main() {
  const args = parseArgs(process.argv);
  const clients = args.nodes.split(',').map((node) => {
    if (node.startsWith('unix:')) {
      return new Redis({ path: node.slice('unix:'.length), enableOfflineQueue: true, lazyConnect: false });
    }
    const [host, port] = node.split(':');
    return new Redis({ host, port: Number(port), enableOfflineQueue: true, lazyConnect: false });
  });
  await Promise.all(clients.map((c) => c.ping()));
  const redlock = new Redlock(clients, { driftFactor: 0.01, retryCount: 0, retryDelay: 200, retryJitter: 100 });
  redlock.on('clientError', () => {});

  const base = `redlock-bench:node:${process.pid}`;
  const acquireNs = [];
  const releaseNs = [];
  let failures = 0;
  let started = 0;
  const total = args.warmup + args.iterations;
  let measureStart = process.hrtime.bigint();
  const locker = async (resource) => {
    while (started < total) {
      const i = started++;
      if (i === args.warmup) measureStart = process.hrtime.bigint();
      const start = process.hrtime.bigint();
      let lock;
      try {
        lock = await redlock.lock(resource, args.ttl);
      } catch (e) {
        if (i >= args.warmup) ++failures;
        continue;
      }
      const acquired = process.hrtime.bigint();
      await lock.unlock();
      const released = process.hrtime.bigint();
      if (i >= args.warmup) {
        acquireNs.push(acquired - start);
        releaseNs.push(released - acquired);
      }
    }
  };
  const lockers = [];
  for (let k = 0; k < args.concurrency; ++k) lockers.push(locker(args.concurrency === 1 ? base : `${base}:${k}`));
  await Promise.all(lockers);
  const totalNs = Number(process.hrtime.bigint() - measureStart);
  const figures = {
    nodes: clients.length,
    iterations: args.iterations,
    warmup: args.warmup,
    ttlMs: args.ttl,
    concurrency: args.concurrency,
    library: 'redlock@4.2.0 + ioredis@4.28.5, node ' + process.version,
    acquireP50Us: percentileUs(acquireNs, 0.5),
    acquireP99Us: percentileUs(acquireNs, 0.99),
    releaseP50Us: percentileUs(releaseNs, 0.5),
    releaseP99Us: percentileUs(releaseNs, 0.99),
    pairsPerSecond: Math.round((args.iterations * 1e9) / totalNs),
    failures,
    rssKb: Math.round(process.memoryUsage().rss / 1024),
  };
  if (args.json) {
    console.log(JSON.stringify(figures, null, 2));
  } else {
    console.log(`node-redlock: acquire p50 ${figures.acquireP50Us.toFixed(1)} us, p99 ${figures.acquireP99Us.toFixed(1)} us; ` +
                `release p50 ${figures.releaseP50Us.toFixed(1)} us, p99 ${figures.releaseP99Us.toFixed(1)} us; ` +
                `${figures.pairsPerSecond} pairs/s; ${failures} failures; RSS ${figures.rssKb} kB`);
  }
  await Promise.all(clients.map((c) => c.quit()));
}

main().catch((e) => {
  console.error(`bench.js: ${e.message}`);
  process.exit(2);
});
