'use strict';
// Shared helpers for the benchmarks: a throwaway database, the built API as a child process,
// and autocannon runs on loopback with fixed connections and a bounded duration.
const { spawn } = require('node:child_process');
const { once } = require('node:events');
const path = require('node:path');
const autocannon = require('autocannon');
const { Client } = require('pg');

const ROOT = path.resolve(__dirname, '..');
const SERVER_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function createBenchDatabase() {
  const name = `estate_bench_${Date.now()}`;
  const admin = new Client({ connectionString: SERVER_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new Client({ connectionString: SERVER_URL });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

async function sql(url, text, params = []) {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, params)).rows;
  } finally {
    await client.end();
  }
}

/** Starts the built API (npm run build first) and waits for /health. */
async function startApi({ databaseUrl, port }) {
  const child = spawn(process.execPath, [path.join(ROOT, 'dist/apps/api/src/main.js')], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      MIGRATE_ON_START: 'true',
      LOG_LEVEL: 'warn',
      REDIS_URL: '',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error('API exited during start');
    try {
      if ((await fetch(`${base}/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('API did not start in 60 s');
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    base,
    async stop() {
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

/** One bounded autocannon run; returns requests/s and latency percentiles (ms). */
async function measure(url, { connections = 10, duration = 10, headers = {} } = {}) {
  const result = await autocannon({ url, connections, duration, headers });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  }
  return { rps: Math.round(result.requests.average), p50: result.latency.p50, p99: result.latency.p99 };
}

async function json(base, method, route, { token, body } = {}) {
  const res = await fetch(base + route, {
    method,
    headers: {
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

module.exports = { createBenchDatabase, sql, startApi, measure, json, ROOT };
