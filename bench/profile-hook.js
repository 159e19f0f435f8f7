'use strict';
// Preloaded into the API with BENCH_PROFILE=1 (`node --require bench/profile-hook.js`): the V8 CPU
// profiler, started and stopped by the harness over the IPC channel, so each profile covers one
// workload's measured runs only (no start-up, no idle waiting between workloads). `node --cpu-prof`
// cannot do that, and writes nothing when the process ends by a signal, which is how Nest's
// shutdown hooks end it. Each stopped profile is written to BENCH_PROFILE_DIR as
// `<label>.cpuprofile` and acknowledged with `{profiled: <file>}`.
const fs = require('node:fs');
const inspector = require('node:inspector');
const path = require('node:path');

const session = new inspector.Session();
session.connect();
const post = (method, params) =>
  new Promise((resolve, reject) =>
    session.post(method, params, (err, result) => (err ? reject(err) : resolve(result))),
  );

process.on('message', (message) => {
  if (!message || typeof message.profile !== 'string') return;
  const done = (reply) => process.send?.(reply);
  if (message.profile === 'start') {
    post('Profiler.enable')
      .then(() => post('Profiler.setSamplingInterval', { interval: 500 }))
      .then(() => post('Profiler.start'))
      .then(
        () => done({ profiling: true }),
        (err) => done({ error: String(err) }),
      );
  } else if (message.profile === 'stop') {
    post('Profiler.stop')
      .then(({ profile }) => {
        const file = path.join(process.env.BENCH_PROFILE_DIR, `${message.label}.cpuprofile`);
        fs.writeFileSync(file, JSON.stringify(profile));
        done({ profiled: file });
      })
      .catch((err) => done({ error: String(err) }));
  }
});
